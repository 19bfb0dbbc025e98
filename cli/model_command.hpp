#pragma once
// `wmnsim model starvation ...`: the analytical model of paper 000 Sec. 5
// (control/starvation_model.hpp, docs/model.md) from the command line.
//
//   wmnsim model starvation [--cwmin-a N] [--cwmin-b N[,N...]] [--cwmin-g N]
//                           [--window N] [--window-a N] [--window-b N]
//                           [--retry-limit N] [--rts on|off] [--payload-bytes N] [--json]
//
// --window sets both windows; --window-a / --window-b then override one. A list of
// CWmin_B values is a sweep: one row each. Exit codes: 0, or 2 for a bad value.
//
//   wmnsim model capacity SCENARIO [--set /ptr=value ...] [--at SECONDS]
//                         [--mac-capacity-bps B | --measure-mac-capacity
//                          [--measured-b-counts data|data_and_tcp_acks]]
//                         [--one-hop-scenario] [--json]
//
// 001's capacity models (analysis/capacity_report.hpp, docs/capacity.md): each
// flow's hops and max-min fair share under the collision-domain and clique models,
// B and U_opt. --measure-mac-capacity takes B from a one-hop run on the scenario's
// PHY and MAC (runner/one_hop_capacity.hpp; with "auto" rates one run per link
// rate), read as --measured-b-counts says (the flow's goodput, the default, or the
// MAC's throughput with the TCP ACKs' bytes); --one-hop-scenario prints that run's
// scenario instead of the model. Exit codes: 0, or 2 for a scenario or value that
// cannot be used.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace wmnsim::cli {

struct ModelArgs {
  int cw_min_a = 32;
  std::string cw_min_b = "32";  // one value or a comma-separated sweep
  int cw_min_g = 32;
  std::optional<int> window, window_a, window_b;
  int retry_limit = 7;
  std::string rts = "off";
  int payload_bytes = 1460;
  bool json = false;
};

struct CapacityArgs {
  std::string scenario;
  std::vector<std::string> sets;
  std::optional<double> at_s;
  std::optional<double> mac_capacity_bps;
  bool measure_mac_capacity = false;
  std::string measured_b_counts = "data";
  bool one_hop_scenario = false;
  bool json = false;
};

// Adds `model` (with its `starvation` and `capacity` subcommands) to `app`; returns `model`.
CLI::App* add_model_command(CLI::App& app, ModelArgs& args, CapacityArgs& capacity);

// Runs the chosen subcommand: prints the table (or JSON) and returns the exit code.
int run_model_command(const CLI::App& model, const ModelArgs& args, const CapacityArgs& capacity);

}  // namespace wmnsim::cli
