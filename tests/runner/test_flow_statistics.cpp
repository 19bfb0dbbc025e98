// The FlowMonitor-style per-flow columns, the per-node MAC service delay, partial
// results of a cancelled run, and logging that does not change what a run does.

#include <set>
#include <sstream>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "core/input_error.hpp"
#include "runner/run_scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// The flagship: two TCP uploads over a hidden-node chain (A -> B -> GW and
// B -> GW); in a few seconds TCP retransmits, MACs retry and drop, and packets
// are still queued at the end. Its TCP ACKs must stay out of the data counts.
nlohmann::json flagship(double duration_s) {
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json");
  doc["simulation"]["duration_s"] = duration_s;
  return doc;
}

// Two UDP flows over a two-hop chain with a short relay queue (B's own flow
// keeps it full): packets are dropped on overflow.
nlohmann::json lossy_chain(double duration_s) {
  auto doc = test::minimal_scenario();
  doc["simulation"]["duration_s"] = duration_s;
  doc["phy"]["data_rate_bps"] = 2e6;
  doc["nodes"][1]["position_m"] = {180, 0};
  doc["nodes"][2]["position_m"] = {360, 0};
  doc["nodes"][1]["mac"] = {{"queue", {{"capacity_packets", 2}}}};
  doc["flows"][0]["transport"] = "udp";
  doc["flows"].push_back({{"id", "f2"}, {"transport", "udp"}, {"src", "B"}, {"dst", "GW"}});
  return doc;
}

std::uint64_t u(const nlohmann::ordered_json& row, const char* key) { return row.at(key).get<std::uint64_t>(); }

TEST(FlowStatistics, CountsBalanceAndDelaysAreOrdered) {
  const Results r = run_scenario(parse_scenario(flagship(10)));
  ASSERT_EQ(r.flows.size(), 2u);
  ASSERT_EQ(r.flow_delay_histograms.size(), 2u);
  std::uint64_t lost = 0;
  for (std::size_t i = 0; i < r.flows.size(); ++i) {
    const auto& f = r.flows[i];
    SCOPED_TRACE(f.at("id").get<std::string>());
    // Every data packet sent is delivered, lost, or still in the network.
    EXPECT_GT(u(f, "tx_packets"), 0u);
    EXPECT_LE(u(f, "rx_packets"), u(f, "tx_packets"));
    EXPECT_EQ(u(f, "tx_packets"), u(f, "rx_packets") + u(f, "lost_packets") + u(f, "in_network_packets"));
    EXPECT_EQ(u(f, "rx_packets"), u(f, "delivered_packets"));
    EXPECT_EQ(u(f, "tx_packets"), u(f, "sent_packets"));  // data segments, retransmissions included
    // Full-size segments (bulk transfer): bytes are packets times one size.
    EXPECT_EQ(u(f, "tx_bytes") % u(f, "tx_packets"), 0u);
    EXPECT_EQ(u(f, "rx_bytes") * u(f, "tx_packets"), u(f, "tx_bytes") * u(f, "rx_packets"));
    lost += u(f, "lost_packets");
    // Drops by cause add up to the flow's drops (FlowMonitor's packetsDropped by reason).
    std::uint64_t by_cause = 0;
    for (const char* c : {"drops_retry_limit", "drops_queue_overflow", "drops_queue_early_drop", "drops_rate_limit",
                          "drops_no_route", "drops_ttl_expired", "drops_lifetime_expired", "drops_false_duplicate"}) {
      by_cause += u(f, c);
    }
    EXPECT_EQ(by_cause, u(f, "dropped_packets"));
    // Delays: nearest-rank percentiles are delays some packet had, in order.
    const double p50 = flow_column::delay_p50_s.of(f), p95 = flow_column::delay_p95_s.of(f),
                 p99 = flow_column::delay_p99_s.of(f), max = flow_column::delay_max_s.of(f);
    EXPECT_GT(p50, 0.0);
    EXPECT_LE(p50, p95);
    EXPECT_LE(p95, p99);
    EXPECT_LE(p99, max);
    EXPECT_GE(flow_column::jitter_s.of(f), 0.0);
    // The histogram holds every delay measured in the window, 1 ms bins, and its
    // last bin is the maximum's.
    const auto& h = r.flow_delay_histograms[i];
    EXPECT_EQ(h.at("flow"), f.at("id"));
    EXPECT_DOUBLE_EQ(h.at("bin_width_s").get<double>(), 0.001);
    // Sparse [bin, count] pairs: bins ascending, no empty bin written.
    std::uint64_t in_histogram = 0;
    std::int64_t previous = -1;
    for (const auto& b : h.at("bins")) {
      EXPECT_GT(b.at(0).get<std::int64_t>(), previous);
      previous = b.at(0).get<std::int64_t>();
      EXPECT_GT(b.at(1).get<std::uint64_t>(), 0u);
      in_histogram += b.at(1).get<std::uint64_t>();
    }
    EXPECT_GT(in_histogram, 0u);
    EXPECT_LE(in_histogram, u(f, "rx_packets"));
    EXPECT_EQ(previous, static_cast<std::int64_t>(max / 0.001));
  }
  EXPECT_GT(lost, 0u) << "the hidden-node chain should lose packets at the retry limit";
  // MAC service delay: positive at the radios that sent, ordered.
  for (const auto& n : r.nodes) {
    if (n.at("id") == "GW") continue;  // sends only ACKs
    SCOPED_TRACE(n.at("id").get<std::string>());
    const double mean = n.at("mac_service_delay_mean_s").get<double>();
    const double p50 = n.at("mac_service_delay_p50_s").get<double>();
    const double p99 = n.at("mac_service_delay_p99_s").get<double>();
    EXPECT_GT(mean, 0.0);
    EXPECT_LE(p50, n.at("mac_service_delay_p95_s").get<double>());
    EXPECT_LE(n.at("mac_service_delay_p95_s").get<double>(), p99);
  }
  EXPECT_FALSE(r.stats.partial);
  EXPECT_FALSE(r.to_json()["run"]["partial"].get<bool>());
}

