#pragma once
// Helpers shared by the scenario tests.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace wmnsim::test {

// The smallest useful scenario: a two-hop chain with one TCP upload.
inline nlohmann::json minimal_scenario() {
  return R"({
    "simulation": {"duration_s": 10},
    "nodes": [
      {"id": "A", "position_m": [0, 0]},
      {"id": "B", "position_m": [100, 0]},
      {"id": "GW", "position_m": [200, 0], "role": "gateway"}
    ],
    "flows": [{"id": "f1", "transport": "tcp", "src": "A", "dst": "GW"}]
  })"_json;
}

// The issues parse_scenario reports for `doc` (empty when it parses).
inline std::vector<ValidationIssue> issues_of(const nlohmann::json& doc) {
  try {
    parse_scenario(doc);
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

inline std::string render(const std::vector<ValidationIssue>& issues) {
  std::string out;
  for (const auto& i : issues) out += "\n  " + i.path + ": " + i.message;
  return out.empty() ? " (none)" : out;
}

// Some issue sits exactly at `path` and its message contains `fragment`.
inline ::testing::AssertionResult has_issue(const std::vector<ValidationIssue>& issues,
                                            const std::string& path, const std::string& fragment) {
  for (const auto& i : issues) {
    if (i.path == path && i.message.find(fragment) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no issue at \"" << path << "\" containing \"" << fragment
                                       << "\"; got:" << render(issues);
}

}  // namespace wmnsim::test
