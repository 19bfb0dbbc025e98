// The wmnsim command line (cli/command_line.hpp).

#include "cli/command_line.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/common.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include "cli/compare_command.hpp"
#include "cli/fragments_command.hpp"
#include "cli/model_command.hpp"
#include "results/results.hpp"
#include "scenario/scenario.hpp"
#include "runner/flow_table.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim::cli {

namespace {

// SIGINT (Ctrl-C), SIGTERM (kill, a batch system's time limit) and SIGHUP (a closed
// terminal) all stop a run the same way: at the next slice of events; the files
// are written, marked partial, and the exit code is 128 + the signal's number
// (130, 143, 129).
std::atomic<bool> g_interrupted{false};  // what a signal handler may touch
std::atomic<int> g_signal{0};
extern "C" void on_stop_signal(int signal) {
  g_signal.store(signal);
  g_interrupted.store(true);
}
constexpr std::array<int, 3> kStopSignals{SIGINT, SIGTERM, SIGHUP};

// Installs the stop handlers while runs are going on and puts the previous ones
// back, whole (handler, flags and mask, through sigaction): inside the Python
// module those are Python's own, and several Python threads may run the command
// line at once. The first run in installs and clears the flags, the last one out
// restores; a signal meanwhile stops every run in progress.
class StopSignals {
 public:
  StopSignals() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (state().users++ > 0) return;
    g_interrupted.store(false);
    g_signal.store(0);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESTART;  // a write to stderr or a results file is not cut short
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &action, &state().previous[i]);
  }
  ~StopSignals() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (--state().users > 0) return;
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &state().previous[i], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct State {
    int users = 0;
    std::array<struct sigaction, 3> previous{};
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static State& state() {
    static State s;
    return s;
  }
};

