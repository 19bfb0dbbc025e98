// Whole-network benchmark: full runs through every layer (PHY, MAC, routing,
// forwarding, transport, metrics) of
//  - the flagship, 000's two-hop chain with two TCP uploads (120 s), and
//  - 004's mesh: 40 stations on a random 20 m grid in 500 m x 500 m, four corner
//    gateways, SINR PHY with auto rate, RTS/CTS, 300 kbit/s down + 100 kbit/s up CBR
//    per station (scenarios/fu2009/mesh40_4gw.json, 180 s), again with faint
//    signals delivered as events (docs/phy.md "Faint signals"), and
//  - a dense collision domain: 50 saturated 802.11b stations uploading to one
//    access point (scenarios/bench/cell50_saturated.json, 21 s), under the SINR
//    and the threshold reception model (issue 17: the first within 2x the second).
// Reports the median over repetitions (different seeds) of wall time per
// simulated second and events per second. With --fingerprint the runs hash their
// event trace (docs/fingerprints.md), to measure what that costs.
//
//   bench_network [repetitions=3] [mesh_seconds=180] [--fingerprint]
//
// --scale: the whole-network series of issue 17 at the constant density of 004's
// mesh (40 stations per 500 m x 500 m, the fu2009 PHY, propagation and MAC): for
// each node count a random_uniform node group on a square scaled to keep that
// density, and `flows` UDP CBR flows (200 kbit/s, 1000-byte payloads) between
// random pairs 150 to 350 m apart (two or three hops, whatever the network's size,
// so the work per delivered frame should not grow with it). Routing "auto" by the
// airtime metric, or with --gateway_trees gateway trees rooted at gateways on the
// corners of every 500 m x 500 m cell (counted in the nodes), the flows going up
// to "@gateway". Each node count runs in a child process, so its peak memory is
// its own. Reports per node
// count the set-up time by phase (scenario parse, PHY, routing links, routing, the
// other layers), the run's wall time, events/s, wall time per delivered packet and
// the peak resident memory. A single node count runs in this process (for
// valgrind --tool=massif).
//
// --flows=all: a flow from every station instead (see scale_flows). --down (with
// --gateway_trees): each counted flow's station also gets a flow down from its
// gateway. The city-scale case of issue 43 is
//
//   bench_network --scale 100000 --seconds=10 --gateway_trees --flows=500 --down
//
// 100,000 nodes, 1,000 CBR flows (500 up, 500 down), 10 simulated seconds.
//
//   bench_network --scale [counts=40,400,4000,10000] [--seconds=2] [--flows=16|all] [--gateway_trees [--down]]
//                 [--spatial_order]
//
// --sizes: the size of each object a node or radio holds (issue 43 §3, memory per
// node; docs/performance.md "Memory per node"). Heap blocks they own are massif's.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define WMNSIM_HAVE_VALGRIND_H 1
#endif

