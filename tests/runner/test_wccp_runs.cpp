// WCCP (003) over the air: the shipped 9-node chain (scenarios/zhai_wccp/chain9.json)
// with its one flow as WCCP and as TCP, and what a user of WCCP relies on: the rate
// settles where the bottleneck's busyness holds it, so the queues stay short, the
// MAC drops little and the delay is far below TCP's; every node on the path gives
// feedback; the receiver's ACKs bring it back. The chain runs under the standard's
// deferral here: the shipped scenario defers as ns-2 does (issue 39 Sec. 3), and
// under that emulation WCCP at th_b = 0.92 tips this chain into repeated timeouts
// (docs/reproductions/wccp.md, "ns-2's deferral"), which is a finding about the
// threshold, not the mechanism these tests pin down.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "runner/run_scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

nlohmann::json chain9(double duration_s, const std::string& transport) {
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/zhai_wccp/chain9.json");
  doc["simulation"]["duration_s"] = duration_s;
  doc["flows"][0]["transport"] = transport;
  doc["mac"]["deferral"] = "standard";
  doc["outputs"]["timeseries"] = {"queue_length"};
  return doc;
}

double number(const nlohmann::ordered_json& row, const char* key) { return row.at(key).get<double>(); }

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}

TEST(WccpRuns, ChainKeepsQueuesShortAndDelayBelowTcps) {
  // 30 s: the rate has settled and, in most runs of our model, no queue has yet built
  // up at the bottleneck (it does over minutes: docs/reproductions/wccp.md). In some
  // runs one builds early (3 of seeds 1-10), so the claims are on medians of 5 seeds.
  std::vector<double> wccp_delay, tcp_delay, wccp_queue;
  std::uint64_t wccp_drops = 0, tcp_drops = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    nlohmann::json w_doc = chain9(30, "wccp"), t_doc = chain9(30, "tcp");
    w_doc["simulation"]["seed"] = seed;
    t_doc["simulation"]["seed"] = seed;
    const Results wccp = run_scenario(parse_scenario(w_doc));
    const Results tcp = run_scenario(parse_scenario(t_doc));
    const auto& w = wccp.flows.at(0);
    const auto& t = tcp.flows.at(0);
    wccp_delay.push_back(flow_column::delay_mean_s.of(w));
    tcp_delay.push_back(flow_column::delay_mean_s.of(t));
    // Without losing throughput (003 Sec. IV-A: 209.9 against 194.6 kbit/s).
    EXPECT_GT(flow_column::goodput_bps.of(w), 0.8 * flow_column::goodput_bps.of(t)) << "seed " << seed;
    double sum = 0.0;
    std::size_t n = 0;
    for (const auto& s : wccp.timeseries.at("queue_length").samples) {
      sum += s.value;
      ++n;
    }
    ASSERT_GT(n, 0u);
    wccp_queue.push_back(sum / static_cast<double>(n));
    // The rate settles near the chain's capacity (003 Table I: about 24 packets/s),
    // far from the 1/srtt it starts at and below what TCP pushes.
    const double rate = number(w, "wccp_rate_pps");
    EXPECT_GT(rate, 15.0) << "seed " << seed;
    EXPECT_LT(rate, 35.0) << "seed " << seed;
    EXPECT_GT(w.at("feedback_applied").get<std::uint64_t>(), 500u) << "seed " << seed;
    wccp_drops += flow_column::dropped_packets.of(w);
    tcp_drops += t.at("dropped_packets").get<std::uint64_t>();
  }
  // 003 Sec. IV-A: WCCP's delay 0.0757 s against TCP's 0.1844 s.
  EXPECT_LT(median(wccp_delay), 0.5 * median(tcp_delay));
  // Short queues: the mean over every node and second stays below one packet.
  EXPECT_LT(median(wccp_queue), 1.0);
  EXPECT_LT(wccp_drops, tcp_drops);
}

TEST(WccpRuns, EveryNodeOfThePathGivesFeedbackAndNs2BusynessIsTheHigher) {
  const Results r = run_scenario(parse_scenario(chain9(30, "wccp")));
  ASSERT_EQ(r.controllers.size(), 1u);
  const auto& nodes = controller_column::statistics.cell(r.controllers[0]).at("nodes");
  ASSERT_EQ(nodes.size(), 9u);  // added on every wireless node
  for (const auto& n : nodes) {
    // Every node sees every data packet: originated, forwarded or delivered.
    EXPECT_GT(n.at("packets").get<std::uint64_t>(), 500u) << n.at("node");
    EXPECT_GT(n.at("intervals").get<std::uint64_t>(), 10u) << n.at("node");
  }
  // The source lowers the sender's infinite fb on every packet but the first
  // (r_p = 0: no rate to allocate by, Sec. III-E).
  EXPECT_EQ(nodes[0].at("feedback_lowered").get<std::uint64_t>() + 1, nodes[0].at("packets").get<std::uint64_t>());
  // ns-2's busy time holds the standard's and more (waits for CTS/ACK, EIFS).
  for (const auto& row : r.nodes) {
    EXPECT_GE(mac_column::channel_busyness_ns2.of(row), mac_column::channel_busyness.of(row)) << node_column::id.of(row);
  }
  EXPECT_GT(mac_column::channel_busyness_ns2.of(r.nodes.at(4)), mac_column::channel_busyness.of(r.nodes.at(4)) + 0.01);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
