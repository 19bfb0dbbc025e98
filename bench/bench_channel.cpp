// Frames through the wireless channel: N radios placed uniformly at the density
// of paper 004 (40 stations on 500 m x 500 m), each sending 1500-byte frames at
// 6 Mbit/s as a Poisson process (no MAC: this measures the PHY and the channel),
// SINR reception with 004's log-distance model. Reports frames/s, the mean
// number of receivers a frame reaches, and the wall time per delivered signal,
// which must stay flat as N grows (a frame costs O(neighbours), not O(N)).
//
// With --setup it measures the PHY set-up instead (issue 17, "scale"): build_phy of
// scenarios/fu2009/mesh40_4gw.json's PHY and propagation (log-distance, 3.65 dB
// per-link shadowing, or none with --no-shadowing) for N radios placed uniformly
// at the same density, reporting the wall time of build_phy, the peak and retained
// resident memory it added, and the bytes of the neighbour lists (Link entries).
// Sizes 40, 400, 4,000 and 10,000; --large adds 100,000.
//
//   bench_channel [--quick] [--nodes N] [--json FILE]
//   bench_channel --setup [--no-shadowing] [--large] [--nodes N]

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "core/simulation.hpp"
#include "phy/airtime.hpp"
#include "phy/medium.hpp"
#include "phy/propagation.hpp"
#include "scenario/phy_builder.hpp"
#include "scenario/scenario.hpp"

namespace {
using namespace wmnsim;
using namespace wmnsim::phy;

struct Sender {
  Medium* medium;
  RadioId id;
  RandomStream* rng;
  const PhyFrame* frame;
  double mean_gap_s;
  void operator()() const {
    Radio& r = medium->radio(id);
    if (!r.transmitting()) r.transmit(*frame);
    medium->simulation().scheduler().schedule_in(Time::from_seconds(rng->exponential(mean_gap_s)), *this, id);
  }
};

struct Row {
  std::size_t nodes;
  double setup_s, frames_per_s, events_per_s, receivers_per_frame, ns_per_signal;
};

Row run(std::size_t n, double simulated_s) {
  Simulation sim(42);
  ReceptionConfig rc;  // sinr, noise -93.5 dBm, cutoff noise - 10 dB
  Medium medium(sim, rc);
  const double side = 500.0 * std::sqrt(static_cast<double>(n) / 40.0);
  RandomStream place = sim.random().stream("placement");
  const PhyProfile profile = profile_80211g();
  for (std::size_t i = 0; i < n; ++i) {
    medium.add_radio(RadioSpec{static_cast<ContextId>(i), Point{place.uniform(0, side), place.uniform(0, side), 0}, 6,
                               PowerDbm(20), profile},
                     sim.random().stream("node", i, "rx_error"));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const LogDistance model{};
  const auto gain = [&](double d) { return model.gain(std::max(d, 1.0)); };
  medium.connect([&](RadioId, RadioId, double d) { return gain(d); },
                 reach_distance_m(gain, PowerDbm(20), medium.delivery_cutoff()));
  const auto t1 = std::chrono::steady_clock::now();

  const Mcs& mcs = *find_mcs(PhyFamily::Ofdm, 6'000'000);
  const PhyFrame frame{1500, &mcs, airtime(profile, mcs, 1500), nullptr};
  std::vector<RandomStream> rngs;
  rngs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) rngs.push_back(sim.random().stream("node", i, "traffic"));
  // Each radio offers 5 % airtime: a busy but not saturated channel.
  const double mean_gap_s = frame.duration.to_seconds() / 0.05;
  for (std::size_t i = 0; i < n; ++i) {
    sim.scheduler().schedule_at(Time::from_seconds(rngs[i].exponential(mean_gap_s)),
                                Sender{&medium, static_cast<RadioId>(i), &rngs[i], &frame, mean_gap_s});
  }
  const auto t2 = std::chrono::steady_clock::now();
  sim.run_until(Time::from_seconds(simulated_s));
  const auto t3 = std::chrono::steady_clock::now();
  const double wall = std::chrono::duration<double>(t3 - t2).count();
  std::uint64_t frames = 0;
  for (std::size_t i = 0; i < n; ++i) frames += medium.radio(static_cast<RadioId>(i)).stats().frames_sent;
  const double signals = static_cast<double>(medium.signals_delivered());
  return Row{n, std::chrono::duration<double>(t1 - t0).count(), static_cast<double>(frames) / wall,
             static_cast<double>(sim.scheduler().executed()) / wall, signals / static_cast<double>(frames),
             wall * 1e9 / signals};
}
// A /proc/self/status field in kB ("VmRSS", "VmHWM"); -1 if unavailable.
long status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + key.size(), nullptr, 10);
  }
  return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0), so the peak of one measurement can be read.
void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

