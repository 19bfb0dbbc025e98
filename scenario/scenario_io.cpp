// Scenario files in and --set overrides: read_json_file and apply_overrides.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "scenario/scenario.hpp"

namespace wmnsim {

namespace {

// Checks a JSON text before any value is built from it: syntax (with line and
// column), nesting depth, numbers a double cannot hold, and duplicate keys (nlohmann
// keeps the last of two equal keys without a word; a scenario with "cw_min" twice
// almost always hides a mistake). nlohmann's SAX parser keeps its own stack, so a
// text nested a million deep costs nothing here; the values built afterwards, and
// everything that walks them (copies, dumps, comparisons, Python's json module), are
// recursive, and only ever see documents at most kMaxJsonDepth deep.
class JsonTextChecker {
 public:
  using json = nlohmann::json;
  JsonTextChecker(const std::string& text, std::string_view source, IssueSink& issues)
      : text_(text), source_(source), issues_(&issues) {}

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool string(json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }
  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    if (k.size() > kMaxJsonKeyBytes) {
      issues_->add(object_path(), "a key of " + std::to_string(k.size()) + " bytes (\"" + utf8_prefix(k, 20) +
                               "...\"); keys are at most " + std::to_string(kMaxJsonKeyBytes) +
                               " bytes (the longest scenario key has 30)");
      return false;  // stops the parser
    }
    f.current = k;
    if (!f.keys.insert(k).second) {
      issues_->add(path(), "duplicate key \"" + k + "\" (JSON keeps only the last one); remove one of them");
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string& token, const json::exception& ex) {
    if (ex.id == 406) {  // out_of_range: a number literal beyond the range of a double
      const std::string shown = token.size() > 40 ? utf8_prefix(token, 37) + "..." : token;
      issues_->add(pending_path(), "the number " + shown +
                                       " is too large for a double (at most about 1.8e308); write a smaller one");
    } else {
      syntax_error_ = true;
      const auto [line, column] = line_column(position);
      issues_->add("", std::string(source_) + ": invalid JSON at line " + std::to_string(line) + ", column " +
                           std::to_string(column) + ": " + reason_of(ex.what()));
    }
    return false;
  }

  bool syntax_error() const { return syntax_error_; }
  std::size_t max_depth() const { return max_depth_; }

 private:
  struct Frame {
    bool is_array;
    std::size_t next_index;
    std::string current;  // key or index of the element being read
    std::set<std::string> keys;
  };

  bool value() {
    begin_element();
    return true;
  }
  bool open(bool is_array) {
    begin_element();
    if (stack_.size() >= kMaxJsonDepth) {
      issues_->add(path(), "nested deeper than " + std::to_string(kMaxJsonDepth) +
                               " levels; a scenario needs fewer than 10 (is an array or object left open?)");
      return false;  // stops the parser
    }
    stack_.push_back({is_array, 0, {}, {}});
    max_depth_ = std::max(max_depth_, stack_.size());
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  void begin_element() {
    if (!stack_.empty() && stack_.back().is_array) stack_.back().current = std::to_string(stack_.back().next_index++);
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : stack_) p = pointer_join(p, f.current);
    return p;
  }
  // The path of the innermost object or array.
  std::string object_path() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) p = pointer_join(p, stack_[i].current);
    return p;
  }
  // The path of a value the parser has not delivered (it failed while reading it).
  std::string pending_path() const {
    if (stack_.empty()) return "";
    const std::string p = object_path();
    const Frame& top = stack_.back();
    return top.is_array ? pointer_join(p, top.next_index) : pointer_join(p, top.current);
  }
  // 1-based line and column of the byte before `offset` (nlohmann's byte counter
  // points one past the character that failed).
  std::pair<std::size_t, std::size_t> line_column(std::size_t offset) const {
    const std::size_t end = std::min(offset == 0 ? 0 : offset - 1, text_.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < end; ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return {line, column};
  }
  // The text after nlohmann's "parse error at line L, column C: " prefix.
  static std::string reason_of(const std::string& what) {
    const auto at = what.find("column ");
    if (at != std::string::npos) {
      const auto colon = what.find(": ", at);
      if (colon != std::string::npos) return what.substr(colon + 2);
    }
    return what;
  }

  const std::string& text_;
  std::string_view source_;
  IssueSink* issues_;
  std::vector<Frame> stack_;
  bool syntax_error_ = false;
  std::size_t max_depth_ = 0;
};

// The value of `text` once JsonTextChecker passed it; nothing (and `issues`) otherwise.
// `is_json` tells whether the text was JSON at all (false: a syntax error), `depth`
// how many containers deep it nests.
std::optional<nlohmann::json> parse_checked(const std::string& text, std::string_view source, IssueSink& issues,
                                            bool* is_json = nullptr, std::size_t* depth = nullptr) {
  JsonTextChecker checker(text, source, issues);
  const std::size_t before = issues.size();
  nlohmann::json::sax_parse(text, &checker, nlohmann::json::input_format_t::json, /*strict=*/true);
  if (is_json != nullptr) *is_json = !checker.syntax_error();
  if (depth != nullptr) *depth = checker.max_depth();
  if (issues.size() != before) return std::nullopt;
  return nlohmann::json::parse(text);
}

// RFC 6901 reference tokens of `pointer` (which starts with '/'); false on a bad escape.
bool split_pointer(const std::string& pointer, std::vector<std::string>& tokens) {
  tokens.clear();
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(token);
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return false;
      token += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      token += pointer[i];
    }
  }
  return true;
}

