// The event-trace fingerprint of whole runs (core/fingerprint.hpp,
// docs/fingerprints.md): stable, sensitive to the seed and to one parameter,
// blind to what the run records, and made of the frames, deliveries and drops the
// layers count themselves.

#include <gtest/gtest.h>

#include <filesystem>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const std::filesystem::path kFlagship = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json";

// The flagship (two TCP uploads over a hidden-node chain) for 4 s: TCP timeouts,
// MAC retries and drops all happen in it.
nlohmann::json flagship(int seed = 1) {
  nlohmann::json doc = read_json_file(kFlagship);
  doc["simulation"]["duration_s"] = 4;
  doc["simulation"]["seed"] = seed;
  return doc;
}

Results run(const nlohmann::json& doc, bool fingerprint = true) {
  RunOptions options;
  options.fingerprint = fingerprint;
  return run_scenario(parse_scenario(doc), options);
}

const Fingerprint& fingerprint_of(const Results& r) {
  if (!r.stats.fingerprint) throw std::logic_error("run without a fingerprint");
  return *r.stats.fingerprint;
}

std::uint64_t sum_over_nodes(const Results& r, const ResultColumn<std::uint64_t>& column) {
  std::uint64_t n = 0;
  for (const auto& row : r.nodes) n += column.value_in(row).value_or(0);
  return n;
}

TEST(FingerprintOfARun, IsStableAcrossRuns) {
  const Results a = run(flagship()), b = run(flagship());
  EXPECT_EQ(fingerprint_of(a).value(), fingerprint_of(b).value());
  EXPECT_EQ(fingerprint_of(a).counts(), fingerprint_of(b).counts());
  EXPECT_EQ(a.to_json()["run"]["event_fingerprint"], fingerprint_of(a).hex());
}

TEST(FingerprintOfARun, MovesWithTheSeed) {
  EXPECT_NE(fingerprint_of(run(flagship(1))).value(), fingerprint_of(run(flagship(2))).value());
}

TEST(FingerprintOfARun, MovesWithOneParameter) {
  const std::uint64_t base = fingerprint_of(run(flagship())).value();
  nlohmann::json cw = flagship();
  cw["mac"]["cw_min"] = 64;
  EXPECT_NE(fingerprint_of(run(cw)).value(), base);
  nlohmann::json payload = flagship();
  payload["flows"][1]["payload_bytes"] = 1000;
  EXPECT_NE(fingerprint_of(run(payload)).value(), base);
}

TEST(FingerprintOfARun, WhatTheRunRecordsDoesNotMoveIt) {
  // Every time series at a fine interval (many sampler events) against none.
  nlohmann::json recorded = flagship(), bare = flagship();
  recorded["outputs"]["timeseries"] = nlohmann::json::array();
  for (const auto kind : timeseries_kinds()) {
    if (why_not_recorded(kind) == nullptr) recorded["outputs"]["timeseries"].push_back(std::string(kind));
  }
  recorded["simulation"]["measurement_interval_s"] = 0.01;
  bare["outputs"]["timeseries"] = nlohmann::json::array();
  const Results r = run(recorded), b = run(bare);
  EXPECT_GT(r.stats.events_executed, b.stats.events_executed + 300);  // the samplers did run
  EXPECT_FALSE(r.timeseries.empty());
  EXPECT_EQ(fingerprint_of(r).value(), fingerprint_of(b).value());
  EXPECT_EQ(fingerprint_of(r).counts(), fingerprint_of(b).counts());
}

TEST(FingerprintOfARun, FingerprintingDoesNotChangeTheRun) {
  const Results on = run(flagship(), true), off = run(flagship(), false);
  EXPECT_FALSE(off.stats.fingerprint.has_value());
  EXPECT_TRUE(off.to_json()["run"]["event_fingerprint"].is_null());
  EXPECT_TRUE(off.to_json()["run"]["fingerprint_records"].is_null());
  EXPECT_EQ(on.stats.events_executed, off.stats.events_executed);
  nlohmann::ordered_json a = on.to_json(), b = off.to_json();
  for (auto* j : {&a, &b}) {
    j->erase("wall_clock");
    (*j)["run"].erase("event_fingerprint");
    (*j)["run"].erase("fingerprint_records");
  }
  EXPECT_EQ(a.dump(), b.dump());
}

TEST(FingerprintOfARun, HoldsTheFramesDeliveriesAndDropsTheLayersCount) {
  const Results r = run(flagship());
  const Fingerprint::Counts& c = fingerprint_of(r).counts();
  const auto& packets = summary_column::packets.cell(r.summary);
  EXPECT_EQ(c.deliveries, sum_over_nodes(r, node_column::delivered));
  // Every drop a node hears of, stale sender copies included.
  EXPECT_EQ(c.drops, packets["dropped"].get<std::uint64_t>() + packets["stale_copy_drops"].get<std::uint64_t>());
  EXPECT_GT(c.drops, 0u);
  // Data and RTS frames, plus the ACKs and CTSs that answer them.
  const std::uint64_t initiated = sum_over_nodes(r, mac_column::data_attempts) + sum_over_nodes(r, mac_column::rts_attempts);
  EXPECT_GT(c.frames, initiated);
  EXPECT_LT(c.frames, 2 * initiated + 1);
  EXPECT_GT(c.events, c.frames);
  EXPECT_LE(c.events, r.stats.events_executed);
}


