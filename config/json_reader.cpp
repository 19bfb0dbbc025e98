#include "config/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace wmnsim {

namespace {

const nlohmann::json& empty_object() {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return kEmpty;
}

// "duration_s" -> "duration": strips a unit suffix so a misspelt key without its unit
// still finds its match.
std::string without_unit(const std::string& key) {
  static const char* const kUnits[] = {"_s",   "_m",   "_us",    "_bps",     "_db",    "_dbm",
                                       "_dbi", "_deg", "_bytes", "_packets", "_frames"};
  for (const char* unit : kUnits) {
    const std::size_t n = std::strlen(unit);
    if (key.size() > n && key.compare(key.size() - n, n, unit) == 0)
      return key.substr(0, key.size() - n);
  }
  return key;
}

// A time read from JSON, in `unit` (`scale` seconds each), rounded to the engine's
// resolution. Two rules for every time key at once (docs/scenario.md, "Limits"): it
// fits Time's range, and a positive value stays positive after rounding (a slot or
// an interval that rounds to 0 would divide by zero or never let time advance).
std::optional<Time> to_time(double value, double scale, const char* unit, const nlohmann::json& v,
                            const std::string& path, IssueSink& issues) {
  Time t;
  try {
    t = Time::from_seconds(value * scale);
  } catch (const std::out_of_range&) {
    issues.add(path, "a time of " + describe_value(v) + " " + unit +
                         " is outside the simulator's range (about 106 days)");
    return std::nullopt;
  }
  if (value > 0 && t <= Time::zero()) {
    issues.add(path, "a time of " + describe_value(v) + " " + unit + " rounds to 0 at the simulator's resolution of 1 ps; " +
                         "the smallest positive time is " + format_number(1e-12 / scale) + " " + unit);
    return std::nullopt;
  }
  return t;
}

void add_missing(IssueSink& issues, const std::string& path, std::string_view key,
                 std::string_view example) {
  std::string msg = "missing required key \"" + std::string(key) + "\"";
  if (!example.empty()) msg += " (e.g. \"" + std::string(key) + "\": " + std::string(example) + ")";
  issues.add(path, std::move(msg));
}

}  // namespace

// ---- text helpers -----------------------------------------------------------------

std::string format_number(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// Declared in scenario_parse.hpp (the loader's internals).
std::string quote_short(std::string_view s) {
  return "\"" + (s.size() > 60 ? utf8_prefix(s, 57) + "..." : std::string(s)) + "\"";
}

bool valid_utf8(std::string_view s) {
  try {
    (void)nlohmann::json(std::string(s)).dump();  // nlohmann's own check, the one its writer applies
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

std::string describe_value(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::number_float: {
      // 54e6 reads better as 54000000 than as nlohmann's 54000000.0.
      const double d = value.get<double>();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
        return std::to_string(static_cast<long long>(d));
      }
      return format_number(d);
    }
    default: {
      std::string text = value.dump();
      if (text.size() > 60) text = utf8_prefix(text, 57) + "...";
      return text;
    }
  }
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  // Full table: the strings are short keys and ids, and the transposition rule
  // needs the row before the previous one.
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  if (word.empty()) return std::nullopt;
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string w = lower(word);
  // A forgotten unit suffix is the most common slip: "duration" for "duration_s".
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    if (lc.size() > w.size() && lc.compare(0, w.size(), w) == 0 && lc[w.size()] == '_') return c;
  }
  // ... or a forgotten qualifier in front: "goodput" for "flow_goodput".
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    if (lc.size() > w.size() + 1 && lc.compare(lc.size() - w.size(), w.size(), w) == 0 &&
        lc[lc.size() - w.size() - 1] == '_') {
      return c;
    }
  }
  // Otherwise the nearest by edits (case-insensitive, so "gw" finds "GW"), if near
  // enough to be a typo: up to a third of the word's length, at most 3 edits. A
  // candidate is also compared without its unit suffix ("duraton" -> "duration_s").
  // Only strings within `limit` of each other in length can be within `limit` edits,
  // and no key or id is longer than kMaxTypoLength: each comparison costs at most
  // kMaxTypoLength^2, whatever the length of the word (a megabyte-long key included).
  constexpr std::size_t kMaxTypoLength = 64;
  if (w.size() > kMaxTypoLength) return std::nullopt;
  const std::size_t limit = std::min<std::size_t>(w.size() / 3, 3);
  const auto near = [&](const std::string& c) {
    return (c.size() > w.size() ? c.size() - w.size() : w.size() - c.size()) <= limit;
  };
  std::optional<std::string> best;
  std::size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    std::size_t dist = near(lc) ? edit_distance(w, lc) : limit + 1;
    if (const std::string base = without_unit(lc); base.size() < lc.size() && near(base)) {
      dist = std::min(dist, edit_distance(w, base));
    }
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  return best;
}


