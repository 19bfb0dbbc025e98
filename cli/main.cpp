// The wmnsim command line.
//
//   wmnsim run SCENARIO [-o results.json] [--csv flows.csv] [--seed N]
//                       [--set /json/pointer=value ...] [--log-level L] [--fingerprint]
//   wmnsim validate SCENARIO...
//   wmnsim compare RESULTS... REFERENCE   (cli/compare_command.hpp)
//   wmnsim model starvation [options]   (cli/model_command.hpp)
//   wmnsim --version
//
// Exit codes: 0 success, 1 internal error, 2 invalid input (nothing written),
// 130 interrupted by Ctrl-C (nothing written).

#include <CLI/CLI.hpp>
#include <spdlog/common.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/compare_command.hpp"
#include "core/results.hpp"
#include "core/scenario.hpp"
#include "model_command.hpp"
#include "runner/flow_table.hpp"
#include "runner/run_scenario.hpp"

namespace {

constexpr int kExitInternal = 1;
constexpr int kExitInvalidInput = 2;
constexpr int kExitInterrupted = 130;

std::atomic<bool> g_interrupted{false};  // the one thing a signal handler may touch
extern "C" void on_sigint(int) { g_interrupted.store(true); }

void print_issues(const std::string& file, const wmnsim::ScenarioError& e) {
  for (const auto& issue : e.issues()) {
    // Root-level messages (unreadable or malformed files) already name the file.
    if (issue.path.empty()) {
      std::cerr << issue.message << '\n';
    } else {
      std::cerr << file << ": " << issue.path << ": " << issue.message << '\n';
    }
  }
}

// "12.3/120 s (10%)  1.2e+07 ev/s  ETA 3 s", redrawn in place.
void print_progress(const wmnsim::Progress& p, bool final) {
  const double now = p.now.to_seconds(), end = p.end.to_seconds();
  const double fraction = end > 0 ? now / end : 1.0;
  const double rate = p.wall_time_s > 0 ? static_cast<double>(p.events_executed) / p.wall_time_s : 0.0;
  const double eta = fraction > 0 ? p.wall_time_s * (1.0 - fraction) / fraction : 0.0;
  std::fprintf(stderr, "\r[wmnsim] %.1f/%.0f s simulated (%3.0f%%)  %.3g events/s  ETA %.0f s   %s", now, end,
               100.0 * fraction, rate, eta, final ? "\n" : "");
  std::fflush(stderr);
}

struct RunArgs {
  std::string scenario;
  std::string output;
  std::string csv;
  std::vector<std::string> sets;
  std::optional<std::uint64_t> seed;
  std::string log_level = "warn";
  bool fingerprint = false;
};

int run_command(const RunArgs& args) {
  wmnsim::Scenario scenario;
  try {
    std::vector<std::string> overrides = args.sets;
    if (args.seed) overrides.push_back("/simulation/seed=" + std::to_string(*args.seed));
    scenario = wmnsim::parse_scenario(wmnsim::apply_overrides(wmnsim::read_json_file(args.scenario), overrides));
    if (scenario.name.empty()) scenario.name = std::filesystem::path(args.scenario).stem().string();
  } catch (const wmnsim::ScenarioError& e) {
    print_issues(args.scenario, e);
    return kExitInvalidInput;
  }

  // Output paths are checked before a possibly long run, not after it.
  for (const std::string& out : {args.output, args.csv}) {
    if (out.empty()) continue;
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent)) {
      std::cerr << "cannot write " << out << ": the folder " << parent.string()
                << " does not exist; create it or choose another output path\n";
      return kExitInvalidInput;
    }
  }

  wmnsim::RunOptions options;
  options.log_level = spdlog::level::from_str(args.log_level);
  options.fingerprint = args.fingerprint;
  options.control.cancel = &g_interrupted;
  // Progress only on a terminal, and only once a run has lasted about a second.
  bool progress_shown = false;
  if (::isatty(STDERR_FILENO) != 0) {
    options.control.on_progress = [&](const wmnsim::Progress& p) {
      const bool final = p.now >= p.end;
      if (p.wall_time_s < 1.0 && !progress_shown) return;
      progress_shown = true;
      print_progress(p, final);
    };
  }
  std::signal(SIGINT, on_sigint);

  wmnsim::Results results;
  try {
    results = wmnsim::run_scenario(scenario, options);
  } catch (const wmnsim::NotSupportedError& e) {
    std::cerr << args.scenario << ": " << e.what() << '\n';
    return kExitInvalidInput;
  } catch (const wmnsim::ScenarioError& e) {
    // Problems only the network can see (routing: unreachable flows, bad tables).
    print_issues(args.scenario, e);
    return kExitInvalidInput;
  }
  if (results.stats.interrupted) {
    std::cerr << "\ninterrupted at " << results.stats.simulated.to_seconds() << " s simulated; nothing written\n";
    return kExitInterrupted;
  }

  // Write both files only after the run succeeded; each is atomic on its own. A
  // file that cannot be written (permissions, full disk) is the user's to fix.
  try {
    if (!args.output.empty()) wmnsim::write_file_atomically(args.output, results.to_json().dump(2) + "\n");
    if (!args.csv.empty()) wmnsim::write_file_atomically(args.csv, results.flows_csv());
  } catch (const std::runtime_error& e) {
    std::cerr << e.what() << '\n';
    return kExitInvalidInput;
  }
  std::cout << wmnsim::format_flow_table(results);
  if (const auto& fp = results.stats.fingerprint) {
    const wmnsim::Fingerprint::Counts& c = fp->counts();
    std::cout << "event_fingerprint: " << fp->hex() << " (events " << c.events << ", frames " << c.frames
              << ", deliveries " << c.deliveries << ", drops " << c.drops << ")\n";
  }
  return 0;
}

