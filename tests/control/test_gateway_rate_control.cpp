// 001's gateway rate control (control/gateway_rate_control.hpp) on its own
// scenarios: the shapers hold each class to its share, the work-conserving FIFO
// lets the 3-hop flow starve where per-flow limiting does not (001 Fig. 3, Tables
// 1-2), and the aggregate limit follows the flows that are active (Sec. 5.3.3).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <vector>
#include <string>
#include <utility>

#include "analysis/capacity_report.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

nlohmann::json jamshaid(const std::string& file) {
  return read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/jamshaid" / file);
}

Results parking_lot(const std::string& scheme, double fair_rate_bps, double seconds) {
  nlohmann::json doc = jamshaid("chain_1mbps.json");
  doc["simulation"]["duration_s"] = seconds;
  doc["simulation"]["warmup_s"] = 5;
  doc["controllers"][0]["scheme"] = scheme;
  doc["controllers"][0]["fair_rate_bps"] = fair_rate_bps;
  return run_scenario(parse_scenario(doc));
}

TEST(GatewayRateControl, PerFlowLimitHoldsEachSubscriberToItsShare) {
  const double share = 60000;
  const Results r = parking_lot("per_flow_rate_limit", share, 40);
  ASSERT_EQ(r.flows.size(), 3u);
  for (const auto& f : r.flows) {
    // The share is a goodput rate: the bucket lets whole IP packets through at
    // share x 1040 / 1000 (TCP/IP headers on 1000-byte segments).
    const double goodput = flow_column::goodput_bps.of(f);
    EXPECT_LE(goodput, share * 1.02) << flow_column::id.of(f);
    EXPECT_GE(goodput, share * 0.85) << flow_column::id.of(f);
  }
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  EXPECT_EQ(stats["scheme"], "per_flow_rate_limit");
  EXPECT_EQ(stats["classify"], "subscriber");
  ASSERT_EQ(stats["classes"].size(), 3u);
  EXPECT_EQ(stats["classes"][0]["class"], "n1");
  EXPECT_EQ(stats["classes"][0]["share_bps"], share);
  EXPECT_EQ(stats["classes"][0]["data_arrival_rate_bps"].size(), 40u);  // one per second
}

TEST(GatewayRateControl, TheSharedBufferSizeReachesOnlyTheSchemesThatHaveOne) {
  // Issue 38 runs Tables 1-2 with ns-2's 50-packet gateway buffer beside the scenarios' 25
  // only for the schemes with a shared buffer: the per-class ones keep each class in its
  // own buffer (per_flow_buffer_packets), so buffer_packets must leave their runs alone.
  const auto goodputs = [](const std::string& scheme, int buffer_packets) {
    nlohmann::json doc = jamshaid("chain_1mbps.json");
    doc["simulation"]["duration_s"] = 30;
    doc["controllers"][0]["scheme"] = scheme;
    doc["controllers"][0]["fair_rate_bps"] = 125000;
    doc["controllers"][0]["buffer_packets"] = buffer_packets;
    // Three classes of 10 could hold 30 packets, more than 25: a shared bound would bind.
    doc["controllers"][0]["per_flow_buffer_packets"] = 10;
    std::vector<double> out;
    for (const auto& f : run_scenario(parse_scenario(doc)).flows) out.push_back(flow_column::goodput_bps.of(f));
    return out;
  };
  for (const std::string scheme : {"fq", "aggregate_rate_limit_fq", "per_flow_rate_limit"}) {
    EXPECT_EQ(goodputs(scheme, 25), goodputs(scheme, 50)) << scheme;
  }
  // The check can fail: a drop-tail FIFO of 25 packets overflows under three 20-packet windows.
  EXPECT_NE(goodputs("fifo", 25), goodputs("fifo", 50));
}

