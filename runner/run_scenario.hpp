#pragma once
// Runs a scenario: builds the network from every layer, runs it, collects results.

#include <string>
#include <string_view>
#include <vector>

#include "core/not_supported.hpp"
#include "results/results.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"

namespace wmnsim {

struct RunOptions {
  RunControl control;
  spdlog::level::level_enum log_level = spdlog::level::warn;
  // Debug and trace lines only about these nodes (scenario node ids); empty: all.
  // An id no node has is a ScenarioError.
  std::vector<std::string> log_nodes;
  // Fold the event trace into a fingerprint (core/fingerprint.hpp) and record it in
  // Results::stats; off by default, as it costs a little per event.
  bool fingerprint = false;
  // Files the caller writes after the run (the command line's -o and --csv): a
  // trace file (outputs.pcap) may not be one of them.
  std::vector<std::string> other_output_files;
  // The samples the time series and the controllers' histories may hold together
  // (docs/scenario.md, Limits); tests lower it to see a history cut.
  double sample_budget = kMaxTimeseriesSamples;
};

// Why a time-series kind of the scenario format is not recorded yet (a run refuses
// it), or nullptr when a layer records it.
const char* why_not_recorded(std::string_view timeseries_kind);

// Throws NotSupportedError for features no layer implements yet, ScenarioError for
// what only the network can see (routing: unreachable flows, bad static tables),
// and EventFlood (core/scheduler.hpp) when events stop advancing time.
Results run_scenario(const Scenario& scenario, const RunOptions& options = {});
// The same with the registries the scenario was parsed with (scenario/registries.hpp):
// their controller factories build the controllers.
Results run_scenario(const Scenario& scenario, const RunOptions& options, const Registries& registries);

// Everything run_scenario() checks before it simulates, without simulating: builds
// the network (PHY, routing, MACs, endpoints, controllers) as a run does and throws
// what a run would throw before its first event. `wmnsim validate` calls this.
void check_runnable(const Scenario& scenario);
void check_runnable(const Scenario& scenario, const Registries& registries);

}  // namespace wmnsim
