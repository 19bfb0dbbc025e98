#pragma once
// Reading user JSON with precise, actionable errors.
//
// Every check records a ValidationIssue (a JSON pointer and a sentence) in an
// IssueSink and carries on with a fallback value, so one pass over a document
// reports every problem, not only the first. A JsonReader walks one JSON object:
// each getter marks its key as known, and finish() reports the keys nobody asked
// for as unknown, with the closest known key as a suggestion. Later layers extend
// validation in this one style: add a getter call, not a new mechanism.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/enum_names.hpp"
#include "core/input_error.hpp"  // ValidationIssue, IssueSink, ScenarioError, pointer_join
#include "core/time.hpp"

namespace wmnsim {

// ---- small text helpers -------------------------------------------------------


// How a value reads in a message: "six" in quotes, numbers and literals as written,
// containers as "an object" / "an array".
std::string describe_value(const nlohmann::json& value);

// Restricted Damerau-Levenshtein distance (a swap of two neighbours counts as one edit).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate a typo most likely meant, or nothing when none is close. A candidate
// that extends the word with a unit suffix ("duration" -> "duration_s") also counts.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

// Shortest text that reads back as the same double ("0.1", "250", "1e-05").
std::string format_number(double v);


// ---- value checks, usable on any JSON value (array elements included) -----------

// An interval of allowed numbers; describe() gives the text used in messages.
struct NumberRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool max_exclusive = false;

  static constexpr NumberRange any() { return {}; }
  static constexpr NumberRange positive() { return {0.0, kInf, true, false}; }       // > 0
  static constexpr NumberRange non_negative() { return {0.0, kInf, false, false}; }  // >= 0
  static constexpr NumberRange at_least(double lo) { return {lo, kInf, false, false}; }
  static constexpr NumberRange closed(double lo, double hi) { return {lo, hi, false, false}; }
  static constexpr NumberRange open_closed(double lo, double hi) {
    return {lo, hi, true, false};
  }  // (lo, hi]
  static constexpr NumberRange open(double lo, double hi) { return {lo, hi, true, true}; }

  bool contains(double v) const;
  std::string describe() const;  // "> 0", ">= 1", "0..1", "> 0 and <= 1"

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
};

// `what` names the expected value in messages, e.g. "a number of seconds".
std::optional<double> check_number(const nlohmann::json& v, const std::string& path,
                                   IssueSink& issues, const NumberRange& range = {},
                                   std::string_view what = "a number");
// Integers; an integral float such as 1500.0 or 256e3 is accepted.
std::optional<std::int64_t> check_integer(const nlohmann::json& v, const std::string& path,
                                          IssueSink& issues, std::int64_t lo, std::int64_t hi);
std::optional<std::string> check_string(const nlohmann::json& v, const std::string& path,
                                        IssueSink& issues);
// A string from a fixed set; returns the index into `names`. Messages list the
// allowed values and suggest the closest one.
std::optional<std::size_t> check_choice(const nlohmann::json& v, const std::string& path,
                                        IssueSink& issues, const std::vector<std::string>& names);

// Parses a value of an enum by its name table (core/enum_names.hpp).
template <typename E>
std::optional<E> check_enum(const nlohmann::json& v, const std::string& path, IssueSink& issues,
                            std::span<const EnumName<E>> table) {
  const auto i = check_choice(v, path, issues, enum_names(table));
  if (!i) return std::nullopt;
  return table[*i].value;
}

// ---- JsonReader -----------------------------------------------------------------

enum class Need { optional, required };

class JsonReader {
 public:
  // Reads `value` as an object found at `path`. A non-object records one issue and
  // reads as an empty object, so callers fall back to defaults.
  JsonReader(const nlohmann::json& value, std::string path, IssueSink& issues);
  // It keeps a reference to `value`: a temporary would dangle.
  JsonReader(nlohmann::json&& value, std::string path, IssueSink& issues) = delete;
  JsonReader(const nlohmann::json&& value, std::string path, IssueSink& issues) = delete;
  JsonReader(JsonReader&& other) noexcept;
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;
  // Reports unknown keys if finish() was not called.
  ~JsonReader();

  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return pointer_join(path_, key); }
  IssueSink& issues() { return *issues_; }
  bool valid_object() const { return object_ != nullptr; }
  bool has(std::string_view key) const;

  // The raw value of `key` (marked known), or nullptr when absent.
  const nlohmann::json* get(std::string_view key);
  // Like get(); when the key is absent and `need` is required, records
  // "missing required key" with `example` as a hint.
  const nlohmann::json* get(std::string_view key, Need need, std::string_view example = {});

  std::optional<double> number(std::string_view key, const NumberRange& range = {},
                               Need need = Need::optional, std::string_view example = {});
  double number_or(std::string_view key, double fallback, const NumberRange& range = {});
  std::optional<std::int64_t> integer(std::string_view key, std::int64_t lo, std::int64_t hi,
                                      Need need = Need::optional, std::string_view example = {});
  std::int64_t integer_or(std::string_view key, std::int64_t fallback, std::int64_t lo,
                          std::int64_t hi);
  bool boolean_or(std::string_view key, bool fallback);
  std::optional<std::string> string(std::string_view key, Need need = Need::optional,
                                    std::string_view example = {});
  // A number of seconds converted to Time; out-of-range values (about 106 days) are
  // reported here too.
  std::optional<Time> seconds(std::string_view key, const NumberRange& range = {},
                              Need need = Need::optional, std::string_view example = {});
  Time seconds_or(std::string_view key, Time fallback, const NumberRange& range = {});
  // A number of microseconds converted to Time (MAC timings read best in us).
  std::optional<Time> microseconds(std::string_view key, const NumberRange& range = {});

  template <typename E>
  std::optional<E> choice(std::string_view key, std::span<const EnumName<E>> table,
                          Need need = Need::optional, std::string_view example = {}) {
    const nlohmann::json* v = get(key, need, example);
    if (v == nullptr) return std::nullopt;
    return check_enum(*v, path_of(key), *issues_, table);
  }
  template <typename E>
  E choice_or(std::string_view key, E fallback, std::span<const EnumName<E>> table) {
    return choice(key, table).value_or(fallback);
  }

  // The array at `key`, or nullptr when absent or not an array (then an issue is
  // recorded).
  const nlohmann::json* array(std::string_view key, Need need = Need::optional);
  // A reader of the nested object at `key`; an absent key reads as an empty object.
  JsonReader object(std::string_view key);

  // Marks `key` as known but not allowed here, with a reason ("applies only to ...").
  void forbid(std::string_view key, std::string_view reason);
  // Reports keys that no getter asked for. Idempotent.
  void finish();
  // Skips the unknown-key report, for objects whose shape is undecidable (e.g. a
  // controller with a bad "type": its other keys cannot be judged).
  void ignore_unknown_keys() { finished_ = true; }

 private:
  const nlohmann::json* object_ = nullptr;  // nullptr: not an object, read as empty
  std::string path_;
  IssueSink* issues_;
  std::set<std::string, std::less<>> known_;
  bool finished_ = false;
};

}  // namespace wmnsim