TEST(GatewayRateControl, FifoStarvesTheThreeHopFlowAndPerFlowLimitingDoesNot) {
  // 001 Fig. 3 and Table 1: a shared FIFO leaves n3's flow a small fraction of the
  // others'; per-flow rate limiting at the fair share (125 kbit/s) evens them out.
  const Results fifo = parking_lot("fifo", 125000, 60);
  const Results limited = parking_lot("per_flow_rate_limit", 125000, 60);
  EXPECT_LT(summary_column::jain_fairness_index.of(fifo.summary), 0.8);
  EXPECT_GT(summary_column::jain_fairness_index.of(limited.summary), 0.97);
  EXPECT_LT(flow_column::goodput_bps.of(fifo.flows[2]), 0.3 * flow_column::goodput_bps.of(fifo.flows[0]));
}

TEST(GatewayRateControl, FredAtTheGatewayDoesNotSaveTheThreeHopFlow) {
  // 001 Sec. 5.2, Fig. 3-4: FRED drops some of f1's and f2's packets (here at its
  // per-flow limit, maxq = min_th = 5, with 25 places free), but n3's ACKs still
  // collide and its flow starves; its data arrival rate into the gateway queue
  // falls away (Fig. 4).
  const Results r = parking_lot("fred", 125000, 60);
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  EXPECT_EQ(stats["scheme"], "fred");
  EXPECT_GT(stats["classes"][0]["drops"].value("queue_overflow", 0), 0);
  EXPECT_GT(stats["classes"][1]["drops"].value("queue_overflow", 0), 0);
  // FRED's split: the per-flow cap and the full buffer are both queue_overflow,
  // the early drops queue_early_drop; here all at the per-flow cap.
  for (const auto& c : stats["classes"]) {
    const auto& split = c["fred_drops"];
    EXPECT_EQ(split["per_flow_cap"].get<int>() + split["full_buffer"].get<int>(), c["drops"].value("queue_overflow", 0));
    EXPECT_EQ(split["early"].get<int>(), c["drops"].value("queue_early_drop", 0));
  }
  EXPECT_GT(stats["classes"][0]["fred_drops"]["per_flow_cap"].get<int>(), 0);
  EXPECT_EQ(stats["classes"][0]["fred_drops"]["full_buffer"], 0);
  // Other schemes have no such split.
  EXPECT_FALSE(controller_column::statistics.cell(parking_lot("fq", 125000, 10).controllers.at(0))["classes"][0]
                   .contains("fred_drops"));
  EXPECT_LT(flow_column::goodput_bps.of(r.flows[2]), 0.3 * flow_column::goodput_bps.of(r.flows[1]));
  const auto& f3 = stats["classes"][2]["data_arrival_rate_bps"];
  EXPECT_LT(f3.back().get<double>(), stats["classes"][0]["data_arrival_rate_bps"].back().get<double>());
}

TEST(GatewayRateControl, QueuedAtEndCountsThePacketsOfEveryClassKeepingDiscipline) {
  // Three downstream TCP windows of 20 segments keep the gateway's 25-packet buffer
  // backlogged: at the end each discipline that keeps classes holds some of them.
  for (const char* scheme : {"fq", "fred", "per_flow_rate_limit"}) {
    const Results r = parking_lot(scheme, 125000, 30);
    std::size_t queued = 0;
    for (const auto& c : controller_column::statistics.cell(r.controllers.at(0))["classes"]) queued += c["queued_at_end"].get<std::size_t>();
    EXPECT_GT(queued, 0u) << scheme;
    EXPECT_LE(queued, 25u) << scheme;
  }
}