// ---- NumberRange ------------------------------------------------------------------

bool NumberRange::contains(double v) const {
  if (std::isnan(v)) return false;
  const bool lo_ok = min_exclusive ? v > min : v >= min;
  const bool hi_ok = max_exclusive ? v < max : v <= max;
  return lo_ok && hi_ok;
}

std::string NumberRange::describe() const {
  const bool has_lo = std::isfinite(min), has_hi = std::isfinite(max);
  const std::string lo = (min_exclusive ? "> " : ">= ") + format_number(min);
  const std::string hi = (max_exclusive ? "< " : "<= ") + format_number(max);
  if (has_lo && has_hi) {
    if (!min_exclusive && !max_exclusive) return format_number(min) + ".." + format_number(max);
    return lo + " and " + hi;
  }
  if (has_lo) return lo;
  if (has_hi) return hi;
  return "";
}

// ---- value checks -----------------------------------------------------------------

std::optional<double> check_number(const nlohmann::json& v, const std::string& path,
                                   IssueSink& issues, const NumberRange& range,
                                   std::string_view what) {
  const std::string expected =
      std::string(what) + (range.describe().empty() ? "" : " " + range.describe());
  if (!v.is_number()) {
    issues.add(path, "expected " + expected + ", got " + describe_value(v));
    return std::nullopt;
  }
  const double d = v.get<double>();
  if (!range.contains(d)) {
    issues.add(path, "expected " + expected + ", got " + describe_value(v));
    return std::nullopt;
  }
  return d;
}

std::optional<std::int64_t> check_integer(const nlohmann::json& v, const std::string& path,
                                          IssueSink& issues, std::int64_t lo, std::int64_t hi) {
  std::string expected = "an integer";
  const bool has_lo = lo != std::numeric_limits<std::int64_t>::min();
  const bool has_hi = hi != std::numeric_limits<std::int64_t>::max();
  if (has_lo && has_hi) {
    expected += " " + std::to_string(lo) + ".." + std::to_string(hi);
  } else if (has_lo) {
    expected += " >= " + std::to_string(lo);
  } else if (has_hi) {
    expected += " <= " + std::to_string(hi);
  }
  const auto fail = [&] {
    issues.add(path, "expected " + expected + ", got " + describe_value(v));
    return std::nullopt;
  };
  std::int64_t value = 0;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return fail();
    value = static_cast<std::int64_t>(u);
  } else if (v.is_number_integer()) {
    value = v.get<std::int64_t>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    // 2^63 itself is not representable as int64; stay strictly below it.
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 9.2e18) return fail();
    value = static_cast<std::int64_t>(d);
  } else {
    return fail();
  }
  if (value < lo || value > hi) return fail();
  return value;
}