#include "core/hilbert_order.hpp"
#include "core/node.hpp"
#include "core/packet_ledger.hpp"
#include "link/drop_tail_queue.hpp"
#include "mac/mac.hpp"
#include "phy/radio.hpp"
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
           const char* reception = nullptr, const char* faint_signals = nullptr) {
  std::vector<double> wall, wall_per_s, events_per_s;
  double goodput = 0.0;
  std::uint64_t events = 0;
  for (int r = 0; r < repetitions; ++r) {
    nlohmann::json doc = read_json_file(file);
    if (seconds > 0) doc["simulation"]["duration_s"] = seconds;
    if (reception != nullptr) doc["phy"]["reception"]["model"] = reception;
    if (faint_signals != nullptr) doc["phy"]["reception"]["faint_signals"] = faint_signals;
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

// ---- --scale -------------------------------------------------------------------

struct ScaleOptions {
  std::vector<int> counts{40, 400, 4000, 10000};
  double seconds = 2.0;
  int flows = 16;
  bool gateway_trees = false;
  bool down = false;  // with gateway_trees: a flow down to each counted flow's station too
  bool spatial_order = false;  // the same nodes listed along a Hilbert curve (spatial_order)
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// The scenario of one node count, before its flows: 004's PHY, propagation and MAC at
// 004's density.
nlohmann::json scale_scenario(int count, double seconds, bool gateway_trees) {
  const nlohmann::json mesh = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/fu2009/mesh40_4gw.json");
  const double side = 500.0 * std::sqrt(count / 40.0);
  nlohmann::json doc;
  doc["name"] = std::string("scale_").append(std::to_string(count));
  doc["simulation"] = {{"duration_s", seconds}, {"seed", 1}, {"measurement_interval_s", seconds}};
  for (const char* key : {"phy", "propagation", "mac"}) doc[key] = mesh[key];
  doc["nodes"] = nlohmann::json::array();
  int stations = count;
  if (gateway_trees) {
    const int cells = std::max(1, static_cast<int>(std::lround(side / 500.0)));
    for (int i = 0; i <= cells; ++i) {
      for (int j = 0; j <= cells; ++j) {
        doc["nodes"].push_back({{"id", std::string("GW").append(std::to_string(i)).append("_").append(std::to_string(j))},
                                {"role", "gateway"},
                                {"position_m", {side * i / cells, side * j / cells}}});
      }
    }
    stations -= (cells + 1) * (cells + 1);  // `count` nodes in all
  }
  doc["node_groups"] = {{{"id_prefix", "n"}, {"placement", "random_uniform"}, {"count", stations},
                         {"area_m", {side, side}}, {"seed", 1}}};
  doc["routing"] = {{"type", gateway_trees ? "gateway_trees" : "auto"}, {"metric", "airtime"}};
  // A placeholder (a scenario needs a flow); scale_flows picks the real ones.
  doc["flows"] = {{{"id", "f"}, {"transport", "udp"}, {"src", "n0"}, {"dst", "n1"}}};
  return doc;
}

// `count` flows between random pairs of mesh nodes 150 to 350 m apart.
nlohmann::json scale_flows(const Scenario& s, int count, bool gateway_trees, bool down) {
  std::vector<std::size_t> mesh;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    if (s.nodes[i].role == NodeRole::mesh) mesh.push_back(i);
  }
  if (count < 0) {
    // --flows=all: 004's pattern, thinned: every station sends 8 kbit/s to its
    // gateway (or to a random node 150-350 m away) and, under gateway trees, its
    // gateway 8 kbit/s to it; the routing then needs a column per station.
    nlohmann::json flows = nlohmann::json::array();
    std::mt19937_64 rng(17);
    for (const std::size_t a : mesh) {
      std::string dst = "@gateway";
      if (!gateway_trees) {
        std::uniform_int_distribution<std::size_t> pick(0, mesh.size() - 1);
        for (int tries = 0; tries < 1000; ++tries) {
          const std::size_t b = mesh[pick(rng)];
          const Position& pa = *s.nodes[a].position;
          const Position& pb = *s.nodes[b].position;
          const double d = std::hypot(pa.x_m - pb.x_m, pa.y_m - pb.y_m);
          if (d >= 150.0 && d <= 350.0) {
            dst = s.nodes[b].id;
            break;
          }
        }
        if (dst == "@gateway") continue;
      }
      const nlohmann::json cbr = {{"type", "cbr"}, {"rate_bps", 8000}};
      flows.push_back({{"id", s.nodes[a].id + "_up"}, {"transport", "udp"}, {"src", s.nodes[a].id},
                       {"dst", dst}, {"payload_bytes", 1000}, {"traffic", cbr}});
      if (gateway_trees) {
        flows.push_back({{"id", s.nodes[a].id + "_down"}, {"transport", "udp"}, {"src", "@gateway"},
                         {"dst", s.nodes[a].id}, {"payload_bytes", 1000}, {"traffic", cbr}});
      }
    }
    return flows;
  }
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<std::size_t> pick(0, mesh.size() - 1);
  nlohmann::json flows = nlohmann::json::array();
  std::set<std::size_t> used;
  const int wanted = gateway_trees && down ? 2 * count : count;
  for (int tries = 0; static_cast<int>(flows.size()) < wanted && tries < 100000; ++tries) {
    const std::size_t a = mesh[pick(rng)], b = mesh[pick(rng)];
    const Position& pa = *s.nodes[a].position;
    const Position& pb = *s.nodes[b].position;
    const double d = std::hypot(pa.x_m - pb.x_m, pa.y_m - pb.y_m);
    if (!gateway_trees && (a == b || d < 150.0 || d > 350.0)) continue;
    if (!used.insert(a).second) continue;
    nlohmann::json f = {{"id", std::string("f").append(std::to_string(flows.size()))}, {"transport", "udp"},
                        {"src", s.nodes[a].id}, {"dst", gateway_trees ? "@gateway" : s.nodes[b].id},
                        {"payload_bytes", 1000}, {"traffic", {{"type", "cbr"}, {"rate_bps", 200000}}}};
    flows.push_back(f);
    if (gateway_trees && down) {
      f["id"] = std::string("d").append(std::to_string(flows.size() - 1));
      f["src"] = "@gateway";
      f["dst"] = s.nodes[a].id;
      flows.push_back(f);
    }
  }
  return flows;
}

// --spatial_order: the same network, nodes, ids and flows, but every node listed
// explicitly in the order of a Hilbert curve over their positions instead of the
// random placement's draw order. Node indices then follow space, and with them
// everything the simulator keeps per index (its nodes, radios and MACs are built
// along space whatever the order: PhyNetwork::node_build_order). This measures how
// much of the cost per event at scale the indices' order still costs (issue 43 §2,
// docs/performance.md "Locality"); the runs differ from the drawn order's by the
// nodes' indices (ties are broken by index), not by the network.
nlohmann::json in_spatial_order(const nlohmann::json& doc) {
  const Scenario s = parse_scenario(doc);
  std::vector<PlanePoint> points;
  for (const NodeConfig& n : s.nodes) points.push_back({n.position->x_m, n.position->y_m});
  nlohmann::json out = doc;
  out.erase("node_groups");
  out["nodes"] = nlohmann::json::array();
  for (const std::uint32_t i : hilbert_order(points)) {
    const NodeConfig& n = s.nodes[i];
    nlohmann::json node = {{"id", n.id}, {"position_m", {n.position->x_m, n.position->y_m}}};
    if (n.role == NodeRole::gateway) node["role"] = "gateway";
    out["nodes"].push_back(node);
  }
  return out;
}

// WMNSIM_MASSIF_AT_END=FILE under valgrind --tool=massif: a detailed snapshot into
// FILE when the run reaches its end, before anything is torn down or the results
// are assembled (issue 43 §3 at 100,000 nodes, where massif's own snapshots, taken
// at its own pace and culled, kept none after set-up in a 41-minute run). Read it
// with bench/massif_breakdown.py FILE --nodes N --groups. One node count at a time:
// with several, each child process would write FILE over the last one's.
std::function<void(const Progress&)> massif_snapshot_at_end() {
#ifdef WMNSIM_HAVE_VALGRIND_H
  const char* file = std::getenv("WMNSIM_MASSIF_AT_END");
  if (file == nullptr || RUNNING_ON_VALGRIND == 0) return {};
  return [command = "detailed_snapshot " + std::string(file)](const Progress& p) {
    if (p.now < p.end) return;
    if (VALGRIND_MONITOR_COMMAND(command.c_str()) != 0) {
      std::fprintf(stderr, "bench_network: valgrind refused '%s' (is the tool massif?)\n", command.c_str());
    }
  };
#else
  if (std::getenv("WMNSIM_MASSIF_AT_END") != nullptr) {
    std::fprintf(stderr, "bench_network: built without valgrind/valgrind.h, WMNSIM_MASSIF_AT_END ignored\n");
  }
  return {};
#endif
}

void scale_one(int count, const ScaleOptions& o) {
  nlohmann::json doc = scale_scenario(count, o.seconds, o.gateway_trees);
  doc["flows"] = scale_flows(parse_scenario(doc), o.flows, o.gateway_trees, o.down);
  if (o.spatial_order) doc = in_spatial_order(doc);
  // Flows some node of which has no route (an isolated node) are left out.
  for (int attempt = 0;; ++attempt) {
    auto start = std::chrono::steady_clock::now();
    Scenario scenario = parse_scenario(doc);
    const double parse_s = seconds_since(start);
    Results res;
    start = std::chrono::steady_clock::now();
    try {
      RunOptions options;
      options.log_level = spdlog::level::off;  // no "delivered nothing" warnings
      options.control.on_progress = massif_snapshot_at_end();
      res = run_scenario(scenario, options);
    } catch (const ScenarioError& e) {
      std::set<std::size_t> bad;
      for (const ValidationIssue& issue : e.issues()) {
        if (issue.path.rfind("/flows/", 0) == 0) bad.insert(std::stoul(issue.path.substr(7)));
      }
      if (bad.empty() || attempt > 3) throw;
      nlohmann::json kept = nlohmann::json::array();
      for (std::size_t i = 0; i < doc["flows"].size(); ++i) {
        if (!bad.contains(i)) kept.push_back(doc["flows"][i]);
      }
      doc["flows"] = kept;
      continue;
    }
    const double total_s = seconds_since(start);
    double setup_s = 0.0;
    std::string phases;
    for (const auto& [name, s] : res.stats.setup_s) {
      setup_s += s;
      char buf[48];
      std::snprintf(buf, sizeof buf, " %9.3f", s);
      phases += buf;
    }
    const std::uint64_t delivered = res.summary["packets"]["delivered"].get<std::uint64_t>();
    const double peak = peak_rss_mb();
    // WMNSIM_BENCH_RESULTS=DIR: each count's results file (DIR/scale_N.json), for the
    // work-per-packet breakdown of bench/scale_breakdown.py (docs/performance.md).
    if (const char* dir = std::getenv("WMNSIM_BENCH_RESULTS")) {
      nlohmann::ordered_json out = res.to_json();
      out["bench"] = {{"events_executed", res.stats.events_executed}, {"wall_time_s", res.stats.wall_time_s}};
      std::ofstream(std::filesystem::path(dir) / ("scale_" + std::to_string(count) + ".json")) << out.dump();
    }
    std::printf("%7zu %5zu %8.3f%s %8.3f %8.3f %10llu %8.2fM %9llu %9.1f %9.1f %8.0f\n", scenario.nodes.size(),
                doc["flows"].size(), parse_s, phases.c_str(), res.stats.wall_time_s, total_s - setup_s - res.stats.wall_time_s,
                static_cast<unsigned long long>(res.stats.events_executed),
                res.stats.events_executed / res.stats.wall_time_s / 1e6, static_cast<unsigned long long>(delivered),
                delivered > 0 ? res.stats.wall_time_s / delivered * 1e6 : 0.0, peak,
                peak * 1024.0 * 1024.0 / static_cast<double>(scenario.nodes.size()));
    return;
  }
}

int scale(const ScaleOptions& o) {
  std::printf("%7s %5s %8s %9s %9s %9s %9s %8s %8s %10s %9s %9s %9s %9s %8s\n", "nodes", "flows", "parse s", "phy s",
              "links s", "route s", "layers s", "run s", "after s", "events", "events/s", "delivered", "us/pkt",
              "peak MB", "B/node");
  std::fflush(stdout);
  if (o.counts.size() == 1) {  // in this process (for valgrind --tool=massif)
    scale_one(o.counts.front(), o);
    return 0;
  }
  for (const int count : o.counts) {
    const pid_t child = fork();
    if (child == 0) {
      try {
        scale_one(count, o);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%d nodes: %s\n", count, e.what());
        std::fflush(nullptr);
        _exit(1);
      }
      std::fflush(nullptr);
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  return 0;
}

// The objects every node or radio holds, with their parts (--sizes).
void print_sizes() {
  const auto row = [](const char* name, std::size_t bytes) { std::printf("%-50s %6zu\n", name, bytes); };
  std::printf("%-50s %6s\n", "object (per radio unless said)", "bytes");
  row("mac::Mac", sizeof(mac::Mac));
  row("  mac::FrameExchange", sizeof(mac::FrameExchange));
  row("  mac::ChannelAccess", sizeof(mac::ChannelAccess));
  row("  mac::BusyTimeMeter", sizeof(mac::BusyTimeMeter));
  row("  mac::AccessClassifier", sizeof(mac::AccessClassifier));
  row("mac::TrafficRecords (heap, once it has traffic)", sizeof(mac::TrafficRecords));
  row("  mac::MacStats", sizeof(mac::MacStats));
  row("  DelayDistribution (x2)", sizeof(DelayDistribution));
  row("  mac::DuplicateFilter", sizeof(mac::DuplicateFilter));
  row("mac::MacContext (shared per radio profile)", sizeof(mac::MacContext));
  row("  mac::MacTiming", sizeof(mac::MacTiming));
  row("mac::AccessFunction (heap, per category)", sizeof(mac::AccessFunction));
  row("  link::DropTailQueue (heap, its queue)", sizeof(link::DropTailQueue));
  row("phy::Radio", sizeof(phy::Radio));
  row("  phy::FrameSuccess", sizeof(phy::FrameSuccess));
  row("  phy::RadioStats", sizeof(phy::RadioStats));
  row("phy::LockedReception (per reception under way)", sizeof(phy::LockedReception));
  row("phy::PhyProfile (the medium's, one per profile)", sizeof(phy::PhyProfile));
  row("phy::ReceptionConfig (the medium's)", sizeof(phy::ReceptionConfig));
  row("NodeConfig (the scenario's, per node)", sizeof(NodeConfig));
  row("RadioConfig (the scenario's)", sizeof(RadioConfig));
  row("  MacParams (shared unless overridden)", sizeof(MacParams));
  row("Node (per node)", sizeof(Node));
  row("DropCounters (ledger, per node)", sizeof(DropCounters));
  row("EventId", sizeof(EventId));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<const char*> args;
  bool scale_series = false;
  ScaleOptions scale_options;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sizes") == 0) {
      print_sizes();
      return 0;
    } else if (std::strcmp(argv[i], "--fingerprint") == 0) {
      g_fingerprint = true;
    } else if (std::strcmp(argv[i], "--scale") == 0) {
      scale_series = true;
    } else if (std::strncmp(argv[i], "--seconds=", 10) == 0) {
      scale_options.seconds = std::atof(argv[i] + 10);
    } else if (std::strncmp(argv[i], "--flows=", 8) == 0) {
      scale_options.flows = std::strcmp(argv[i] + 8, "all") == 0 ? -1 : std::atoi(argv[i] + 8);
    } else if (std::strcmp(argv[i], "--gateway_trees") == 0) {
      scale_options.gateway_trees = true;
    } else if (std::strcmp(argv[i], "--down") == 0) {
      scale_options.down = true;
    } else if (std::strcmp(argv[i], "--spatial_order") == 0) {
      scale_options.spatial_order = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  if (scale_series) {
    if (!args.empty()) {
      scale_options.counts.clear();
      for (std::string list = args[0]; !list.empty();) {
        const std::size_t comma = list.find(',');
        scale_options.counts.push_back(std::atoi(list.substr(0, comma).c_str()));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    }
    return scale(scale_options);
  }
  const int repetitions = args.size() > 0 ? std::atoi(args[0]) : 3;
  const double mesh_seconds = args.size() > 1 ? std::atof(args[1]) : 180.0;
  const std::filesystem::path root = WMNSIM_SOURCE_DIR;
  std::printf("%-34s %8s %10s %14s %13s %12s %10s\n", "scenario", "sim s", "wall s", "wall ms/sim s", "events/s",
              "events", "Mbit/s");
  bench("flagship two_hop_chain_tcp", root / "scenarios/two_hop_chain_tcp.json", repetitions, 120.0);
  bench("fu2009 mesh40_4gw (40+4 nodes)", root / "scenarios/fu2009/mesh40_4gw.json", repetitions, mesh_seconds);
  // The same with every faint signal delivered as events (docs/phy.md "Faint signals").
  bench("  the same, faint signals as events", root / "scenarios/fu2009/mesh40_4gw.json", repetitions, mesh_seconds,
        nullptr, "events");
  bench("cell50 saturated, sinr", root / "scenarios/bench/cell50_saturated.json", repetitions, 21.0, "sinr");
  bench("cell50 saturated, threshold", root / "scenarios/bench/cell50_saturated.json", repetitions, 21.0, "threshold");
  return 0;
}