TEST(GatewayRateControl, SourceRateLimitPacesUpstreamFlowsAtTheirSources) {
  // 001 Table 2's "source rate limit": upstream TCP flows paced at their mesh
  // routers to the fair share; the gateway keeps its FIFO.
  nlohmann::json doc = jamshaid("chain_1mbps.json");
  doc["simulation"]["duration_s"] = 60;
  doc["simulation"]["warmup_s"] = 5;
  for (auto& f : doc["flows"]) std::swap(f["src"], f["dst"]);
  doc["controllers"][0]["scheme"] = "source_rate_limit";
  doc["controllers"][0]["fair_rate_bps"] = 100000;
  const Results r = run_scenario(parse_scenario(doc));
  for (const auto& f : r.flows) {
    EXPECT_LE(flow_column::goodput_bps.of(f), 100000 * 1.02) << flow_column::id.of(f);
  }
  EXPECT_GT(summary_column::jain_fairness_index.of(r.summary), 0.97);
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  EXPECT_EQ(stats["classes"][2]["class"], "n3");
}

// 001 Sec. 5.3.3's chain with the stops brought forward: five subscribers until
// 20 s, then n1's and n5's flows stop; 0->7 stops at 25 s. Steady UDP sources (a
// packet every 0.2 s), so that silence means stopped (a TCP flow in a
// retransmission timeout is silent too, and 1 s is then too short a timeout: 001
// asks for a function of delay and jitter). Aggregate limit, 30 kbit/s per class.
nlohmann::json stopping_chain() {
  nlohmann::json doc = jamshaid("chain7_short_lived.json");
  doc["simulation"]["duration_s"] = 35;
  for (auto& f : doc["flows"]) {
    f["transport"] = "udp";
    f["payload_bytes"] = 500;
    f["traffic"] = {{"type", "cbr"}, {"rate_bps", 20000}};
  }
  doc["flows"][0]["stop_s"] = 20;
  doc["flows"][1]["stop_s"] = 20;
  doc["flows"][2]["stop_s"] = 25;
  doc["controllers"][0]["scheme"] = "aggregate_rate_limit";
  doc["controllers"][0]["fair_rate_bps"] = 30000;
  doc["controllers"][0].erase("flow_idle_timeout_s");
  return doc;
}

TEST(GatewayRateControl, TheAggregateLimitFollowsTheActiveClasses) {
  // The fixed timeout of 1 s (its default).
  const Results r = run_scenario(parse_scenario(stopping_chain()));
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  const auto& series = stats["aggregate_rate_series_bps"];  // at the end of each second
  ASSERT_EQ(series.size(), 35u);
  // Shares are goodput; the bucket counts 528-byte UDP/IP packets for 500 of payload.
  const double share = 30000.0 * 528 / 500;
  EXPECT_DOUBLE_EQ(series[15], 5 * share);
  // Silent for 1 s, found within 1.25 s: by 22 s three are left, by 27 s two.
  EXPECT_DOUBLE_EQ(series[22], 3 * share);
  EXPECT_DOUBLE_EQ(series[27], 2 * share);
  EXPECT_DOUBLE_EQ(stats["aggregate_rate_bps"], 2 * share);
}

TEST(GatewayRateControl, IdleTimeoutInPacketIntervalsScalesWithTheShare) {
  // The timeout is a count of packet intervals at the class's share: halving the
  // share doubles it. 4 intervals of a 528-byte packet at 30 kbit/s x 528/500 are
  // 0.53 s of silence, found within 1.25 of it: by 21 s three classes are left
  // (the 1-s timeout takes until 22 s), by 26 s two.
  nlohmann::json doc = stopping_chain();
  doc["controllers"][0]["flow_idle_timeout_intervals"] = 4;
  const auto run = [&](double share_bps) {
    doc["controllers"][0]["fair_rate_bps"] = share_bps;
    const Results r = run_scenario(parse_scenario(doc));
    return controller_column::statistics.cell(r.controllers.at(0));
  };
  const auto stats = run(30000);
  const auto& series = stats["aggregate_rate_series_bps"];
  ASSERT_EQ(series.size(), 35u);
  const double share = 30000.0 * 528 / 500;
  EXPECT_DOUBLE_EQ(series[15], 5 * share);  // a CBR packet every 0.2 s keeps each active
  EXPECT_DOUBLE_EQ(series[20], 3 * share);
  EXPECT_DOUBLE_EQ(series[25], 2 * share);
  EXPECT_EQ(stats["activity_changes"], 8);  // 5 on, 3 off: no flapping
  // Half the share: 4 intervals are 1.07 s, so at 21 s all five are still active,
  // and by 22 s (within 1.07 x 1.25 s of the stop) three are left.
  const auto half = run(15000);
  const auto& slow = half["aggregate_rate_series_bps"];
  const double half_share = 15000.0 * 528 / 500;
  EXPECT_DOUBLE_EQ(slow[20], 5 * half_share);
  EXPECT_DOUBLE_EQ(slow[21], 3 * half_share);
  EXPECT_EQ(half["activity_changes"], 8);
  // 1.5 intervals: at 30 kbit/s 0.2 s, no longer than the CBR gap (0.2 s), so the
  // classes flap; at half the share, 0.4 s, they do not.
  doc["controllers"][0]["flow_idle_timeout_intervals"] = 1.5;
  EXPECT_GT(run(30000)["activity_changes"].get<int>(), 100);
  EXPECT_EQ(run(15000)["activity_changes"], 8);
}