void print_issues(const std::string& file, const wmnsim::ScenarioError& e) {
  for (const auto& issue : e.issues()) std::cerr << wmnsim::issue_line(file, issue) << '\n';
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

// What `run` and `validate` share: the scenario file, --set overrides and --seed.
struct ScenarioArgs {
  std::vector<std::string> sets;
  std::optional<std::string> seed;  // text: checked by the loader as /simulation/seed
  // run --event-trace FILE: /outputs/event_trace/path, the section's other keys kept.
  std::optional<std::string> event_trace;
};

struct RunArgs {
  std::string scenario;
  std::string output;
  std::string csv;
  ScenarioArgs common;
  std::string log_level = "warn";
  std::vector<std::string> log_nodes;  // --log-node, repeatable
  bool fingerprint = false;
  bool wide = false;  // --wide: every flow column
};

// The scenario as `run` would simulate it: file, overrides, then --seed, which is
// --set /simulation/seed=N (one rule for the seed, the loader's: an integer
// 0..2^64-1, as from Python). Throws ScenarioError.
wmnsim::Scenario load(const std::string& file, const ScenarioArgs& args) {
  std::vector<std::string> overrides = args.sets;
  if (args.seed) overrides.push_back("/simulation/seed=" + *args.seed);
  nlohmann::json doc = wmnsim::apply_overrides(wmnsim::read_json_file(file), overrides);
  // Set as a string, whatever it looks like (--set would read "1" as a number).
  // (Another shape of /outputs is left for the loader to report.)
  if (args.event_trace && doc.is_object()) {
    nlohmann::json& outputs = doc["outputs"];
    if (outputs.is_null() || outputs.is_object()) {
      nlohmann::json& section = outputs["event_trace"];
      if (section.is_null() || section.is_object()) section["path"] = *args.event_trace;
    }
  }
  wmnsim::Scenario scenario = wmnsim::parse_scenario(doc);
  if (scenario.name.empty()) {
    const std::string stem = std::filesystem::path(file).stem().string();
    scenario.name = wmnsim::valid_utf8(stem) ? stem : "scenario";  // the name goes into JSON
  }
  return scenario;
}

// The files a run writes: -o (else the scenario's outputs.results_file), --csv and
// the scenario's outputs.timeseries_file.
std::vector<wmnsim::OutputFile> outputs_of(const RunArgs* args, const wmnsim::Scenario& scenario) {
  std::vector<wmnsim::OutputFile> out;
  if (args != nullptr && !args->output.empty()) {
    out.push_back({"-o", args->output});
  } else if (scenario.outputs.results_file) {
    out.push_back({"/outputs/results_file", *scenario.outputs.results_file});
  }
  if (args != nullptr && !args->csv.empty()) out.push_back({"--csv", args->csv});
  if (scenario.outputs.timeseries_file) out.push_back({"/outputs/timeseries_file", *scenario.outputs.timeseries_file});
  return out;
}

// Everything `run` refuses before its first event, in the order `run` checks it:
// the scenario, its output files, and what only the built network shows (routing,
// features not simulated yet). Prints the problems; returns the exit code.
int check_before_run(const std::string& file, const wmnsim::Scenario& scenario,
                     const std::vector<wmnsim::OutputFile>& outputs) {
  const std::vector<std::string> problems = wmnsim::check_output_files(file, outputs);
  for (const std::string& p : problems) std::cerr << p << '\n';
  if (!problems.empty()) return kExitInvalidInput;
  try {
    wmnsim::check_runnable(scenario);
  } catch (const wmnsim::NotSupportedError& e) {
    std::cerr << file << ": " << e.what() << '\n';
    return kExitInvalidInput;
  } catch (const wmnsim::ScenarioError& e) {
    print_issues(file, e);
    return kExitInvalidInput;
  } catch (const wmnsim::EventFlood& e) {  // as run_command: the network's set-up flooded the event set
    std::cerr << file << ": " << e.what() << '\n';
    return kExitInvalidInput;
  }
  return 0;
}

int run_command(const RunArgs& args) {
  wmnsim::Scenario scenario;
  try {
    scenario = load(args.scenario, args.common);
  } catch (const wmnsim::ScenarioError& e) {
    print_issues(args.scenario, e);
    return kExitInvalidInput;
  }
  // Output paths are checked before a possibly long run, not after it.
  const std::vector<wmnsim::OutputFile> outputs = outputs_of(&args, scenario);
  const std::vector<std::string> problems = wmnsim::check_output_files(args.scenario, outputs);
  for (const std::string& p : problems) std::cerr << p << '\n';
  if (!problems.empty()) return kExitInvalidInput;

  wmnsim::RunOptions options;
  options.log_level = spdlog::level::from_str(args.log_level);
  options.log_nodes = args.log_nodes;
  for (const wmnsim::OutputFile& o : outputs) options.other_output_files.push_back(o.path.string());
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
  const StopSignals stop_signals;  // until the files are written
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
  } catch (const wmnsim::EventFlood& e) {
    std::cerr << args.scenario << ": " << e.what() << '\n';
    return kExitInvalidInput;
  }
  // Write the files after the run, an interrupted one too (marked "partial": true,
  // what it measured up to the stop); each is atomic on its own. A file that cannot
  // be written (permissions, full disk) is the user's to fix.
  try {
    nlohmann::ordered_json doc = results.to_json();
    for (const wmnsim::OutputFile& o : outputs) {
      if (o.what == "/outputs/timeseries_file") {
        wmnsim::write_file_atomically(o.path, wmnsim::timeseries_csv(doc));
        doc["timeseries"] = nlohmann::ordered_json::object();  // there instead of in the results
      }
    }
    for (const wmnsim::OutputFile& o : outputs) {
      if (o.what == "--csv") wmnsim::write_file_atomically(o.path, results.flows_csv());
      if (o.what == "-o" || o.what == "/outputs/results_file") wmnsim::write_file_atomically(o.path, doc.dump(2) + "\n");
    }
  } catch (const std::runtime_error& e) {
    std::cerr << e.what() << '\n';
    return kExitInvalidInput;
  }
  if (results.stats.interrupted) {  // still 128 + the signal: the run did not finish
    const int signal = g_signal.load();
    std::cerr << "\ninterrupted" << (signal == SIGINT ? "" : signal == SIGTERM ? " by SIGTERM" : " by SIGHUP")
              << " at " << results.stats.simulated.to_seconds() << " s simulated; "
              << (outputs.empty() ? "no output file asked for" : "partial results written") << '\n';
    return 128 + signal;
  }
  std::cout << wmnsim::format_flow_table(results, args.wide);
  if (const auto& fp = results.stats.fingerprint) {
    const wmnsim::Fingerprint::Counts& c = fp->counts();
    std::cout << "event_fingerprint: " << fp->hex() << " (events " << c.events << ", frames " << c.frames
              << ", deliveries " << c.deliveries << ", drops " << c.drops << ")\n";
  }
  return 0;
}

