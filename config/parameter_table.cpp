#include "config/parameter_table.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace wmnsim {

namespace {

using ojson = nlohmann::ordered_json;

// 1 as 1, not 1.0: the schema reads as written by hand.
ojson json_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return static_cast<std::int64_t>(v);
  return v;
}

void add_range(ojson& out, const NumberRange& range) {
  if (std::isfinite(range.min)) out[range.min_exclusive ? "exclusiveMinimum" : "minimum"] = json_number(range.min);
  if (std::isfinite(range.max)) out[range.max_exclusive ? "exclusiveMaximum" : "maximum"] = json_number(range.max);
}

constexpr std::int64_t kNoMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kNoMax = std::numeric_limits<std::int64_t>::max();

// As check_integer's messages word it.
std::string integer_bounds(std::int64_t lo, std::int64_t hi) {
  if (lo != kNoMin && hi != kNoMax) return std::to_string(lo) + ".." + std::to_string(hi);
  if (lo != kNoMin) return ">= " + std::to_string(lo);
  if (hi != kNoMax) return "<= " + std::to_string(hi);
  return "";
}

std::string with_space(const std::string& s) { return s.empty() ? s : " " + s; }

std::string code(std::string_view s) { return "`" + std::string(s) + "`"; }

std::string or_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += code(names[i]);
  }
  return out;
}

void require_key(const ParameterSpec& s) {
  if (s.key.empty()) throw std::invalid_argument("a parameter without a key");
}

ParameterSpec base(std::string key, ParameterKind kind, std::string description, std::string source) {
  ParameterSpec s;
  s.key = std::move(key);
  s.kind = kind;
  s.description = std::move(description);
  s.source = std::move(source);
  require_key(s);
  return s;
}

}  // namespace

// ---- ParameterSpec ------------------------------------------------------------------

nlohmann::ordered_json ParameterSpec::schema() const {
  ojson out = ojson::object();
  switch (kind) {
    case ParameterKind::number:
    case ParameterKind::seconds:
    case ParameterKind::microseconds:
      out["type"] = "number";
      break;
    case ParameterKind::integer:
      out["type"] = "integer";
      break;
    case ParameterKind::boolean:
      out["type"] = "boolean";
      break;
    case ParameterKind::choice:
      out["enum"] = choices;
      break;
    case ParameterKind::object:
      out["type"] = "object";
      break;
    case ParameterKind::custom:
      out = custom_schema.is_object() ? custom_schema : ojson::object();
      break;
  }
  std::string text = description;
  if (!unit.empty()) text += " (" + unit + ")";
  if (!source.empty()) text += "; " + source;
  out["description"] = text;
  switch (kind) {
    case ParameterKind::number:
    case ParameterKind::seconds:
    case ParameterKind::microseconds:
      add_range(out, range);
      break;
    case ParameterKind::integer:
      if (int_min != kNoMin) out["minimum"] = int_min;
      if (int_max != kNoMax) out["maximum"] = int_max;
      break;
    case ParameterKind::object: {
      ojson props = ojson::object();
      for (const ParameterSpec& m : members) props[m.key] = m.schema();
      out["properties"] = props;
      ojson required_members = ojson::array();
      for (const ParameterSpec& m : members) {
        if (m.required) required_members.push_back(m.key);
      }
      if (!required_members.empty()) out["required"] = required_members;
      out["additionalProperties"] = false;
      break;
    }
    default:
      break;
  }
  if (!default_value.is_null()) out["default"] = default_value;
  return out;
}

std::string ParameterSpec::value_text() const {
  const std::string unit_text = unit.empty() ? "" : " (" + unit + ")";
  switch (kind) {
    case ParameterKind::number:
    case ParameterKind::seconds:
    case ParameterKind::microseconds:
      return "number" + with_space(range.describe()) + unit_text;
    case ParameterKind::integer:
      return "integer" + with_space(integer_bounds(int_min, int_max)) + unit_text;
    case ParameterKind::boolean:
      return "true or false";
    case ParameterKind::choice:
      return or_list(choices);
    case ParameterKind::object:
      return "object";
    case ParameterKind::custom:
      return custom_value;
  }
  return "";
}

std::string ParameterSpec::default_text() const {
  if (required) return "required";
  if (default_value.is_null()) return "";
  if (default_value.is_string()) return code(default_value.get<std::string>());
  if (default_value.is_boolean()) return default_value.get<bool>() ? "true" : "false";
  if (default_value.is_number_float()) return format_number(default_value.get<double>());
  return default_value.dump();
}

// ---- ParameterTable -----------------------------------------------------------------

