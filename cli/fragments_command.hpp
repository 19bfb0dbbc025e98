#pragma once
// `wmnsim fragments SCHEMA DOC [PROSE...] [--results RESULTS_DOC] [--write]`: the
// registry-owned parts of the scenario JSON Schema and of docs/scenario.md, and the
// defaults quoted in the prose of the PROSE docs (docs/controllers.md, ...), composed
// from the built-in entries (scenario/scenario_fragments.hpp); and the column tables
// of docs/results.md, from the result columns (results/result_columns.hpp). Without --write it checks the files and names
// each one that differs (ctest `fragments` runs it); with --write it rewrites them.
//
// Exit codes: 0 in sync (or written), 3 out of sync, 2 unreadable or malformed
// files, 1 internal.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace wmnsim::cli {

class FragmentsCommand {
 public:
  explicit FragmentsCommand(CLI::App& app);
  bool selected() const { return command_->parsed(); }
  int run() const;

 private:
  CLI::App* command_;
  std::string schema_;
  std::string doc_;
  std::vector<std::string> prose_;
  std::string results_;
  bool write_ = false;
};

}  // namespace wmnsim::cli
