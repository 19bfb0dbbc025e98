#include "results/provenance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/fingerprint.hpp"
#include "core/input_error.hpp"

namespace wmnsim {

namespace {

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

// A float with an integral value that doubles hold exactly: written as an integer.
bool integral(double v) { return std::isfinite(v) && std::floor(v) == v && std::fabs(v) <= kMaxExactInteger; }

template <typename Json>
void write_canonical(const Json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::json::value_t::object: {
      std::vector<const std::string*> keys;
      keys.reserve(v.size());
      for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(&it.key());
      std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
      out += '{';
      bool first = true;
      for (const std::string* key : keys) {
        if (!first) out += ',';
        first = false;
        out += Json(*key).dump();
        out += ':';
        write_canonical(v.at(*key), out);
      }
      out += '}';
      return;
    }
    case nlohmann::json::value_t::array: {
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ',';
        write_canonical(v[i], out);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::number_float: {
      const double d = v.template get<double>();
      if (integral(d)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", d == 0.0 ? 0.0 : d);  // -0.0 is 0
        out += buf;
        return;
      }
      out += v.dump();
      return;
    }
    default:
      out += v.dump();
      return;
  }
}

template <typename Json>
Json hashed_part(const Json& scenario) {
  Json doc = scenario;
  if (!doc.is_object()) return doc;
  doc.erase("outputs");
  doc.erase("description");
  doc.erase("$schema");
  if (const auto sim = doc.find("simulation"); sim != doc.end() && sim->is_object()) sim->erase("seed");
  return doc;
}

bool same_number(const nlohmann::json& a, const nlohmann::json& b) {
  if (!a.is_number() || !b.is_number()) return false;
  std::string x, y;
  write_canonical(a, x);
  write_canonical(b, y);
  return x == y;
}

std::string shown(const nlohmann::json& v) {
  if (v.is_discarded()) return "absent";
  std::string text;
  write_canonical(v, text);
  if (text.size() > 60) text = utf8_prefix(text, 57) + "...";
  return text;
}

void differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& path,
                 std::vector<std::pair<std::string, std::pair<std::string, std::string>>>& out) {
  if (a.is_object() && b.is_object()) {
    std::vector<std::string> keys;
    for (auto it = a.begin(); it != a.end(); ++it) keys.push_back(it.key());
    for (auto it = b.begin(); it != b.end(); ++it) {
      if (!a.contains(it.key())) keys.push_back(it.key());
    }
    std::sort(keys.begin(), keys.end());
    const nlohmann::json absent(nlohmann::json::value_t::discarded);
    for (const std::string& k : keys) {
      const auto ia = a.find(k);
      const auto ib = b.find(k);
      differences(ia == a.end() ? absent : *ia, ib == b.end() ? absent : *ib, pointer_join(path, k), out);
    }
    return;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) differences(a[i], b[i], pointer_join(path, i), out);
    return;
  }
  if (a.is_discarded() && b.is_discarded()) return;
  if (!a.is_discarded() && !b.is_discarded() && (a == b || same_number(a, b))) return;
  out.push_back({path.empty() ? "/" : path, {shown(a), shown(b)}});
}

}  // namespace

nlohmann::json hashed_part_of_scenario(const nlohmann::json& scenario) { return hashed_part(scenario); }

std::string canonical_json(const nlohmann::json& value) {
  std::string out;
  write_canonical(value, out);
  return out;
}

std::string scenario_hash(const nlohmann::json& scenario) {
  std::string text;
  write_canonical(hashed_part(scenario), text);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return buf;
}

std::string scenario_hash(const nlohmann::ordered_json& scenario) {
  std::string text;
  write_canonical(hashed_part(scenario), text);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return buf;
}

std::vector<std::string> json_differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& a_name,
                                          const std::string& b_name, std::size_t limit) {
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> found;
  differences(a, b, "", found);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < found.size() && i < limit; ++i) {
    const auto& [path, values] = found[i];
    out.push_back(path + " is " + values.first + " " + a_name + ", " + values.second + " " + b_name);
  }
  if (found.size() > limit) out.push_back("... and " + std::to_string(found.size() - limit) + " more");
  return out;
}

}  // namespace wmnsim
