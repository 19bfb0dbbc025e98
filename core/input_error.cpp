#include "core/input_error.hpp"

#include <algorithm>
#include <cstdint>

namespace wmnsim {

namespace {

// `s` with every byte that is not part of well-formed UTF-8 (RFC 3629) replaced by
// U+FFFD. Messages quote the user's text and nlohmann's tokens, which a cut can
// leave half a character; they are printed and handed to Python as UTF-8.
std::string utf8_clean(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n != 0 && i + n <= s.size();
    std::uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // No overlong forms, surrogates or code points past U+10FFFF.
    ok = ok && !(n == 2 && cp < 0x80) && !(n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) &&
         !(n == 4 && (cp < 0x10000 || cp > 0x10FFFF));
    if (ok) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::vector<ValidationIssue> clean(std::vector<ValidationIssue> issues) {
  for (auto& issue : issues) {
    issue.path = utf8_clean(issue.path);
    issue.message = utf8_clean(issue.message);
  }
  return issues;
}

std::string render_issues(const std::vector<ValidationIssue>& issues) {
  std::string out;
  for (const auto& issue : issues) {
    if (!out.empty()) out += '\n';
    out += issue.path.empty() ? issue.message : issue.path + ": " + issue.message;
  }
  return out;
}

}  // namespace

ScenarioError::ScenarioError(std::vector<ValidationIssue> issues)
    : std::runtime_error(render_issues(clean(issues))), issues_(clean(std::move(issues))) {}

std::string issue_line(std::string_view file, const ValidationIssue& issue) {
  if (!issue.path.empty()) return std::string(file) + ": " + issue.path + ": " + issue.message;
  if (file.empty() || issue.message.find(file) != std::string::npos) return issue.message;
  return std::string(file) + ": " + issue.message;
}

std::string pointer_join(std::string_view parent, std::string_view key) {
  std::string out(parent);
  out += '/';
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string pointer_join(std::string_view parent, std::size_t index) {
  return std::string(parent) + "/" + std::to_string(index);
}

std::string join_list(const std::vector<std::string>& items, bool quoted, std::size_t max_items) {
  std::string out;
  const std::size_t shown = std::min(items.size(), max_items);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ", ";
    out += quoted ? "\"" + items[i] + "\"" : items[i];
  }
  if (items.size() > shown) out += ", ... (" + std::to_string(items.size() - shown) + " more)";
  return out;
}

}  // namespace wmnsim