TEST(PartialResults, ACancelledRunReportsWhatItMeasuredUpToTheStop) {
  auto doc = flagship(100);
  doc["simulation"]["warmup_s"] = 1;
  const Scenario s = parse_scenario(doc);
  std::atomic<bool> cancel{false};
  RunOptions options;
  options.fingerprint = true;
  options.control.cancel = &cancel;
  options.control.progress_period_s = 0.0;  // called after every slice of events
  options.control.on_progress = [&](const Progress& p) {
    if (p.now >= Time::s(5)) cancel.store(true);
  };
  const Results r = run_scenario(s, options);
  ASSERT_TRUE(r.stats.interrupted);
  ASSERT_TRUE(r.stats.partial);
  const double stop = r.stats.simulated.to_seconds();
  ASSERT_GE(stop, 5.0);
  ASSERT_LT(stop, 100.0);
  const nlohmann::ordered_json j = r.to_json();
  EXPECT_TRUE(j["run"]["partial"].get<bool>());
  EXPECT_TRUE(j["run"]["interrupted"].get<bool>());
  ASSERT_EQ(r.flows.size(), 2u);
  ASSERT_EQ(r.nodes.size(), 3u);
  // The packet balance holds at the arbitrary stop (run_scenario throws if not).
  const auto& packets = summary_column::packets.cell(r.summary);
  EXPECT_EQ(u(packets, "originated"),
            u(packets, "delivered") + u(packets, "dropped") + u(packets, "in_network"));
  // Goodput over the window clipped to the stop, [1 s, stop): the bits delivered
  // in it, so that a partial run's goodput is of the same order as a full run's,
  // not diluted by the 25 s that never ran. Bits delivered up to the stop bound it:
  double total = 0.0;
  for (const auto& f : r.flows) {
    const double goodput = flow_column::goodput_bps.of(f);
    EXPECT_GT(goodput, 0.0);
    EXPECT_LE(goodput * (stop - 1.0), 8.0 * static_cast<double>(u(f, "rx_bytes")) + 1e-6);
    EXPECT_EQ(u(f, "tx_packets"), u(f, "rx_packets") + u(f, "lost_packets") + u(f, "in_network_packets"));
    total += goodput;
  }
  // The same scenario run for exactly as long, uninterrupted, measured the same
  // thing: its goodput over [1 s, its end) is what the partial run reports.
  auto same = doc;
  same["simulation"]["duration_s"] = stop;
  const Results full = run_scenario(parse_scenario(same));
  ASSERT_FALSE(full.stats.partial);
  // (Within one datagram: the cancelled run may have run events at the stop's own
  // instant that a run ending there leaves out, and the stop goes through a double.)
  const double one_datagram_bps = 8.0 * 1600 / (stop - 1.0);  // one 1460-byte segment, rounded up
  for (std::size_t i = 0; i < r.flows.size(); ++i) {
    EXPECT_NEAR(flow_column::goodput_bps.of(r.flows[i]), flow_column::goodput_bps.of(full.flows[i]),
                one_datagram_bps);
  }
  EXPECT_NEAR(summary_column::total_goodput_bps.of(r.summary), total, 1e-9 * total);
}

// mac.queue_lifetime_rule "ns3" (the preset's) with saturated sources: a frame that
// expires in service left its queue when taken, so its source's backlog counts it out
// once, and each source keeps its two packets queued (one more per expiry before); and
// under dequeue "after_exchange" the packet the refill hands the MAC during the drop is
// served, not lost (run_scenario throws when the packet balance breaks).
TEST(FlowStatistics, ExpiriesInServiceKeepEachSaturatedBacklogAtItsTarget) {
  for (const char* dequeue : {"at_access", "after_exchange"}) {
    nlohmann::json doc =
        read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/bench/cell50_saturated.json");
    doc["compat"] = "ns3";
    doc["simulation"]["duration_s"] = 6;
    doc["mac"]["dequeue"] = dequeue;
    const Results r = run_scenario(parse_scenario(doc));
    std::uint64_t in_service = 0;
    for (const auto& radio : r.radios) in_service += u(radio, "drops_lifetime_in_service");
    EXPECT_GT(in_service, 100u) << dequeue;  // the rule's drops happened (about 250 in 6 s)
    // At most two packets queued and one in service for each of the 50 flows.
    const auto& packets = summary_column::packets.cell(r.summary);
    EXPECT_LE(u(packets, "in_network"), 150u) << dequeue;
    EXPECT_EQ(u(packets, "originated"), u(packets, "delivered") + u(packets, "dropped") + u(packets, "in_network"));
  }
}