TEST(GatewayRateControl, IdleTimeoutInPacketIntervalsKeepsTheFixedOneForAnUnboundedClass) {
  // A flow from the Internet host to the gateway itself crosses no wireless link:
  // the model leaves it unbounded, so it has no packet interval to count. It keeps
  // the fixed 1-s timeout instead of one interval at the bucket's largest rate (a
  // microsecond: marked idle between any two packets, a look every microsecond).
  nlohmann::json doc = jamshaid("chain_1mbps.json");
  doc["simulation"]["duration_s"] = 4;
  doc["simulation"]["warmup_s"] = 1;
  doc["flows"] = {{{"id", "wired"}, {"transport", "udp"}, {"src", "internet"}, {"dst", "n0"},
                   {"payload_bytes", 500}, {"stop_s", 2.0},
                   {"traffic", {{"type", "cbr"}, {"rate_bps", 40000}}}}};  // a packet every 0.1 s
  doc["controllers"][0]["flow_idle_timeout_intervals"] = 4;
  const Results r = run_scenario(parse_scenario(doc));
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  ASSERT_EQ(stats["classes"].size(), 1u);
  // Active from its first packet to 1-1.25 s after its last: on once, off once.
  EXPECT_EQ(stats["activity_changes"], 2);
  EXPECT_FALSE(stats["classes"][0]["active"].get<bool>());
  EXPECT_LT(r.stats.events_executed, 10000u);
}

TEST(GatewayRateControl, OfflineSharesFollowTheScenariosStartsAndStopsOnly) {
  // share_mode offline: the classes the scenario declares sending, whatever the
  // traffic. Each stop takes effect at its own second, not after a timeout.
  nlohmann::json doc = stopping_chain();
  doc["controllers"][0]["share_mode"] = "offline";
  // Sources far below their share: activity would see them; offline ignores it.
  for (auto& f : doc["flows"]) f["traffic"]["rate_bps"] = 400;
  const Results r = run_scenario(parse_scenario(doc));
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  EXPECT_EQ(stats["share_mode"], "offline");
  const auto& series = stats["aggregate_rate_series_bps"];  // at 1 s, 2 s, ...
  const double share = 30000.0 * 528 / 500;
  EXPECT_DOUBLE_EQ(series[0], 5 * share);
  EXPECT_DOUBLE_EQ(series[18], 5 * share);  // 19 s
  EXPECT_DOUBLE_EQ(series[20], 3 * share);  // 21 s: the stops at 20 s, not a timeout later
  EXPECT_DOUBLE_EQ(series[25], 2 * share);  // 26 s
  EXPECT_EQ(stats["activity_changes"], 8);
}