TEST(Fingerprint, BoundedAndExactErrorEvaluationRunAlike) {
  // phy/frame_success.hpp: bounding the error model from a table decides every
  // frame as evaluating it exactly. A dense 802.11b cell (50 saturated stations:
  // collisions at every SINR), also with the SINR read as ns-3 reads it (doubled:
  // the bounds must hold for the doubled SINRs), and 004's mesh (OFDM, auto rate)
  // for a short run.
  std::vector<std::uint64_t> fingerprints;
  for (const char* file : {"scenarios/bench/cell50_saturated.json", "scenarios/bench/cell50_saturated.json#ns3",
                           "scenarios/fu2009/mesh40_4gw.json"}) {
    const std::string path(file);
    nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / path.substr(0, path.find('#')));
    if (path.ends_with("#ns3")) doc["phy"]["reception"]["dsss_processing_gain"] = "ns3";
    doc["simulation"]["duration_s"] = 2;
    doc["simulation"]["warmup_s"] = 0;
    const Results bounded = run(doc);
    doc["phy"]["reception"]["error_evaluation"] = "exact";
    const Results exact = run(doc);
    EXPECT_EQ(fingerprint_of(bounded).value(), fingerprint_of(exact).value()) << file;
    EXPECT_GT(fingerprint_of(bounded).counts().frames, 1000u) << file;
    fingerprints.push_back(fingerprint_of(bounded).value());
  }
  EXPECT_NE(fingerprints[0], fingerprints[1]);  // the ns-3 reading changed some outcomes
}

TEST(Fingerprint, FaintSignalsAsIntervalsGiveTheResultsOfEvents) {
  // docs/phy.md "Faint signals": signals below the sensitivity kept as intervals
  // rather than delivered as events change the events, not the results. 004's mesh
  // (60 % of deliveries faint) with CBR, with TCP, and under LSCC; Fig. 3's chain;
  // the 100-node chain whose radios 400 and 500 m away only sense (each such signal
  // alone tips the energy detection: docs/performance.md, "Sensed-only signals").
  for (const char* file : {"scenarios/fu2009/mesh40_4gw.json", "scenarios/fu2009/mesh40_4gw_tcp.json",
                           "scenarios/fu2009/mesh40_4gw.json#lscc", "scenarios/fu2009/buffer_blocking.json",
                           "scenarios/bench/chain100_sinr_cs550.json"}) {
    const std::string path(file);
    const bool lscc = path.ends_with("#lscc");
    nlohmann::json doc =
        read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / path.substr(0, path.find('#')));
    doc["simulation"]["duration_s"] = 3;
    doc["simulation"]["warmup_s"] = 0;
    doc.erase("outputs");
    if (lscc) doc["controllers"] = nlohmann::json::array({{{"type", "lscc"}}});
    const auto results_of = [&](const char* faint) {
      doc["phy"]["reception"]["faint_signals"] = faint;
      const Results r = run(doc, false);
      nlohmann::ordered_json j = r.to_json();
      for (const char* key : {"wmnsim", "run", "wall_clock", "scenario_hash", "scenario"}) j.erase(key);
      return std::pair{j, r.stats.events_executed};
    };
    const auto [intervals, intervals_events] = results_of("intervals");
    const auto [events, events_events] = results_of("events");
    EXPECT_EQ(intervals, events) << file;
    EXPECT_LT(intervals_events, events_events) << file;
    EXPECT_GT(intervals["summary"]["packets"]["delivered"].get<std::uint64_t>(), 100u) << file;
  }
}

TEST(Fingerprint, EdcaControllersOnDcfRunAsTheHandWrittenEdcaScenario) {
  // 002's parking lot written for DCF, with edca_ack_priority and a static
  // edca_txop, executes exactly the events of the same network written by hand in
  // EDCA terms (AIFSN 6 for data, ACKs in AC_VO at CWmin 4, TXOP 3/6/9 frames at
  // the relays): the DCF-to-EDCA conversion, the ACK classification, the flow count
  // per radio and the windows at their reset value all agree with the hand's.
  const std::filesystem::path dir = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/badarla";
  nlohmann::json by_hand = read_json_file(dir / "parking_lot.json");
  nlohmann::json by_controllers = read_json_file(dir / "parking_lot_txop.json");
  for (nlohmann::json* doc : {&by_hand, &by_controllers}) {
    (*doc)["simulation"]["duration_s"] = 4;
    (*doc)["simulation"]["warmup_s"] = 0;
    doc->erase("outputs");
  }
  const Results hand = run(by_hand);
  const Results controlled = run(by_controllers);
  EXPECT_EQ(fingerprint_of(hand).value(), fingerprint_of(controlled).value());
  EXPECT_GT(fingerprint_of(hand).counts().frames, 5000u);
  // Without the TXOP controller the runs part: it is not a no-op.
  by_controllers["controllers"].erase(1);
  EXPECT_NE(fingerprint_of(hand).value(), fingerprint_of(run(by_controllers)).value());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
