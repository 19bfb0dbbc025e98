#pragma once
// Every parameter of a plug-in (controller, transport, queue discipline) declared
// once: its key, type, unit, range, default, meaning and the paper section or
// standard clause it comes from. Three things are derived from that one
// declaration, so they cannot drift apart:
//  - the parser's check: a typed parameter reads its key through JsonReader with the
//    declared range and default (the same messages and JSON paths as JsonReader's);
//  - its JSON Schema property (`ParameterTable::schema_properties`);
//  - its row of docs/scenario.md (`ParameterTable::doc_rows`).
// Relations between keys (one excludes another, thresholds in order) are rules of the
// plug-in, checked by its parse function after the keys are read.
//
// A typed parameter (NumberParameter, IntegerParameter, ...) is a ParameterSpec, the
// plain description the schema and the docs read, plus the read functions its parse
// uses. A table copies the specs of the parameters it lists.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_reader.hpp"
#include "core/enum_names.hpp"
#include "core/time.hpp"

namespace wmnsim {

enum class ParameterKind { number, integer, boolean, choice, seconds, microseconds, object, custom };

struct ParameterSpec {
  std::string key;
  ParameterKind kind = ParameterKind::number;
  std::string unit;          // "packets", "bytes", "bit/s", "s", "us"; empty: none
  NumberRange range;         // number, seconds, microseconds
  std::int64_t int_min = std::numeric_limits<std::int64_t>::min();  // integer
  std::int64_t int_max = std::numeric_limits<std::int64_t>::max();
  std::vector<std::string> choices;      // choice: the allowed names
  nlohmann::ordered_json default_value;  // null: no default (absent means what `description` says)
  bool required = false;
  std::string description;   // what it means; never empty (tests/config/test_parameter_table.cpp)
  std::string source;        // paper section or standard clause; "ours" where the value is our choice
  nlohmann::ordered_json custom_schema;  // custom: its schema ({"$ref": ...}), description and default added
  std::string custom_value;              // custom: how its value reads in the docs ("a window")
  std::vector<ParameterSpec> members;    // object: its keys

  // Its JSON Schema property.
  nlohmann::ordered_json schema() const;
  // "integer 1..1000000 (packets)", "`fifo`, `fq` or `fred`", "true or false".
  std::string value_text() const;
  // "25", "`flow`", "0.1"; "required"; empty when there is no default.
  std::string default_text() const;
};

// The parameters of one plug-in (or of one object of it), in the order they are documented.
class ParameterTable {
 public:
  ParameterTable() = default;
  ParameterTable(std::initializer_list<ParameterSpec> specs) : specs_(specs) {}
  explicit ParameterTable(std::vector<ParameterSpec> specs) : specs_(std::move(specs)) {}
  // This table with `more` after its own.
  ParameterTable plus(std::initializer_list<ParameterSpec> more) const;

  const std::vector<ParameterSpec>& specs() const { return specs_; }
  bool empty() const { return specs_.empty(); }
  const ParameterSpec* find(std::string_view key) const;
  std::vector<std::string> keys() const;
  // {"key": schema, ...} in declaration order.
  nlohmann::ordered_json schema_properties() const;
  // The keys declared required, as a JSON array.
  nlohmann::ordered_json required_keys() const;
  // Markdown rows "| `key` | value | default | meaning | from |", one per parameter; an
  // object's members follow it as `object.member`.
  std::string doc_rows() const;
  // The header of the table doc_rows() fills.
  static std::string doc_header();

 private:
  std::vector<ParameterSpec> specs_;
};

// ---- typed parameters: the declaration and the read --------------------------------

class NumberParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    std::string unit{};
    NumberRange range{};
    std::optional<double> fallback{};  // the default; none: absent stays absent
    std::string description{};
    std::string source{};
    bool required = false;
    std::string example{};  // shown in the "missing required key" message
  };
  explicit NumberParameter(Declaration d);
  std::optional<double> read(JsonReader& r) const;
  double read_or(JsonReader& r) const;  // the declared default when absent
  // `fallback` when absent (an inherited value); required only when `inherited` is false.
  double read_or(JsonReader& r, double fallback, bool inherited = true) const;

 private:
  std::string example_;
};

class IntegerParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    std::string unit{};
    std::int64_t min = std::numeric_limits<std::int64_t>::min();
    std::int64_t max = std::numeric_limits<std::int64_t>::max();
    std::optional<std::int64_t> fallback{};
    std::string description{};
    std::string source{};
  };
  explicit IntegerParameter(Declaration d);
  std::optional<std::int64_t> read(JsonReader& r) const;
  std::int64_t read_or(JsonReader& r) const;
  std::int64_t read_or(JsonReader& r, std::int64_t fallback) const;
};

class BooleanParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    bool fallback = false;
    std::string description{};
    std::string source{};
  };
  explicit BooleanParameter(Declaration d);
  bool read_or(JsonReader& r) const;
  bool read_or(JsonReader& r, bool fallback) const;
};

// A time in seconds (the key ends in _s) or in microseconds (_us).
class TimeParameter : public ParameterSpec {
 public:
  enum class Unit { seconds, microseconds };
  struct Declaration {
    std::string key{};
    Unit unit = Unit::seconds;
    NumberRange range{};
    std::optional<Time> fallback{};
    std::string description{};
    std::string source{};
  };
  explicit TimeParameter(Declaration d);
  std::optional<Time> read(JsonReader& r) const;
  Time read_or(JsonReader& r) const;
  Time read_or(JsonReader& r, Time fallback) const;

 private:
  std::optional<Time> fallback_;
};

// One name of an enum's name table (core/enum_names.hpp).
template <typename E>
class ChoiceParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    std::span<const EnumName<E>> names{};
    std::optional<E> fallback{};
    std::string description{};
    std::string source{};
  };
  explicit ChoiceParameter(Declaration d) : names_(d.names), fallback_(d.fallback) {
    key = std::move(d.key);
    kind = ParameterKind::choice;
    choices = enum_names(names_);
    if (fallback_) default_value = std::string(enum_name(names_, *fallback_));
    description = std::move(d.description);
    source = std::move(d.source);
  }
  std::optional<E> read(JsonReader& r) const { return r.choice(key, names_); }
  E read_or(JsonReader& r) const {
    if (!fallback_) throw std::logic_error("parameter '" + key + "' has no declared default: use read() or read_or(r, fallback)");
    return read(r).value_or(*fallback_);
  }
  E read_or(JsonReader& r, E fallback) const { return read(r).value_or(fallback); }

 private:
  std::span<const EnumName<E>> names_;
  std::optional<E> fallback_;
};

// A value whose check the plug-in does itself (a node reference, a window, a list):
// declared here for the schema and the docs, read raw.
class CustomParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    nlohmann::ordered_json schema{};  // e.g. {{"$ref", "#/$defs/window"}}
    std::string value{};   // how the value reads in the docs
    nlohmann::ordered_json fallback{};  // the default, as JSON; null: none
    std::string description{};
    std::string source{};
    bool required = false;
    std::string example{};
  };
  explicit CustomParameter(Declaration d);
  // The raw value (marked known), or nullptr when absent (an issue if required).
  const nlohmann::json* get(JsonReader& r) const;
  std::string path(const JsonReader& r) const { return r.path_of(key); }

 private:
  std::string example_;
};

// A nested object of keys (a flow's "tcp", the gateway's "fred").
class ObjectParameter : public ParameterSpec {
 public:
  struct Declaration {
    std::string key{};
    ParameterTable members{};
    std::string description{};
    std::string source{};
  };
  explicit ObjectParameter(Declaration d);
  // A reader of the object; absent reads as empty. finish() it after its members.
  JsonReader open(JsonReader& r) const { return r.object(key); }
};

}  // namespace wmnsim