int validate_command(const std::vector<std::string>& files) {
  int status = 0;
  for (const auto& file : files) {
    try {
      (void)wmnsim::load_scenario_file(file);
      std::cout << file << ": valid\n";
    } catch (const wmnsim::ScenarioError& e) {
      print_issues(file, e);
      status = kExitInvalidInput;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"wmnsim: discrete-event simulator of 802.11 wireless mesh networks"};
  app.set_version_flag("--version", "wmnsim " + std::string(wmnsim::wmnsim_version()) + " (" +
                                        std::string(wmnsim::wmnsim_build_type()) + ")");
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and print its per-flow table");
  run_cmd->add_option("scenario", run.scenario, "Scenario JSON file")->required();
  run_cmd->add_option("-o,--output", run.output, "Write the results JSON here (docs/results.md)");
  run_cmd->add_option("--csv", run.csv, "Write the per-flow table as CSV here");
  run_cmd->add_option("--seed", run.seed, "Master seed (overrides /simulation/seed)");
  run_cmd->add_option("--set", run.sets, "Override a scenario value: /json/pointer=value (repeatable)");
  run_cmd->add_option("--log-level", run.log_level, "trace, debug, info, warn, error, critical or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  run_cmd->add_flag("--fingerprint", run.fingerprint,
                    "Hash the event trace (docs/fingerprints.md): print it and record it in the results file");

  std::vector<std::string> validate_files;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check scenarios; print every error with its JSON path");
  validate_cmd->add_option("scenarios", validate_files, "Scenario JSON files")->required();

  const wmnsim::cli::CompareCommand compare(app);
  wmnsim::cli::ModelArgs model;
  CLI::App* model_cmd = wmnsim::cli::add_model_command(app, model);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitInvalidInput;
  }

  try {
    if (*run_cmd) return run_command(run);
    if (*validate_cmd) return validate_command(validate_files);
    if (compare.selected()) return compare.run();
    if (*model_cmd) return wmnsim::cli::run_model_command(model);
  } catch (const std::exception& e) {
    std::cerr << "wmnsim: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
  return kExitInternal;
}