// An array index token: digits without leading zeros. "-" (append) -> size.
std::optional<std::size_t> array_index(const std::string& token, std::size_t size) {
  if (token == "-") return size;
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0') ||
      !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoul(token));
}

std::string kind_of(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::string:
      return "a string";
    default:
      return "a number";
  }
}

void apply_one(nlohmann::json& doc, const std::string& assignment, IssueSink& issues) {
  if (!valid_utf8(assignment)) {
    issues.add("", "--set: an assignment is not valid UTF-8 text; scenario values are JSON strings");
    return;
  }
  const std::string quoted = "--set \"" + assignment + "\": ";
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) {
    issues.add("", quoted + "expected /json/pointer=value (e.g. /simulation/seed=7)");
    return;
  }
  const std::string pointer = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  std::vector<std::string> tokens;
  if (pointer.empty() || pointer[0] != '/') {
    issues.add("", quoted + "the pointer must start with \"/\" (e.g. /simulation/seed=7)");
    return;
  }
  if (!split_pointer(pointer, tokens)) {
    issues.add(pointer,
               "bad escape in JSON pointer: \"~\" must be followed by 0 (for ~) or 1 (for /)");
    return;
  }
  for (const std::string& tok : tokens) {
    if (tok.size() > kMaxJsonKeyBytes) {
      issues.add("", quoted + "a key of " + std::to_string(tok.size()) + " bytes; keys are at most " +
                         std::to_string(kMaxJsonKeyBytes) + " bytes");
      return;
    }
  }
  // JSON if it parses (numbers, true, [..], {..}, "quoted"), else the bare text.
  // JSON that breaks a limit (too deep, a number beyond a double) is an error.
  IssueSink value_issues;
  bool is_json = true;
  std::size_t depth = 0;
  nlohmann::json value;
  if (auto parsed = parse_checked(text, quoted + "the value", value_issues, &is_json, &depth)) {
    value = std::move(*parsed);
  } else if (!is_json) {
    value = text;
  } else {
    for (const ValidationIssue& issue : value_issues.issues()) issues.add(pointer + issue.path, issue.message);
    return;
  }
  if (tokens.size() + depth > kMaxJsonDepth) {
    issues.add(pointer, "the value would nest the document deeper than " + std::to_string(kMaxJsonDepth) +
                            " levels; a scenario needs fewer than 10");
    return;
  }

  nlohmann::json* cur = &doc;
  std::string prefix;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& tok = tokens[i];
    const bool last = i + 1 == tokens.size();
    if (cur->is_object()) {
      if (last) {
        (*cur)[tok] = std::move(value);
        return;
      }
      if (!cur->contains(tok)) (*cur)[tok] = nlohmann::json::object();  // create what is missing
      cur = &(*cur)[tok];
    } else if (cur->is_array()) {
      const auto index = array_index(tok, cur->size());
      if (!index) {
        issues.add(pointer, "\"" + tok + "\" is not an array index; " +
                                (prefix.empty() ? "the document" : prefix) +
                                " is an array (use 0, 1, ... or - to append)");
        return;
      }
      const bool append = *index == cur->size();
      if (*index > cur->size() || (append && !last)) {
        issues.add(pointer,
                   "array index " + tok +
                       " is out of range: " + (prefix.empty() ? "the document" : prefix) + " has " +
                       std::to_string(cur->size()) + " elements" +
                       (last ? "" : " (append a whole element with " + prefix + "/-={...})"));
        return;
      }
      if (last) {
        if (append) {
          cur->push_back(std::move(value));
        } else {
          (*cur)[*index] = std::move(value);
        }
        return;
      }
      cur = &(*cur)[*index];
    } else {
      issues.add(pointer, (prefix.empty() ? std::string("the document") : prefix) + " is " +
                              kind_of(*cur) + ", not an object or array; cannot set \"" + tok +
                              "\" inside it");
      return;
    }
    prefix = pointer_join(prefix, tok);
  }
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, std::string_view source) {
  IssueSink issues;
  auto doc = parse_checked(text, source, issues);
  if (!doc) throw ScenarioError(issues.take());
  return std::move(*doc);
}

nlohmann::json read_json_file(const std::filesystem::path& path, std::string_view what) {
  const auto fail = [&](const std::string& why) {
    throw ScenarioError({{"", "cannot read " + std::string(what) + " \"" + path.string() + "\": " + why}});
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("it is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string why = std::strerror(errno);
    throw ScenarioError({{"", "cannot open " + std::string(what) + " \"" + path.string() + "\": " + why}});
  }
  // Read in pieces up to the cap, so a device or a pipe that never ends (/dev/zero)
  // is refused instead of filling the memory.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxScenarioBytes) {
      fail("larger than " + std::to_string(kMaxScenarioBytes >> 20) +
           " MiB; a scenario of 100000 nodes with explicit positions takes about 6 MiB");
    }
  }
  if (in.bad()) fail(std::strerror(errno));
  return parse_json_text(text, path.string());
}

nlohmann::json apply_overrides(nlohmann::json doc, const std::vector<std::string>& assignments) {
  IssueSink issues;
  for (const auto& a : assignments) apply_one(doc, a, issues);
  if (!issues.empty()) throw ScenarioError(issues.take());
  return doc;
}

}  // namespace wmnsim