std::optional<std::string> check_string(const nlohmann::json& v, const std::string& path,
                                        IssueSink& issues) {
  if (!v.is_string()) {
    issues.add(path, "expected a string, got " + describe_value(v));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<std::size_t> check_choice(const nlohmann::json& v, const std::string& path,
                                        IssueSink& issues, const std::vector<std::string>& names) {
  const std::string allowed = join_list(names, true, names.size());
  if (!v.is_string()) {
    issues.add(path, "expected one of " + allowed + ", got " + describe_value(v));
    return std::nullopt;
  }
  const auto& s = v.get_ref<const std::string&>();
  const auto it = std::find(names.begin(), names.end(), s);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  std::string msg = "unknown value " + quote_short(s);
  if (issues.full()) {
    issues.add(path, std::move(msg));  // counted, not listed
    return std::nullopt;
  }
  if (const auto guess = closest_match(s, names)) msg += "; did you mean \"" + *guess + "\"?";
  msg += " (allowed: " + allowed + ")";
  issues.add(path, std::move(msg));
  return std::nullopt;
}

// ---- JsonReader -------------------------------------------------------------------

JsonReader::JsonReader(const nlohmann::json& value, std::string path, IssueSink& issues)
    : path_(std::move(path)), issues_(&issues) {
  if (value.is_object()) {
    object_ = &value;
  } else {
    issues_->add(path_, "expected an object, got " + describe_value(value));
  }
}

JsonReader::JsonReader(JsonReader&& other) noexcept
    : object_(other.object_),
      path_(std::move(other.path_)),
      issues_(other.issues_),
      known_(std::move(other.known_)),
      finished_(other.finished_) {
  other.finished_ = true;  // the moved-from reader must not report again
}

JsonReader::~JsonReader() { finish(); }

bool JsonReader::has(std::string_view key) const {
  return object_ != nullptr && object_->contains(key);
}

const nlohmann::json* JsonReader::get(std::string_view key) {
  known_.emplace(key);
  if (object_ == nullptr) return nullptr;
  const auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

const nlohmann::json* JsonReader::get(std::string_view key, Need need, std::string_view example) {
  const nlohmann::json* v = get(key);
  // A non-object already has its own issue; "missing" on top of it would be noise.
  if (v == nullptr && need == Need::required && object_ != nullptr) {
    add_missing(*issues_, path_of(key), key, example);
  }
  return v;
}

std::optional<double> JsonReader::number(std::string_view key, const NumberRange& range, Need need,
                                         std::string_view example) {
  const nlohmann::json* v = get(key, need, example);
  if (v == nullptr) return std::nullopt;
  return check_number(*v, path_of(key), *issues_, range);
}

double JsonReader::number_or(std::string_view key, double fallback, const NumberRange& range) {
  return number(key, range).value_or(fallback);
}

std::optional<std::int64_t> JsonReader::integer(std::string_view key, std::int64_t lo,
                                                std::int64_t hi, Need need,
                                                std::string_view example) {
  const nlohmann::json* v = get(key, need, example);
  if (v == nullptr) return std::nullopt;
  return check_integer(*v, path_of(key), *issues_, lo, hi);
}

std::int64_t JsonReader::integer_or(std::string_view key, std::int64_t fallback, std::int64_t lo,
                                    std::int64_t hi) {
  return integer(key, lo, hi).value_or(fallback);
}

bool JsonReader::boolean_or(std::string_view key, bool fallback) {
  const nlohmann::json* v = get(key);
  if (v == nullptr) return fallback;
  if (!v->is_boolean()) {
    issues_->add(path_of(key), "expected true or false, got " + describe_value(*v));
    return fallback;
  }
  return v->get<bool>();
}

std::optional<std::string> JsonReader::string(std::string_view key, Need need,
                                              std::string_view example) {
  const nlohmann::json* v = get(key, need, example);
  if (v == nullptr) return std::nullopt;
  return check_string(*v, path_of(key), *issues_);
}

std::optional<Time> JsonReader::seconds(std::string_view key, const NumberRange& range, Need need,
                                        std::string_view example) {
  const nlohmann::json* v = get(key, need, example);
  if (v == nullptr) return std::nullopt;
  const auto s = check_number(*v, path_of(key), *issues_, range, "a number of seconds");
  if (!s) return std::nullopt;
  return to_time(*s, 1.0, "s", *v, path_of(key), *issues_);
}

Time JsonReader::seconds_or(std::string_view key, Time fallback, const NumberRange& range) {
  return seconds(key, range).value_or(fallback);
}

std::optional<Time> JsonReader::microseconds(std::string_view key, const NumberRange& range) {
  const nlohmann::json* v = get(key);
  if (v == nullptr) return std::nullopt;
  const auto us = check_number(*v, path_of(key), *issues_, range, "a number of microseconds");
  if (!us) return std::nullopt;
  return to_time(*us, 1e-6, "us", *v, path_of(key), *issues_);
}

const nlohmann::json* JsonReader::array(std::string_view key, Need need) {
  const nlohmann::json* v = get(key, need);
  if (v == nullptr) return nullptr;
  if (!v->is_array()) {
    issues_->add(path_of(key), "expected an array, got " + describe_value(*v));
    return nullptr;
  }
  return v;
}

JsonReader JsonReader::object(std::string_view key) {
  const nlohmann::json* v = get(key);
  return JsonReader(v == nullptr ? empty_object() : *v, path_of(key), *issues_);
}

void JsonReader::forbid(std::string_view key, std::string_view reason) {
  known_.emplace(key);
  if (has(key)) issues_->add(path_of(key), "\"" + std::string(key) + "\" " + std::string(reason));
}

void JsonReader::finish() {
  if (finished_) return;
  finished_ = true;
  if (object_ == nullptr) return;
  const std::vector<std::string> known(known_.begin(), known_.end());
  for (const auto& [key, value] : object_->items()) {
    if (known_.contains(key)) continue;
    std::string msg = "unknown key " + quote_short(key);
    if (issues_->full()) {
      issues_->add(path_of(key), std::move(msg));  // counted, not listed: no suggestion to compute
      continue;
    }
    if (const auto guess = closest_match(key, known)) {
      msg += "; did you mean \"" + *guess + "\"?";
    } else if (!known.empty()) {
      msg += " (allowed here: " + join_list(known, true, known.size()) + ")";
    }
    issues_->add(path_of(key), std::move(msg));
  }
}

}  // namespace wmnsim
