// 004's intra-mesh congestion control over the air (control/mesh_congestion_control.hpp),
// on scenarios/fu2009/waste_of_bandwidth.json (and, below, the scenarios of 004's
// Figs. 2-4): three stations upload through a relay R
// with a slow link to the gateway, and S1 also sends to its neighbour X.
//  - Without congestion control R's forwarding buffer overflows: intra-mesh loss.
//  - TCC and LSCC both avoid it (004 Sec. 5: "suitable for avoiding intra-mesh
//    packet loss"), with notifications R sends and its neighbours obey.
//  - TCC's waste of bandwidth (Sec. 3.2, Fig. 1): S1's one-hop flow to X, which
//    does not cross R, loses under TCC what LSCC keeps.
//  - LSCC's look-ahead (Sec. 3.3) notifies the neighbours whose packets fill R's
//    buffer, not the gateway, which TCC's tree-wide signalling keeps blocking.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const std::filesystem::path kFolder = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios" / "fu2009";

Results run(const std::string& controller, std::uint64_t seed = 1, const nlohmann::json& keys = nlohmann::json::object(),
            const std::string& file = "waste_of_bandwidth.json") {
  nlohmann::json doc = read_json_file(kFolder / file);
  doc["simulation"]["seed"] = seed;
  if (!controller.empty()) {
    nlohmann::json c = keys;
    c["type"] = controller;
    doc["controllers"] = {c};
  }
  return run_scenario(parse_scenario(doc));
}

double goodput(const Results& r, const std::string& flow) {
  for (const auto& f : r.flows) {
    if (flow_column::id.of(f) == flow) return flow_column::goodput_bps.of(f);
  }
  ADD_FAILURE() << "no flow " << flow;
  return 0.0;
}

const nlohmann::ordered_json& radio_of(const Results& r, const std::string& node) {
  for (const auto& row : controller_column::statistics.cell(r.controllers.at(0)).at("radios")) {
    if (row["node"] == node) return row;
  }
  throw std::runtime_error("no radio row for " + node);
}

TEST(MeshCongestionControl, AvoidsIntraMeshLossAndTccWastesBandwidth) {
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const Results none = run("", seed), tcc = run("tcc", seed), lscc = run("lscc", seed);
    // Without congestion control R's buffer drops hundreds of forwarded packets.
    EXPECT_GT(static_cast<double>(summary_column::drops_intra_mesh.of(none.summary)), 300);
    EXPECT_EQ(summary_column::drops_intra_mesh_by_cause.of(none.summary)["queue_overflow"].get<std::uint64_t>(),
              summary_column::drops_intra_mesh.of(none.summary));
    EXPECT_GT(summary_column::weighted_intra_mesh_loss_bps.of(none.summary), 0.0);
    for (const Results* r : {&tcc, &lscc}) {
      EXPECT_EQ(static_cast<double>(summary_column::drops_intra_mesh.of(r->summary)), 0.0);
      EXPECT_EQ(summary_column::weighted_intra_mesh_loss_bps.of(r->summary), 0.0);
    }
    // Fig. 1: TCC silences S1 altogether, so its flow to X (not through R) loses
    // about a third; LSCC blocks only the packets towards R.
    EXPECT_LT(goodput(tcc, "x"), 0.8 * goodput(lscc, "x"));
    EXPECT_LT(goodput(tcc, "x"), 0.85 * goodput(none, "x"));
  }
}

