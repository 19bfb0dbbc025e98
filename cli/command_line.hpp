#pragma once
// The wmnsim command line as a function, so that one parser serves both the
// `wmnsim` program (cli/main.cpp) and the Python module (`python -m wmnsim`, the
// `wmnsim-py` script: bindings/src/register_cli.cpp). Help, messages, exit codes
// and files are the same because the code is the same.
//
//   wmnsim run SCENARIO [-o results.json] [--csv flows.csv] [--seed N]
//                       [--set /json/pointer=value ...] [--log-level L] [--log-node ID ...]
//                       [--fingerprint]
//   wmnsim validate SCENARIO... [--seed N] [--set /json/pointer=value ...]
//   wmnsim sweep SPEC -o DIR [--scheduler ADDRESS] [--workers N]   (docs/sweeps.md)
//   wmnsim reproduce STUDY [--quick] [-o DIR] [--scheduler ADDRESS] [--workers N] ...   (docs/reproduce.md)
//   wmnsim compare RESULTS... REFERENCE   (cli/compare_command.hpp)
//   wmnsim model starvation [options]   (cli/model_command.hpp)
//   wmnsim fragments SCHEMA DOC [--write]   (cli/fragments_command.hpp)
//   wmnsim --version
//
// Exit codes: 0 success, 1 internal error, 2 invalid input (nothing written),
// 3 (compare) a metric outside its tolerance, 130, 143, 129 stopped by SIGINT
// (Ctrl-C), SIGTERM or SIGHUP.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wmnsim::cli {

inline constexpr int kExitInternal = 1;
inline constexpr int kExitInvalidInput = 2;

// `wmnsim sweep`, parsed. The sweep itself runs on Dask, in Python
// (bindings/wmnsim/sweep.py): the command line only parses and hands over.
struct SweepArgs {
  std::string spec;                 // the sweep spec file (JSON)
  std::string output;               // the dataset folder
  std::optional<std::string> scheduler;  // a Dask scheduler address; none: an embedded local cluster
  std::optional<int> workers;       // worker processes of the local cluster; none: one per core
};

// `wmnsim reproduce`, parsed; it runs in Python too (bindings/wmnsim/reproduce.py).
struct ReproduceArgs {
  std::string study;                     // a study's short name, several joined by commas, or "all"
  bool quick = false;                    // the short variants, checked against the stored quick runs
  std::optional<std::string> output;     // the work folder of the runs; none: build/reproduce
  std::optional<std::string> scheduler;  // as SweepArgs
  std::optional<int> workers;
  bool report_only = false;              // no runs: the doc from the stored runs
  bool check = false;                    // with report_only: exit 3 if the doc differs from its runs
  bool store = false;                    // with quick: store the quick runs as the new reference
  std::optional<std::string> experiments;  // only these experiments (comma-separated)
  bool no_plot = false;
  bool add_seeds = false;                // run only the seeds the stored runs lack, and add them to those
};

// What differs between the program and the Python module.
struct CommandLineHooks {
  // Runs a parsed `wmnsim sweep` and returns its exit code. The program starts a
  // Python interpreter (cli/sweep_launcher.hpp); the module calls wmnsim.sweep.
  std::function<int(const SweepArgs&)> sweep;
  // Runs a parsed `wmnsim reproduce`, the same way.
  std::function<int(const ReproduceArgs&)> reproduce;
};

// Parses and runs one command line; `args` excludes the program name. Returns the
// exit code. Writes to std::cout and std::cerr.
int run_command_line(const std::vector<std::string>& args, const CommandLineHooks& hooks);

}  // namespace wmnsim::cli
