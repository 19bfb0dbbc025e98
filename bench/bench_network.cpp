// Whole-network benchmark: full runs through every layer (PHY, MAC, routing,
// forwarding, transport, metrics) of
//  - the flagship, 000's two-hop chain with two TCP uploads (120 s), and
//  - 004's mesh: 40 stations on a random 20 m grid in 500 m x 500 m, four corner
//    gateways, SINR PHY with auto rate, RTS/CTS, 300 kbit/s down + 100 kbit/s up CBR
//    per station (scenarios/fu2009/mesh40_4gw.json, 180 s).
// Reports the median over repetitions (different seeds) of wall time per
// simulated second and events per second.
//
//   bench_network [repetitions=3] [mesh_seconds=180]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/scenario.hpp"
#include "runner/run_scenario.hpp"

using namespace wmnsim;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void bench(const std::string& label, const std::filesystem::path& file, int repetitions, double seconds) {
  std::vector<double> wall, wall_per_s, events_per_s;
  double goodput = 0.0;
  std::uint64_t events = 0;
  for (int r = 0; r < repetitions; ++r) {
    nlohmann::json doc = read_json_file(file);
    if (seconds > 0) doc["simulation"]["duration_s"] = seconds;
    doc["simulation"]["seed"] = r + 1;
    const Scenario scenario = parse_scenario(doc);
    const Results res = run_scenario(scenario);
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
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 3;
  const double mesh_seconds = argc > 2 ? std::atof(argv[2]) : 180.0;
  const std::filesystem::path root = WMNSIM_SOURCE_DIR;
  std::printf("%-34s %8s %10s %14s %13s %12s %10s\n", "scenario", "sim s", "wall s", "wall ms/sim s", "events/s",
              "events", "Mbit/s");
  bench("flagship two_hop_chain_tcp", root / "scenarios/two_hop_chain_tcp.json", repetitions, 120.0);
  bench("fu2009 mesh40_4gw (40+4 nodes)", root / "scenarios/fu2009/mesh40_4gw.json", repetitions, mesh_seconds);
  return 0;
}