TEST(MeshCongestionControl, ThresholdsAreSharesOfTheWholeBuffer) {
  // The relay only forwards, so its packets fill at most the forwarding 80 %: a
  // congestion threshold above that is never crossed, one below it is (Sec. 3.1).
  const Results above = run("tcc", 1, {{"congestion_threshold", 0.85}});
  EXPECT_EQ(radio_of(above, "R")["notifications_sent"].get<int>(), 0);
  EXPECT_GT(static_cast<double>(summary_column::drops_intra_mesh.of(above.summary)), 300);
  const Results below = run("tcc", 1, {{"congestion_threshold", 0.75}});
  EXPECT_GT(radio_of(below, "R")["notifications_sent"].get<int>(), 0);
  // (Detected this close to the ceiling, a few packets still arrive before the
  // notifications take effect.)
  EXPECT_LT(static_cast<double>(summary_column::drops_intra_mesh.of(below.summary)), 0.1 * static_cast<double>(summary_column::drops_intra_mesh.of(above.summary)));
  // The same for LSCC's look-ahead, on the forwarded bytes.
  const Results look = run("lscc", 1, {{"congestion_threshold", 0.85}, {"look_ahead_threshold", 0.75}});
  EXPECT_EQ(radio_of(look, "R")["congestion_detections"].get<int>(), 0);
  EXPECT_GT(radio_of(look, "R")["notifications_sent_look_ahead"].get<int>(), 0);
  const Results none = run("lscc", 1, {{"congestion_threshold", 0.85}, {"look_ahead_threshold", 0.85}});
  EXPECT_EQ(radio_of(none, "R")["notifications_sent"].get<int>(), 0);
}

