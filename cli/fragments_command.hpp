#pragma once
// `wmnsim fragments SCHEMA DOC [--write]`: the registry-owned parts of the scenario
// JSON Schema and of docs/scenario.md (scenario/scenario_fragments.hpp), composed
// from the built-in entries. Without --write it checks both files and names each one
// that differs (ctest `fragments` runs it); with --write it rewrites them.
//
// Exit codes: 0 in sync (or written), 3 out of sync, 2 unreadable or malformed
// files, 1 internal.

#include <CLI/CLI.hpp>

#include <string>

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
  bool write_ = false;
};

}  // namespace wmnsim::cli