void setup_bench(const std::vector<std::size_t>& sizes, bool shadowing) {
  const nlohmann::json base = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/fu2009/mesh40_4gw.json");
  std::printf("PHY set-up (build_phy): mesh40_4gw's PHY and log-distance propagation, %s, 40 radios per 500 m x 500 m\n",
              shadowing ? "3.65 dB per-link shadowing" : "no shadowing");
  std::printf("%7s %10s %10s %12s %12s %12s %12s %10s\n", "nodes", "build s", "cpu s", "peak MB", "kept MB", "links MB", "B/node+links",
              "links/node");
  Scenario parsed = parse_scenario(base);
  if (!shadowing) parsed.propagation.shadowing.sigma_db = 0.0;
  const NodeConfig station = parsed.nodes.back();
  std::printf("(per radio: Radio %zu B, RadioSpec %zu B; per neighbour: Link %zu B; each size in a fresh process)\n",
              sizeof(phy::Radio), sizeof(phy::RadioSpec), sizeof(phy::Link));
  std::fflush(stdout);
  for (const std::size_t n : sizes) {
    // A fresh process per size, so that memory freed by a smaller size is not reused.
    const pid_t child = fork();
    if (child < 0) {
      std::perror("fork");
      std::exit(1);
    }
    if (child > 0) {
      int status = 0;
      waitpid(child, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(1);
      continue;
    }
    // The file's first gateway and N - 1 stations placed uniformly at random, built
    // here rather than by a node group, which stops at 10,000 nodes (docs/scenario.md, Limits).
    Scenario scenario = parsed;
    scenario.nodes.resize(1);
    const double side = 500.0 * std::sqrt(static_cast<double>(n) / 40.0);
    RandomStream place(7);
    for (std::size_t i = 1; i < n; ++i) {
      NodeConfig node = station;
      char id[24];
      std::snprintf(id, sizeof id, "s%zu", i - 1);
      node.id = id;
      node.position = Position{place.uniform(0, side), place.uniform(0, side), 0.0};
      scenario.nodes.push_back(std::move(node));
    }
    Simulation sim(1);
    reset_peak_rss();
    const long rss0 = status_kb("VmRSS");
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    phy::PhyNetwork net = phy::build_phy(sim, scenario);
    const std::clock_t c1 = std::clock();
    const auto t1 = std::chrono::steady_clock::now();
    const long peak = status_kb("VmHWM"), rss1 = status_kb("VmRSS");
    std::size_t links = 0;
    for (RadioId r = 0; r < net.medium->radio_count(); ++r) links += net.medium->neighbours(r).size();
    const double links_bytes = static_cast<double>(links * sizeof(phy::Link));
    const double kept_bytes = static_cast<double>(rss1 - rss0) * 1024.0;
    std::printf("%7zu %10.3f %10.3f %12.1f %12.1f %12.1f %12.0f %10.1f\n", n, std::chrono::duration<double>(t1 - t0).count(),
                static_cast<double>(c1 - c0) / CLOCKS_PER_SEC,
                static_cast<double>(peak - rss0) / 1024.0, kept_bytes / 1048576.0, links_bytes / 1048576.0,
                (kept_bytes - links_bytes) / static_cast<double>(n), static_cast<double>(links) / static_cast<double>(n));
    std::fflush(stdout);
    std::_Exit(0);
  }
}
}  // namespace

int main(int argc, char** argv) {
  bool quick = false, setup = false, shadowing = true, large = false, sized = false;
  std::string json_path;
  std::vector<std::size_t> sizes{40, 400, 4000};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) json_path = argv[++i];
    else if (std::strcmp(argv[i], "--nodes") == 0 && i + 1 < argc) {
      sizes = {std::strtoull(argv[++i], nullptr, 10)};
      sized = true;
    } else if (std::strcmp(argv[i], "--setup") == 0) setup = true;
    else if (std::strcmp(argv[i], "--no-shadowing") == 0) shadowing = false;
    else if (std::strcmp(argv[i], "--large") == 0) large = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--quick] [--nodes N] [--json FILE]\n"
                   "       %s --setup [--no-shadowing] [--large] [--nodes N]\n",
                   argv[0], argv[0]);
      return 2;
    }
  }
  if (setup) {
    if (!sized) sizes = {40, 400, 4000, 10000};
    if (large) sizes.push_back(100000);
    setup_bench(sizes, shadowing);
    return 0;
  }
  const int repetitions = quick ? 1 : 5;
  std::printf("channel: 004 density (40 per 500 m x 500 m), 1500 B at 6 Mbit/s, 5 %% airtime per radio, SINR reception\n");
  std::printf("%7s %10s %14s %14s %12s %12s\n", "nodes", "setup s", "frames/s", "events/s", "rx/frame", "ns/signal");
  std::string json = "{\"benchmark\": \"channel\", \"results\": [";
  for (const std::size_t n : sizes) {
    // About 200k frames per measurement whatever N is: each radio sends 0.05 / airtime frames/s.
    const double frame_s = airtime(profile_80211g(), *find_mcs(PhyFamily::Ofdm, 6'000'000), 1500).to_seconds();
    const double simulated = (quick ? 40000.0 : 200000.0) / (static_cast<double>(n) * 0.05 / frame_s);
    std::vector<Row> rows;
    for (int r = 0; r < repetitions; ++r) rows.push_back(run(n, simulated));
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.frames_per_s < b.frames_per_s; });
    const Row& m = rows[rows.size() / 2];
    std::printf("%7zu %10.3f %14.3e %14.3e %12.1f %12.1f\n", n, m.setup_s, m.frames_per_s, m.events_per_s,
                m.receivers_per_frame, m.ns_per_signal);
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s{\"nodes\": %zu, \"setup_s\": %.4g, \"frames_per_s\": %.6g, \"events_per_s\": %.6g, "
                  "\"receivers_per_frame\": %.4g, \"ns_per_signal\": %.4g}",
                  n == sizes.front() ? "" : ", ", n, m.setup_s, m.frames_per_s, m.events_per_s, m.receivers_per_frame,
                  m.ns_per_signal);
    json += buf;
  }
  json += "]}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}