TEST(MeshCongestionControl, DurationHistoryDrawsOnTheRunsOneSampleBudget) {
  // D over time counts against the budget the time series draw on (docs/scenario.md,
  // Limits): with the budget lowered to the series' samples plus 3, the histories
  // stop at 3 entries in all, the run's events are the same (its fingerprint), and
  // the run warns at the controller.
  nlohmann::json doc = read_json_file(kFolder / "waste_of_bandwidth.json");
  doc["controllers"] = {{{"type", "tcc"}}};
  const Scenario s = parse_scenario(doc);
  ASSERT_GT(s.timeseries_samples, 0.0);
  RunOptions options;
  options.fingerprint = true;
  const Results full = run_scenario(s, options);
  options.sample_budget = s.timeseries_samples + 3;
  const Results cut = run_scenario(s, options);
  const auto entries = [](const Results& r) {
    std::size_t n = 0;
    for (const auto& row : controller_column::statistics.cell(r.controllers.at(0)).at("radios")) {
      n += row.at("duration_over_time").size();
    }
    return n;
  };
  EXPECT_GT(entries(full), 10u);
  EXPECT_EQ(entries(cut), 3u);
  ASSERT_TRUE(full.stats.fingerprint && cut.stats.fingerprint);
  EXPECT_EQ(full.stats.fingerprint->hex(), cut.stats.fingerprint->hex());
  const auto warned = [](const Results& r) {
    for (const RunWarning& w : r.warnings) {
      if (w.path == "/controllers/0" && w.message.find("sample budget") != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_FALSE(warned(full));
  EXPECT_TRUE(warned(cut));
}

TEST(MeshCongestionControl, NotificationsAndBlocksAreReported) {
  const Results tcc = run("tcc"), lscc = run("lscc");
  for (const Results* r : {&tcc, &lscc}) {
    const auto& relay = radio_of(*r, "R");
    EXPECT_GT(relay["notifications_sent"].get<int>(), 0);
    EXPECT_GT(relay["congestion_detections"].get<int>(), 0);
    // D starts at 0.1 s (Sec. 4.1) and adapts both ways.
    EXPECT_DOUBLE_EQ(relay["duration_over_time"][0][1].get<double>(), 0.1);
    EXPECT_GT(relay["duration_increases"].get<int>(), 0);
    EXPECT_GT(relay["duration_decreases"].get<int>(), 0);
    EXPECT_GT(relay["notifications_sent_zero"].get<int>(), 0);
    EXPECT_EQ(relay["notifications_received"].get<int>(), 0);
    // R's tree neighbours: the gateway and the three sources, not X.
    EXPECT_EQ(relay["tree_neighbours"].size(), 4u);
    const auto& s2 = radio_of(*r, "S2");
    EXPECT_GT(s2["notifications_received"].get<int>(), 0);
    EXPECT_GT(s2["blocked_s"].get<double>(), 0.1);
    EXPECT_LT(s2["blocked_s"].get<double>(), 10.0);
    EXPECT_EQ(radio_of(*r, "X")["notifications_received"].get<int>(), 0);
  }
  // LSCC's look-ahead picks the sources whose packets fill R; the gateway, which
  // holds none of them, hears far less than under TCC.
  EXPECT_GT(radio_of(lscc, "R")["notifications_sent_look_ahead"].get<int>(), 0);
  EXPECT_EQ(radio_of(tcc, "R")["notifications_sent_look_ahead"].get<int>(), 0);
  EXPECT_LT(radio_of(lscc, "G")["notifications_received"].get<int>(),
            radio_of(tcc, "G")["notifications_received"].get<int>() / 2);
}

const nlohmann::ordered_json& radio_row(const Results& r, const std::string& id) {
  for (const auto& row : r.radios) {
    if (radio_column::id.of(row) == id) return row;
  }
  throw std::runtime_error("no radio " + id);
}

TEST(MeshCongestionControl, GroupDeliverySendsOneUnacknowledgedFrameForSeveralNeighbours) {
  // notification_delivery "group" (004 Sec. 3.2's "multicast"): one group-addressed
  // frame for all the neighbours notified at that instant; every neighbour hears it,
  // only the addressed ones obey.
  const Results uni = run("lscc"), group = run("lscc", 1, {{"notification_delivery", "group"}});
  // Unicast: a frame (and its retries) per notified neighbour.
  EXPECT_GE(static_cast<int>(mac_column::mgmt_sent.of(radio_row(uni, "R:0"))), radio_of(uni, "R")["notifications_sent"].get<int>());
  // Group: fewer frames than notifications, and no retries to add to them.
  const int frames = static_cast<int>(mac_column::mgmt_sent.of(radio_row(group, "R:0")));
  EXPECT_GT(frames, 0);
  EXPECT_LT(frames, radio_of(group, "R")["notifications_sent"].get<int>() +
                        radio_of(group, "R")["notifications_sent_zero"].get<int>());
  // X and the gateway hear them but are not addressed (look-ahead picks the sources).
  EXPECT_GT(mac_column::mgmt_received.of(radio_row(group, "X:0")), 0);
  EXPECT_EQ(radio_of(group, "X")["notifications_received"].get<int>(), 0);
  EXPECT_EQ(radio_of(group, "G")["notifications_received"].get<int>(), 0);
  EXPECT_GT(radio_of(group, "S2")["blocked_s"].get<double>(), 0.1);
  // The relay's forwarding buffer is still protected.
  const Results none = run("");
  EXPECT_LT(static_cast<double>(summary_column::drops_intra_mesh.of(group.summary)), 0.1 * static_cast<double>(summary_column::drops_intra_mesh.of(none.summary)));
}

TEST(MeshCongestionControl, EveryNotificationArrivesOrIsCountedLost) {
  // 004's mesh, 10 s: a unicast notification is either received by its addressee or
  // given up at the retry limit (the addressee's NAV, set by a hidden exchange,
  // keeps it from answering the RTS), and the radio results count the second kind.
  // Lost renewals are what leaves a neighbour free to fill a frozen station's buffer.
  nlohmann::json doc = read_json_file(kFolder / "mesh40_4gw.json");
  doc["simulation"]["duration_s"] = 10;
  doc["outputs"]["timeseries"] = nlohmann::json::array();
  doc["controllers"] = {{{"type", "lscc"}}};
  const Results r = run_scenario(parse_scenario(doc));
  std::int64_t sent = 0, received = 0, lost = 0, on_air = 0;
  for (const auto& row : controller_column::statistics.cell(r.controllers.at(0)).at("radios")) {
    sent += row["notifications_sent"].get<std::int64_t>() + row["notifications_sent_zero"].get<std::int64_t>();
    received += row["notifications_received"].get<std::int64_t>();
  }
  for (const auto& row : r.radios) {
    lost += static_cast<std::int64_t>(mac_column::mgmt_drops_retry_limit.of(row));
    on_air += static_cast<std::int64_t>(mac_column::mgmt_sent.of(row));
  }
  EXPECT_GT(sent, 50);
  EXPECT_GT(lost, 0);
  EXPECT_LE(received, sent);
  EXPECT_LE(received, on_air);
  // The balance: a few frames may still wait in a MAC when the run ends (none in
  // this run); a frame counted both received and lost (every ACK lost) would show
  // as a negative remainder.
  const std::int64_t unaccounted = sent - received - lost;
  EXPECT_GE(unaccounted, 0);
  EXPECT_LE(unaccounted, 5);
}

TEST(MeshCongestionControl, CongestionControlCollision) {
  // 004 Fig. 2: B and C, each unable to drain towards its slow outer link, notify
  // each other. No forwarded packet is lost, but the two block each other for most
  // of the run and the throughput collapses under both schemes (LSCC's virtual
  // buffers keep B -> A and C -> D open, but each buffer also holds packets for the
  // blocked middle link and stays above the renewal threshold).
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const Results none = run("", seed, nlohmann::json::object(), "congestion_control_collision.json");
    EXPECT_GT(static_cast<double>(summary_column::drops_intra_mesh.of(none.summary)), 1000);
    for (const char* scheme : {"tcc", "lscc"}) {
      SCOPED_TRACE(scheme);
      const Results r = run(scheme, seed, nlohmann::json::object(), "congestion_control_collision.json");
      EXPECT_EQ(static_cast<double>(summary_column::drops_intra_mesh.of(r.summary)), 0.0);
      EXPECT_LT(summary_column::total_goodput_bps.of(r.summary), 0.35 * summary_column::total_goodput_bps.of(none.summary));
      // Each middle station blocked by the other for most of the 10 s.
      const std::string b = std::to_string(radio_of(r, "B")["radio"].get<int>());
      const std::string c = std::to_string(radio_of(r, "C")["radio"].get<int>());
      EXPECT_GT(radio_of(r, "B")["blocked_by_radio_s"][c].get<double>(), 6.0);
      EXPECT_GT(radio_of(r, "C")["blocked_by_radio_s"][b].get<double>(), 6.0);
    }
    // exclude_blocked_packets (ours, outside 004): the packets B holds for C do not
    // count while C blocks B, so neither renews for them; the collision ends as 004
    // Fig. 2(b) says it should, and the throughput beats no control's, with the
    // forwarded packets still almost all kept.
    const Results fixed = run("lscc", seed, {{"exclude_blocked_packets", true}}, "congestion_control_collision.json");
    EXPECT_GT(summary_column::total_goodput_bps.of(fixed.summary), summary_column::total_goodput_bps.of(none.summary));
    EXPECT_LT(static_cast<double>(summary_column::drops_intra_mesh.of(fixed.summary)), 0.1 * static_cast<double>(summary_column::drops_intra_mesh.of(none.summary)));
    const std::string c = std::to_string(radio_of(fixed, "C")["radio"].get<int>());
    EXPECT_LT(radio_of(fixed, "B")["blocked_by_radio_s"][c].get<double>(), 6.0);
  }
}

double blocked(const Results& r, const std::string& node) { return radio_of(r, node)["blocked_s"].get<double>(); }

// The thresholds below hold with margin over run seeds 1-30 (checked when written);
// the tests run seeds 1 and 2.
double forwarded_buffer_drops(const Results& r) {
  return summary_column::drops_intra_mesh_by_cause.of(r.summary)["queue_overflow"].get<double>();
}

TEST(MeshCongestionControl, LookAheadSolvesBufferBlocking) {
  // 004 Fig. 4(a) on look_ahead_solvable.json: C, the bottleneck, keeps blocking B;
  // B's buffer fills with flow 2's packets for C (A to D) while B could still
  // forward flow 1 (E to A, 0.5 Mbit/s offered).
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const std::string file = "look_ahead_solvable.json";
    const Results none = run("", seed, nlohmann::json::object(), file);
    const Results tcc = run("tcc", seed, nlohmann::json::object(), file);
    const Results lscc = run("lscc", seed, nlohmann::json::object(), file);
    EXPECT_GT(forwarded_buffer_drops(none), 1000);
    // LSCC: B's look-ahead notifies A, whose packets fill its buffer, before the
    // buffer reaches the congestion level; no forwarded packet is lost, and flow 2
    // gains from what C no longer drops.
    EXPECT_GT(radio_of(lscc, "B")["notifications_sent_look_ahead"].get<int>(), 15);
    EXPECT_LE(radio_of(lscc, "B")["congestion_detections"].get<int>(), 1);
    EXPECT_LE(forwarded_buffer_drops(lscc), 0.02 * forwarded_buffer_drops(none));
    EXPECT_GT(goodput(lscc, "f2"), 1.3 * goodput(none, "f2"));
    // The selection: E is notified only when its packets exceed 2 % of B's buffer
    // (queued behind flow 2's in arrival order once a block ends), for much less
    // time than A, and flow 1 keeps most of its rate.
    EXPECT_GT(blocked(lscc, "A"), 5.0);
    EXPECT_LT(blocked(lscc, "E"), 0.75 * blocked(lscc, "A"));
    EXPECT_GT(goodput(lscc, "f1"), 0.8 * 0.5e6);
    // TCC: B and C block each other (Fig. 2) and flow 1 stops with the rest.
    EXPECT_LT(goodput(tcc, "f1"), 0.2 * goodput(lscc, "f1"));
    EXPECT_GT(blocked(tcc, "E"), 20.0);
  }
}

TEST(MeshCongestionControl, BufferBlockingWithoutItsRemedies) {
  // 004 Fig. 3: packets a station may not send fill its buffer.
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    // The forwarding part, without look-ahead (a threshold of 1 is never crossed):
    // B's buffer fills with packets for C to the 60 % congestion level, again and
    // again, and B notifies every tree neighbour: E as long as A. With look-ahead
    // (Fig. 4(a), above) B rarely gets there and E is blocked far less than A.
    const Results without = run("lscc", seed, {{"look_ahead_threshold", 1}}, "look_ahead_solvable.json");
    EXPECT_EQ(radio_of(without, "B")["notifications_sent_look_ahead"].get<int>(), 0);
    EXPECT_GE(radio_of(without, "B")["congestion_detections"].get<int>(), 5);
    EXPECT_GT(blocked(without, "A"), 5.0);
    EXPECT_GT(blocked(without, "E"), 0.95 * blocked(without, "A"));
    // The local part (buffer_blocking.json, B's own b1 to D through C and b2 to A):
    // without the limit on blocked local packets, b1's fill B's local part and b2's
    // are dropped on arrival; 004's 50 % limit keeps room for them.
    const Results limited = run("lscc", seed, nlohmann::json::object(), "buffer_blocking.json");
    const Results unlimited = run("lscc", seed, {{"blocked_local_limit", 1}}, "buffer_blocking.json");
    EXPECT_GT(goodput(limited, "b2"), 1.6 * goodput(unlimited, "b2"));
    EXPECT_GT(goodput(limited, "b1"), 0.8 * goodput(unlimited, "b1"));
  }
}