const ParameterSpec* ParameterTable::find(std::string_view key) const {
  for (const ParameterSpec& s : specs_) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

ParameterTable ParameterTable::plus(std::initializer_list<ParameterSpec> more) const {
  std::vector<ParameterSpec> all = specs_;
  all.insert(all.end(), more.begin(), more.end());
  return ParameterTable(std::move(all));
}

std::vector<std::string> ParameterTable::keys() const {
  std::vector<std::string> out;
  for (const ParameterSpec& s : specs_) out.push_back(s.key);
  return out;
}

nlohmann::ordered_json ParameterTable::schema_properties() const {
  ojson out = ojson::object();
  for (const ParameterSpec& s : specs_) out[s.key] = s.schema();
  return out;
}

nlohmann::ordered_json ParameterTable::required_keys() const {
  ojson out = ojson::array();
  for (const ParameterSpec& s : specs_) {
    if (s.required) out.push_back(s.key);
  }
  return out;
}

namespace {

void doc_row(std::string& out, const ParameterSpec& s, const std::string& prefix) {
  out += "| " + code(prefix + s.key) + " | " + s.value_text() + " | " + s.default_text() + " | " + s.description +
         " | " + s.source + " |\n";
  for (const ParameterSpec& m : s.members) doc_row(out, m, prefix + s.key + ".");
}

}  // namespace

std::string ParameterTable::doc_rows() const {
  std::string out;
  for (const ParameterSpec& s : specs_) doc_row(out, s, "");
  return out;
}

std::string ParameterTable::doc_header() {
  return "| key | value | default | meaning | from |\n|---|---|---|---|---|\n";
}

// ---- typed parameters -----------------------------------------------------------------

NumberParameter::NumberParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key), ParameterKind::number, std::move(d.description), std::move(d.source))),
      example_(std::move(d.example)) {
  unit = std::move(d.unit);
  range = d.range;
  required = d.required;
  if (d.fallback) default_value = json_number(*d.fallback);
}

std::optional<double> NumberParameter::read(JsonReader& r) const {
  return r.number(key, range, required ? Need::required : Need::optional, example_);
}

namespace {
// read_or(r) without a fallback needs a declared default: a declaration without one
// is a plug-in's mistake, told at the first read, not a JSON type error.
void require_default(const ParameterSpec& p) {
  if (p.default_value.is_null())
    throw std::logic_error("parameter '" + p.key + "' has no declared default: use read() or read_or(r, fallback)");
}
}  // namespace

double NumberParameter::read_or(JsonReader& r) const {
  require_default(*this);
  const std::optional<double> value = read(r);
  return value ? *value : default_value.get<double>();
}

double NumberParameter::read_or(JsonReader& r, double fallback, bool inherited) const {
  const Need need = required && !inherited ? Need::required : Need::optional;
  return r.number(key, range, need, example_).value_or(fallback);
}

IntegerParameter::IntegerParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key), ParameterKind::integer, std::move(d.description), std::move(d.source))) {
  unit = std::move(d.unit);
  int_min = d.min;
  int_max = d.max;
  if (d.fallback) default_value = *d.fallback;
}

std::optional<std::int64_t> IntegerParameter::read(JsonReader& r) const { return r.integer(key, int_min, int_max); }

std::int64_t IntegerParameter::read_or(JsonReader& r) const {
  require_default(*this);
  const std::optional<std::int64_t> value = read(r);
  return value ? *value : default_value.get<std::int64_t>();
}

std::int64_t IntegerParameter::read_or(JsonReader& r, std::int64_t fallback) const {
  return read(r).value_or(fallback);
}

BooleanParameter::BooleanParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key), ParameterKind::boolean, std::move(d.description), std::move(d.source))) {
  default_value = d.fallback;
}

bool BooleanParameter::read_or(JsonReader& r) const { return r.boolean_or(key, default_value.get<bool>()); }

bool BooleanParameter::read_or(JsonReader& r, bool fallback) const { return r.boolean_or(key, fallback); }

TimeParameter::TimeParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key),
                         d.unit == Unit::seconds ? ParameterKind::seconds : ParameterKind::microseconds,
                         std::move(d.description), std::move(d.source))) {
  unit = d.unit == Unit::seconds ? "s" : "us";
  range = d.range;
  if (d.fallback) {
    // Divided, not multiplied by 1e-12: 0.2 s reads back as 0.2, not 0.19999999999999998.
    const double ps = static_cast<double>(d.fallback->picoseconds());
    default_value = json_number(d.unit == Unit::seconds ? ps / 1e12 : ps / 1e6);
  }
  fallback_ = d.fallback;
}

std::optional<Time> TimeParameter::read(JsonReader& r) const {
  return kind == ParameterKind::seconds ? r.seconds(key, range) : r.microseconds(key, range);
}

Time TimeParameter::read_or(JsonReader& r) const { return read(r).value_or(fallback_.value_or(Time::zero())); }

Time TimeParameter::read_or(JsonReader& r, Time fallback) const { return read(r).value_or(fallback); }

CustomParameter::CustomParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key), ParameterKind::custom, std::move(d.description), std::move(d.source))),
      example_(std::move(d.example)) {
  custom_schema = d.schema.is_object() ? std::move(d.schema) : ojson::object();
  custom_value = std::move(d.value);
  default_value = std::move(d.fallback);
  required = d.required;
}

const nlohmann::json* CustomParameter::get(JsonReader& r) const {
  return r.get(key, required ? Need::required : Need::optional, example_);
}

ObjectParameter::ObjectParameter(Declaration d)
    : ParameterSpec(base(std::move(d.key), ParameterKind::object, std::move(d.description), std::move(d.source))) {
  members = d.members.specs();
}

}  // namespace wmnsim