TEST(GatewayRateControl, OfflineModelSharesAreTheModelsForTheDeclaredFlows) {
  // The capacity model's shares for the flows sending in each interval of 001
  // Sec. 5.3.3's chain, set as each interval begins (here before any packet): at
  // every report, each class (one flow each) holds the model's share for the flows
  // the scenario declares sending then (`wmnsim model capacity --at`), 0 if silent.
  nlohmann::json doc = jamshaid("chain7_short_lived.json");
  doc["simulation"]["duration_s"] = 5;
  // Brought forward, between the reports (each second): 1->0 and 0->5 stop at
  // 1.5 s, 0->7 at 2.5 s; the returns start at 3.5 s.
  doc["flows"][0]["stop_s"] = 1.5;
  doc["flows"][1]["stop_s"] = 1.5;
  doc["flows"][2]["stop_s"] = 2.5;
  doc["flows"][5]["start_s"] = 3.5;
  doc["flows"][6]["start_s"] = 3.5;
  doc["controllers"][0] = {{"type", "gateway_rate_control"}, {"gateway", "n0"},
                           {"scheme", "per_flow_rate_limit"}, {"classify", "flow"}, {"share_mode", "offline"}};
  const Scenario scenario = parse_scenario(doc);
  const Results r = run_scenario(scenario);
  const auto& stats = controller_column::statistics.cell(r.controllers.at(0));
  const auto& classes = stats["classes"];
  ASSERT_EQ(classes.size(), 7u);
  for (int k = 0; k < 5; ++k) {
    const double t = k + 1.0;  // the report's time
    CapacityReportOptions at;
    at.at = Time::from_seconds(t);
    const auto model = capacity_report(scenario, at);
    for (std::size_t i = 0; i < classes.size(); ++i) {
      ASSERT_EQ(classes[i]["flows"][0], model["flows"][i]["id"]);
      const double expected = model["flows"][i]["active"].get<bool>()
                                  ? model["flows"][i]["collision_domain_bps"].get<double>()
                                  : 0.0;  // inactive: the series says 0
      EXPECT_DOUBLE_EQ(classes[i]["share_series_bps"].at(k).get<double>(), expected) << "class " << i << " at " << t;
    }
  }
  // The intervals differ: five flows, then two, then four.
  EXPECT_GT(classes[3]["share_series_bps"].at(2).get<double>(), classes[3]["share_series_bps"].at(0).get<double>());
  EXPECT_LT(classes[3]["share_series_bps"].at(3).get<double>(), classes[3]["share_series_bps"].at(2).get<double>());
}

TEST(GatewayRateControl, PerFlowLimitNeverPutsAFlowAboveItsCapByMoreThanTheBucket) {
  // Upstream saturated UDP from the parking lot's three subscribers; per-flow
  // limiting shapes their data on the gateway's wired link. Over the window T, the
  // bucket lets through at most its depth plus the token rate times T (plus the
  // link's delay D behind it): goodput <= cap (1 + D/T) + 8 depth / (T packet/payload).
  nlohmann::json doc = jamshaid("chain_1mbps.json");
  doc["simulation"]["duration_s"] = 45;
  doc["simulation"]["warmup_s"] = 5;
  for (auto& f : doc["flows"]) {
    std::swap(f["src"], f["dst"]);
    f["transport"] = "udp";
    f.erase("tcp");
    f["traffic"] = {{"type", "saturated"}};
  }
  doc["controllers"][0]["share_mode"] = "offline";
  const double window_s = 40, delay_s = 0.003, depth_bytes = 1500, packet_per_payload = 1028.0 / 1000;
  const auto over_cap = [&](const Results& r, const nlohmann::ordered_json& caps_from) {
    std::size_t over = 0;
    const auto& classes = controller_column::statistics.cell(caps_from)["classes"];
    for (std::size_t i = 0; i < r.flows.size(); ++i) {
      const double cap = classes.at(i)["share_bps"].get<double>();
      const double bound = cap * (1 + delay_s / window_s) + 8 * depth_bytes / (packet_per_payload * window_s);
      if (flow_column::goodput_bps.of(r.flows[i]) > bound) ++over;
    }
    return over;
  };
  const Results offline = run_scenario(parse_scenario(doc));
  EXPECT_EQ(over_cap(offline, offline.controllers.at(0)), 0u);
  // The 1-hop subscriber fills what its cap leaves (shaping works, it is not idle).
  EXPECT_GT(flow_column::goodput_bps.of(offline.flows[0]),
            0.95 * controller_column::statistics.cell(offline.controllers.at(0))["classes"][0]["share_bps"].get<double>());
  // The check can fail: activity-driven shares with a timeout shorter than a
  // class's packet gaps hand the idle-looking classes' shares to the others.
  doc["controllers"][0]["share_mode"] = "activity";
  doc["controllers"][0]["flow_idle_timeout_s"] = 0.005;
  const Results activity = run_scenario(parse_scenario(doc));
  EXPECT_GT(over_cap(activity, offline.controllers.at(0)), 0u);
}

