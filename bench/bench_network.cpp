// Whole-network benchmark: full runs through every layer (PHY, MAC, routing,
// forwarding, transport, metrics) of
//  - the flagship, 000's two-hop chain with two TCP uploads (120 s), and
//  - 004's mesh: 40 stations on a random 20 m grid in 500 m x 500 m, four corner
//    gateways, SINR PHY with auto rate, RTS/CTS, 300 kbit/s down + 100 kbit/s up CBR
//    per station (scenarios/fu2009/mesh40_4gw.json, 180 s), and
//  - a dense collision domain: 50 saturated 802.11b stations uploading to one
//    access point (scenarios/bench/cell50_saturated.json, 21 s), under the SINR
//    and the threshold reception model (issue 17: the first within 2x the second).
// Reports the median over repetitions (different seeds) of wall time per
// simulated second and events per second. With --fingerprint the runs hash their
// event trace (docs/fingerprints.md), to measure what that costs.
//
//   bench_network [repetitions=3] [mesh_seconds=180] [--fingerprint]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "runner/run_scenario.hpp"

using namespace wmnsim;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool g_fingerprint = false;

void bench(const std::string& label, const std::filesystem::path& file, int repetitions, double seconds,
           const char* reception = nullptr) {
  std::vector<double> wall, wall_per_s, events_per_s;
  double goodput = 0.0;
  std::uint64_t events = 0;
  for (int r = 0; r < repetitions; ++r) {
    nlohmann::json doc = read_json_file(file);
    if (seconds > 0) doc["simulation"]["duration_s"] = seconds;
    if (reception != nullptr) doc["phy"]["reception"]["model"] = reception;
    doc["simulation"]["seed"] = r + 1;
    const Scenario scenario = parse_scenario(doc);
    RunOptions options;
    options.fingerprint = g_fingerprint;
    const Results res = run_scenario(scenario, options);
    const double sim_s = res.stats.simulated.to_seconds();
    wall.push_back(res.stats.wall_time_s);
    wall_per_s.push_back(res.stats.wall_time_s / sim_s);
    events_per_s.push_back(static_cast<double>(res.stats.events_executed) / res.stats.wall_time_s);
    goodput = res.summary["total_goodput_bps"].get<double>();
    events = res.stats.events_executed;
  }
  std::printf("%-34s %8.1f %10.3f %14.2f %12.2fM %12llu %10.2f\n", label.c_str(),
              seconds > 0 ? seconds : 0.0, median(wall), median(wall_per_s) * 1e3, median(events_per_s) / 1e6,
              static_cast<unsigned long long>(events), goodput / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<const char*> args;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--fingerprint") == 0) {
      g_fingerprint = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  const int repetitions = args.size() > 0 ? std::atoi(args[0]) : 3;
  const double mesh_seconds = args.size() > 1 ? std::atof(args[1]) : 180.0;
  const std::filesystem::path root = WMNSIM_SOURCE_DIR;
  std::printf("%-34s %8s %10s %14s %13s %12s %10s\n", "scenario", "sim s", "wall s", "wall ms/sim s", "events/s",
              "events", "Mbit/s");
  bench("flagship two_hop_chain_tcp", root / "scenarios/two_hop_chain_tcp.json", repetitions, 120.0);
  bench("fu2009 mesh40_4gw (40+4 nodes)", root / "scenarios/fu2009/mesh40_4gw.json", repetitions, mesh_seconds);
  bench("cell50 saturated, sinr", root / "scenarios/bench/cell50_saturated.json", repetitions, 21.0, "sinr");
  bench("cell50 saturated, threshold", root / "scenarios/bench/cell50_saturated.json", repetitions, 21.0, "threshold");
  return 0;
}
