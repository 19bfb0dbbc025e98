#pragma once
// Problems in user input, as every layer reports them: a JSON pointer and a
// sentence each (ValidationIssue), collected in a bounded IssueSink so that one
// pass reports every problem, and thrown together as one ScenarioError. Plain
// text: the JSON reading itself is config/json_reader.hpp's.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wmnsim {

struct ValidationIssue {
  std::string path;     // JSON pointer of the offending value, "" for the root
  std::string message;  // what is wrong and what to do about it
  friend bool operator==(const ValidationIssue&, const ValidationIssue&) = default;
};

// The longest prefix of `s` of at most `max_bytes` bytes that does not cut a UTF-8
// character in two (messages are shown, and handed to Python, as UTF-8).
inline std::string utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut));
}

// Whether `s` is well-formed UTF-8 (JSON text is; command-line arguments and file
// names need not be, and a string that is not cannot be written as JSON).
bool valid_utf8(std::string_view s);

// Collects issues. A document can hold any number of mistakes, but a reader can use
// only the first few: the sink keeps kMaxListed issues, each message cut to
// kMaxMessage characters, and counts the rest, so the cost and the size of a report
// stay bounded whatever the input (docs/scenario.md, "Limits"). take() ends the list
// with one line saying how many more there were. Callers that build an expensive
// message (a did-you-mean over many candidates) skip it when full().
class IssueSink {
 public:
  static constexpr std::size_t kMaxListed = 100;
  static constexpr std::size_t kMaxMessage = 1000;

  void add(std::string path, std::string message) {
    ++total_;
    if (full()) return;
    if (message.size() > kMaxMessage) message = utf8_prefix(message, kMaxMessage - 3) + "...";
    issues_.push_back({std::move(path), std::move(message)});
  }
  const std::vector<ValidationIssue>& issues() const { return issues_; }
  std::vector<ValidationIssue> take() {
    if (total_ > issues_.size()) {
      issues_.push_back({"", "... and " + std::to_string(total_ - issues_.size()) +
                                 " more problems not listed; fix these first"});
    }
    total_ = 0;
    return std::move(issues_);
  }
  bool empty() const { return total_ == 0; }
  // Every issue added, listed or not.
  std::size_t size() const { return total_; }
  bool full() const { return issues_.size() >= kMaxListed; }

 private:
  std::vector<ValidationIssue> issues_;
  std::size_t total_ = 0;
};

// Thrown for any problem in user input. what() holds one "path: message" line per
// issue (just "message" for an issue at the root). Paths and messages are made
// well-formed UTF-8 (bad bytes become U+FFFD).
class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<ValidationIssue> issues);
  const std::vector<ValidationIssue>& issues() const { return issues_; }

 private:
  std::vector<ValidationIssue> issues_;
};

// One line of a report about the input `file`, as the command line prints it:
// "FILE: /json/pointer: message", and "FILE: message" for an issue at the root
// (a document that is not an object, a network the capacity model refuses), so
// that every line says where; a root message that names the file already (an
// unreadable file, malformed JSON) is printed as it is.
std::string issue_line(std::string_view file, const ValidationIssue& issue);

// JSON pointer of a child: escapes '~' and '/' as RFC 6901 requires.
std::string pointer_join(std::string_view parent, std::string_view key);
std::string pointer_join(std::string_view parent, std::size_t index);

// "A", "B", "GW" -> `A, B, GW` (quoted = false) or `"A", "B", "GW"`; long lists are
// cut after `max_items` with "... (N more)".
std::string join_list(const std::vector<std::string>& items, bool quoted,
                      std::size_t max_items = 12);

}  // namespace wmnsim