TEST(GatewayRateControl, ShareModeKeysAreCheckedAtTheirPaths) {
  // The one issue a controller object raises (an empty one, after a failed check, when it raises
  // none or several).
  const auto only_issue = [](const nlohmann::json& controller) {
    nlohmann::json doc = jamshaid("chain_1mbps.json");
    doc["controllers"][0] = controller;
    std::vector<ValidationIssue> issues;
    try {
      parse_scenario(doc);
    } catch (const ScenarioError& e) {
      issues = e.issues();
    }
    EXPECT_EQ(issues.size(), 1u) << controller.dump();
    return issues.size() == 1 ? issues[0] : ValidationIssue{};
  };
  const auto parses = [](const nlohmann::json& controller) {
    nlohmann::json doc = jamshaid("chain_1mbps.json");
    doc["controllers"][0] = controller;
    parse_scenario(doc);
  };
  const nlohmann::json base = {{"type", "gateway_rate_control"}, {"gateway", "n0"}};
  nlohmann::json both = base;
  both["flow_idle_timeout_s"] = 2;
  both["flow_idle_timeout_intervals"] = 4;
  ValidationIssue issue = only_issue(both);
  EXPECT_EQ(issue.path, "/controllers/0/flow_idle_timeout_intervals");
  EXPECT_NE(issue.message.find("not both"), std::string::npos);

  nlohmann::json offline = base;
  offline["share_mode"] = "offline";
  offline["flow_idle_timeout_intervals"] = 4;
  issue = only_issue(offline);
  EXPECT_EQ(issue.path, "/controllers/0/flow_idle_timeout_intervals");
  EXPECT_NE(issue.message.find("share_mode"), std::string::npos);

  nlohmann::json given = base;
  given["fair_rate_bps"] = 50000;
  given["mac_capacity"] = "measured";
  EXPECT_EQ(only_issue(given).path, "/controllers/0/mac_capacity");

  nlohmann::json two_b = base;
  two_b["mac_capacity"] = "measured";
  two_b["mac_capacity_bps"] = 700000;
  EXPECT_EQ(only_issue(two_b).path, "/controllers/0/mac_capacity_bps");

  // What a measured B counts means nothing for another B.
  nlohmann::json counts = base;
  counts["measured_b_counts"] = "data_and_tcp_acks";
  issue = only_issue(counts);
  EXPECT_EQ(issue.path, "/controllers/0/measured_b_counts");
  EXPECT_NE(issue.message.find("measured"), std::string::npos);
  counts["mac_capacity"] = "measured";
  EXPECT_NO_THROW(parses(counts));
  counts["measured_b_counts"] = "acks";
  EXPECT_EQ(only_issue(counts).path, "/controllers/0/measured_b_counts");

  nlohmann::json low = base;
  low["flow_idle_timeout_intervals"] = 0.5;
  EXPECT_EQ(only_issue(low).path, "/controllers/0/flow_idle_timeout_intervals");

  nlohmann::json mode = base;
  mode["share_mode"] = "ofline";
  EXPECT_EQ(only_issue(mode).path, "/controllers/0/share_mode");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
