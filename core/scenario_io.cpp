// Scenario files in and --set overrides: read_json_file and apply_overrides.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "core/scenario.hpp"

namespace wmnsim {

namespace {

// Tracks where the parser is, so a duplicate key can be reported by its pointer.
// nlohmann keeps the last of two equal keys without a word; a scenario with
// "cw_min" twice almost always hides a mistake.
class DuplicateKeyFinder {
 public:
  explicit DuplicateKeyFinder(IssueSink& issues) : issues_(&issues) {}

  bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    switch (event) {
      case E::object_start:
        begin_element();
        stack_.push_back({false, 0, {}, {}});
        break;
      case E::array_start:
        begin_element();
        stack_.push_back({true, 0, {}, {}});
        break;
      case E::key: {
        Frame& f = stack_.back();
        f.current = parsed.get<std::string>();
        if (!f.keys.insert(f.current).second) {
          issues_->add(path(), "duplicate key \"" + f.current +
                                   "\" (JSON keeps only the last one); remove one of them");
        }
        break;
      }
      case E::value:
        begin_element();
        break;
      case E::object_end:
      case E::array_end:
        stack_.pop_back();
        break;
    }
    return true;  // keep everything
  }

 private:
  struct Frame {
    bool is_array;
    std::size_t next_index;
    std::string current;  // key or index of the element being read
    std::set<std::string> keys;
  };

  void begin_element() {
    if (!stack_.empty() && stack_.back().is_array)
      stack_.back().current = std::to_string(stack_.back().next_index++);
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : stack_) p = pointer_join(p, f.current);
    return p;
  }

  IssueSink* issues_;
  std::vector<Frame> stack_;
};

// The text after nlohmann's "parse error at line L, column C: " prefix.
std::string parse_error_reason(const std::string& what) {
  const auto at = what.find("column ");
  if (at != std::string::npos) {
    const auto colon = what.find(": ", at);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  return what;
}

// 1-based line and column of the byte before `offset` (nlohmann's byte counter
// points one past the character that failed).
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t offset) {
  const std::size_t end = std::min(offset == 0 ? 0 : offset - 1, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
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
  // JSON if it parses (numbers, true, [..], {..}, "quoted"), else the bare text.
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;

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

nlohmann::json read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string why = std::strerror(errno);
    throw ScenarioError({{"", "cannot open scenario file \"" + path.string() + "\": " + why}});
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();

  IssueSink issues;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text, DuplicateKeyFinder(issues));
  } catch (const nlohmann::json::parse_error& e) {
    const auto [line, column] = line_column(text, e.byte);
    throw ScenarioError(
        {{"", path.string() + ": invalid JSON at line " + std::to_string(line) + ", column " +
                  std::to_string(column) + ": " + parse_error_reason(e.what())}});
  }
  if (!issues.empty()) {
    std::vector<ValidationIssue> named;
    for (const auto& issue : issues.issues())
      named.push_back({issue.path, path.string() + ": " + issue.message});
    throw ScenarioError(std::move(named));
  }
  return doc;
}

nlohmann::json apply_overrides(nlohmann::json doc, const std::vector<std::string>& assignments) {
  IssueSink issues;
  for (const auto& a : assignments) apply_one(doc, a, issues);
  if (!issues.empty()) throw ScenarioError(issues.take());
  return doc;
}

}  // namespace wmnsim