// Answers what `run` would: the same loading, the same checks before the first
// event (output files named by the scenario, routing, features not simulated yet),
// without simulating.
int validate_command(const std::vector<std::string>& files, const ScenarioArgs& args) {
  int status = 0;
  for (const auto& file : files) {
    wmnsim::Scenario scenario;
    try {
      scenario = load(file, args);
    } catch (const wmnsim::ScenarioError& e) {
      print_issues(file, e);
      status = kExitInvalidInput;
      continue;
    }
    if (const int s = check_before_run(file, scenario, outputs_of(nullptr, scenario)); s != 0) {
      status = s;
      continue;
    }
    std::cout << file << ": valid\n";
  }
  return status;
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, const CommandLineHooks& hooks) {
  CLI::App app{"wmnsim: discrete-event simulator of 802.11 wireless mesh networks", "wmnsim"};
  app.set_version_flag("--version", "wmnsim " + std::string(wmnsim::wmnsim_version()) + " (commit " +
                                        std::string(wmnsim::wmnsim_commit()) + ", " +
                                        std::string(wmnsim::wmnsim_build_type()) + ")");
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and print its per-flow table");
  run_cmd->add_option("scenario", run.scenario, "Scenario JSON file")->required();
  run_cmd->add_option("-o,--output", run.output,
                      "Write the results JSON here (docs/results.md; default: the scenario's outputs.results_file)");
  run_cmd->add_option("--csv", run.csv, "Write the per-flow table as CSV here");
  run_cmd->add_option("--seed", run.common.seed, "Master seed 0..2^64-1 (sets /simulation/seed)");
  run_cmd->add_option("--set", run.common.sets, "Override a scenario value: /json/pointer=value (repeatable)");
  run_cmd->add_option("--event-trace", run.common.event_trace,
                      "Write the event trace here (docs/traces.md; sets /outputs/event_trace/path)");
  run_cmd->add_option("--log-level", run.log_level, "trace, debug, info, warn, error, critical or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  run_cmd->add_option("--log-node", run.log_nodes,
                      "Debug and trace lines only about this node id (repeatable; default: every node)");
  run_cmd->add_flag("--wide", run.wide,
                    "Print every per-flow column under its results-file name (default: a compact table)");
  run_cmd->add_flag("--fingerprint", run.fingerprint,
                    "Hash the event trace (docs/fingerprints.md): print it and record it in the results file");

  std::vector<std::string> validate_files;
  ScenarioArgs validate_args;
  CLI::App* validate_cmd = app.add_subcommand(
      "validate", "Check scenarios as run would, without simulating; print every error with its JSON path");
  validate_cmd->add_option("scenarios", validate_files, "Scenario JSON files")->required();
  validate_cmd->add_option("--seed", validate_args.seed, "Master seed 0..2^64-1 (sets /simulation/seed)");
  validate_cmd->add_option("--set", validate_args.sets,
                           "Override a scenario value: /json/pointer=value (repeatable), as run does");

  const wmnsim::cli::CompareCommand compare(app);
  const wmnsim::cli::FragmentsCommand fragments(app);
  wmnsim::cli::ModelArgs model;
  wmnsim::cli::CapacityArgs capacity;
  CLI::App* model_cmd = wmnsim::cli::add_model_command(app, model, capacity);

  SweepArgs sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep", "Run a scenario over a grid of overrides and seeds on Dask; results as a Parquet dataset "
               "(docs/sweeps.md)");
  sweep_cmd->add_option("spec", sweep.spec, "Sweep spec JSON file")->required();
  sweep_cmd->add_option("-o,--output", sweep.output,
                        "Dataset folder; a finished point in it is skipped (resume)")->required();
  sweep_cmd->add_option("--scheduler", sweep.scheduler,
                        "Address of a running Dask scheduler (tcp://host:8786); default: a local cluster");
  sweep_cmd->add_option("--workers", sweep.workers, "Worker processes of the local cluster (default: one per core)")
      ->check(CLI::Range(1, 4096));

  ReproduceArgs reproduce;
  CLI::App* reproduce_cmd = app.add_subcommand(
      "reproduce", "Run every experiment of a study on Dask, store its runs and regenerate its reproduction doc "
                   "(docs/reproduce.md)");
  reproduce_cmd->add_option("study", reproduce.study,
                            "starvation, gateway, edca, wccp, mesh-congestion (several: a,b), or all")
      ->required();
  reproduce_cmd->add_flag("--quick", reproduce.quick,
                          "The short variants: checked against the stored quick runs, the doc rendered into -o");
  reproduce_cmd->add_option("-o,--output", reproduce.output,
                            "Work folder of the runs (resumed when present; default build/reproduce)");
  reproduce_cmd->add_option("--scheduler", reproduce.scheduler,
                            "Address of a running Dask scheduler (tcp://host:8786); default: a local cluster");
  reproduce_cmd->add_option("--workers", reproduce.workers, "Worker processes of the local cluster")
      ->check(CLI::Range(1, 4096));
  reproduce_cmd->add_flag("--report-only", reproduce.report_only, "No runs: regenerate the doc from the stored runs");
  reproduce_cmd->add_flag("--check", reproduce.check,
                          "With --report-only: write nothing, exit 3 if a doc differs from its stored runs");
  reproduce_cmd->add_flag("--store", reproduce.store, "With --quick: store the quick runs in the repository");
  reproduce_cmd->add_option("--experiments", reproduce.experiments, "Only these experiments (a,b)");
  reproduce_cmd->add_flag("--no-plot", reproduce.no_plot, "Do not draw the figures");
  reproduce_cmd->add_flag("--add-seeds", reproduce.add_seeds,
                          "Run only the seeds an experiment's stored runs lack (after its seeds were extended) and "
                          "store them beside those (docs/reproduce.md)");

  // CLI11 reads argv-style input: the program name first.
  std::vector<const char*> argv{"wmnsim"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitInvalidInput;
  }

  try {
    if (*run_cmd) return run_command(run);
    if (*validate_cmd) return validate_command(validate_files, validate_args);
    if (*sweep_cmd) {
      if (sweep.scheduler && sweep.workers) {
        std::cerr << "sweep: --workers sizes the local cluster; with --scheduler the cluster has its own workers\n";
        return kExitInvalidInput;
      }
      if (!hooks.sweep) throw std::logic_error("this build has no sweep runner");
      std::cout.flush();
      return hooks.sweep(sweep);
    }
    if (*reproduce_cmd) {
      if (reproduce.scheduler && reproduce.workers) {
        std::cerr << "reproduce: --workers sizes the local cluster; with --scheduler the cluster has its own "
                     "workers\n";
        return kExitInvalidInput;
      }
      if (reproduce.check && !reproduce.report_only) {
        std::cerr << "reproduce: --check compares the docs with their stored runs: give --report-only too\n";
        return kExitInvalidInput;
      }
      if (reproduce.add_seeds && (reproduce.quick || reproduce.report_only)) {
        std::cerr << "reproduce: --add-seeds extends the stored full runs: not with --quick or --report-only\n";
        return kExitInvalidInput;
      }
      if (reproduce.store && !reproduce.quick) {
        std::cerr << "reproduce: --store is for --quick (a full reproduction always stores its runs)\n";
        return kExitInvalidInput;
      }
      if (!hooks.reproduce) throw std::logic_error("this build has no reproduction runner");
      std::cout.flush();
      return hooks.reproduce(reproduce);
    }
    if (compare.selected()) return compare.run();
    if (fragments.selected()) return fragments.run();
    if (*model_cmd) return wmnsim::cli::run_model_command(*model_cmd, model, capacity);
  } catch (const std::exception& e) {
    std::cerr << "wmnsim: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace wmnsim::cli