TEST(MeshCongestionControl, LookAheadCannotSingleOutAFlow) {
  // 004 Fig. 4(b) on look_ahead_unsolvable.json: flow 1 (0.5 Mbit/s) now starts at
  // A, beside flow 2. B could forward flow 1 and A would only have to stop flow 2,
  // but a notification carries a duration, not a flow: B's look-ahead blocks A and
  // flow 1 with it. It delivers less than without congestion control, and less than
  // from E (Fig. 4(a)).
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const std::string file = "look_ahead_unsolvable.json";
    const Results none = run("", seed, nlohmann::json::object(), file);
    const Results lscc = run("lscc", seed, nlohmann::json::object(), file);
    const Results solvable = run("lscc", seed, nlohmann::json::object(), "look_ahead_solvable.json");
    EXPECT_GT(radio_of(lscc, "B")["notifications_sent_look_ahead"].get<int>(), 10);
    EXPECT_GT(blocked(lscc, "A"), 5.0);
    EXPECT_LT(goodput(lscc, "f1"), 0.92 * goodput(none, "f1"));
    EXPECT_LT(goodput(lscc, "f1"), 0.9 * goodput(solvable, "f1"));
    // Intra-mesh loss is still avoided.
    EXPECT_LE(forwarded_buffer_drops(lscc), 0.02 * forwarded_buffer_drops(none));
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