TEST(Logging, ATraceRunHasTheSameFingerprintAsASilentOne) {
  const Scenario s = parse_scenario(lossy_chain(1));
  RunOptions off;
  off.fingerprint = true;
  off.log_level = spdlog::level::off;
  RunOptions trace = off;
  trace.log_level = spdlog::level::trace;
  const Results quiet = run_scenario(s, off);
  testing::internal::CaptureStderr();
  const Results loud = run_scenario(s, trace);
  const std::string lines = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(quiet.stats.fingerprint && loud.stats.fingerprint);
  EXPECT_EQ(quiet.stats.fingerprint->hex(), loud.stats.fingerprint->hex());
  EXPECT_EQ(quiet.stats.events_executed, loud.stats.events_executed);
  // What happened is there, with the node and the simulated time.
  EXPECT_NE(lines.find("] A mac A: data sent to B"), std::string::npos) << lines.substr(0, 2000);
  EXPECT_NE(lines.find("backoff"), std::string::npos);
  EXPECT_NE(lines.find("received from"), std::string::npos);
  EXPECT_NE(lines.find("drop (queue_overflow)"), std::string::npos);
  EXPECT_NE(lines.find("s #"), std::string::npos);  // "[name 0.001234567s #1]"
  // Frame lines carry the packet and flow ids the event trace has (docs/traces.md):
  // A sends only flow 0's packets; B its own flow 1's (and any of flow 0's it forwards).
  // (Parsed by hand: <regex> trips GCC 12's -Wmaybe-uninitialized under the sanitizers.)
  std::set<std::pair<std::string, std::string>> flows_by_sender;
  std::size_t frames = 0;
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) {
    for (const std::string sender : {"A", "B"}) {
      if (line.find("] " + sender + " mac ") == std::string::npos || line.find(": data sent to ") == std::string::npos) {
        continue;
      }
      const std::size_t pkt = line.find(", pkt "), flow = line.find(", flow ");
      ASSERT_TRUE(pkt != std::string::npos && flow != std::string::npos && pkt < flow) << line;
      ++frames;
      EXPECT_GT(std::stoull(line.substr(pkt + 6)), 0u) << line;
      flows_by_sender.insert({sender, std::to_string(std::stoll(line.substr(flow + 7)))});
    }
  }
  EXPECT_GT(frames, 10u);
  EXPECT_TRUE(flows_by_sender.contains({"A", "0"}) && flows_by_sender.contains({"B", "1"}));
  for (const auto& [sender, flow] : flows_by_sender) EXPECT_TRUE(flow == "0" || (sender == "B" && flow == "1"));
}

TEST(Logging, LogNodesKeepsOnlyThoseNodesLines) {
  const Scenario s = parse_scenario(lossy_chain(0.2));
  RunOptions options;
  options.log_level = spdlog::level::debug;
  options.log_nodes = {"GW"};
  testing::internal::CaptureStderr();
  run_scenario(s, options);
  const std::string lines = testing::internal::GetCapturedStderr();
  EXPECT_NE(lines.find("] GW mac GW: ack sent to"), std::string::npos) << lines.substr(0, 2000);
  EXPECT_EQ(lines.find("] A "), std::string::npos);
  EXPECT_EQ(lines.find("] B "), std::string::npos);
  options.log_nodes = {"nowhere"};
  EXPECT_THROW(run_scenario(s, options), ScenarioError);
}

TEST(Logging, ControllerActionsAtTheStartAreLoggedUnderTheirNode) {
  // counter_starvation raises the window of the gateway's one-hop neighbour (B)
  // while the network is built, before the first event.
  auto doc = flagship(0.01);
  doc["controllers"] = nlohmann::json::array({{{"type", "counter_starvation"}}});
  RunOptions options;
  options.log_level = spdlog::level::debug;
  options.log_nodes = {"B"};
  testing::internal::CaptureStderr();
  run_scenario(parse_scenario(doc), options);
  const std::string lines = testing::internal::GetCapturedStderr();
  EXPECT_NE(lines.find("] B controller"), std::string::npos) << lines.substr(0, 2000);
  EXPECT_NE(lines.find("next to gateway GW: CWmin 32 -> "), std::string::npos) << lines.substr(0, 2000);
  EXPECT_EQ(lines.find("] A "), std::string::npos);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
