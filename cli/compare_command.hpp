#pragma once
// `wmnsim compare RESULTS... REFERENCE`: checks results files against a reference
// file (docs/references.md) and prints a table and a verdict.
//
//   wmnsim compare RESULTS [RESULTS...] REFERENCE [--json] [--allow-different-scenario]
//   wmnsim compare RESULTS [RESULTS...] --reference REFERENCE [--json] [--allow-different-scenario]
//
// Exit codes: 0 every metric within tolerance, 3 some metric outside or missing,
// 2 invalid input (unreadable or malformed files, a bad reference, results made
// from another scenario or duration than the reference's unless
// --allow-different-scenario), 1 internal.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace wmnsim::cli {

class CompareCommand {
 public:
  // Registers the subcommand on `app`.
  explicit CompareCommand(CLI::App& app);
  bool selected() const { return command_->parsed(); }
  int run() const;

 private:
  CLI::App* command_;
  std::vector<std::string> files_;
  std::string reference_;
  bool json_ = false;
  bool allow_different_scenario_ = false;
};

}  // namespace wmnsim::cli
