// MACs built from a scenario: the per-node overrides reach the right radio, EDCA
// categories come from the scenario, data goes at the link's rate.

#include "scenario/mac_builder.hpp"

#include <gtest/gtest.h>

#include "tests/scenario/test_scenario_util.hpp"
#include "mac/frame.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

class Sink : public DropSink, public MacUser {
 public:
  void on_drop(PacketPtr, DropCause, Time) override { ++drops; }
  void on_mac_receive(PacketPtr, std::uint32_t) override { ++received; }
  int drops = 0, received = 0;
};

// A scenario's PHY and MACs, built as the runner builds them.
struct Built {
  explicit Built(const Scenario& s) : phy(phy::build_phy(sim, s)), macs(build_macs(sim, s, phy, pool, sink)) {}
  Simulation sim{1};
  PacketPool pool;
  Sink sink;
  phy::PhyNetwork phy;
  MacNetwork macs;
};

TEST(MacSetup, PerNodeOverridesReachTheirRadios) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = {{"cw_min", 32}, {"rts_threshold_bytes", 1000}};
  doc["nodes"][1]["mac"] = {{"cw_min", 128}, {"short_retry_limit", 5}};  // 000's policy, by hand
  const Scenario s = parse_scenario(doc);
  Built w(s);
  ASSERT_EQ(w.macs.node_macs.size(), 3u);
  const Mac& a = *w.macs.node_macs[0][0];
  const Mac& b = *w.macs.node_macs[1][0];
  EXPECT_EQ(a.type(), MacType::dcf);
  EXPECT_EQ(a.category_count(), 1u);
  EXPECT_EQ(a.params(AccessCategory::ac_be).cw_min, 32);
  EXPECT_EQ(b.params(AccessCategory::ac_be).cw_min, 128);
  EXPECT_EQ(a.params(AccessCategory::ac_be).aifsn, 2);  // DIFS
  EXPECT_EQ(a.short_retry_limit(), 7);
  EXPECT_EQ(b.short_retry_limit(), 5);
  EXPECT_EQ(b.rts_threshold(), std::optional<std::int64_t>(1000));
}

// The exchange holds "RTS/CTS off" as a sentinel, not a std::optional (issue 43 §3):
// off reads back as empty, and 0 (RTS before every frame) stays 0.
TEST(MacSetup, AnRtsThresholdOffReadsBackEmptyAndZeroStaysZero) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = {{"rts_threshold_bytes", 0}};
  doc["nodes"][1]["mac"] = {{"rts_threshold_bytes", "off"}};
  const Scenario s = parse_scenario(doc);
  Built w(s);
  Mac& a = *w.macs.node_macs[0][0];
  Mac& b = *w.macs.node_macs[1][0];
  EXPECT_EQ(a.rts_threshold(), std::optional<std::int64_t>(0));
  EXPECT_EQ(b.rts_threshold(), std::nullopt);
  b.set_rts_threshold(500);
  EXPECT_EQ(b.rts_threshold(), std::optional<std::int64_t>(500));
  a.set_rts_threshold(std::nullopt);
  EXPECT_EQ(a.rts_threshold(), std::nullopt);
}

// The MAC keeps its queue limit in two fields, the unit beside its type (issue 43
// §3); queue_limit() gives the scenario's back, each node its own.
TEST(MacSetup, EachMacGivesBackItsQueueLimit) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = {{"queue", {{"capacity_packets", 30}}}};
  doc["nodes"][1]["mac"] = {{"queue", {{"capacity_bytes", 60000}}}};
  const Scenario s = parse_scenario(doc);
  Built w(s);
  const link::QueueLimit a = w.macs.node_macs[0][0]->queue_limit();
  const link::QueueLimit b = w.macs.node_macs[1][0]->queue_limit();
  EXPECT_EQ(a.unit, link::QueueLimit::Unit::packets);
  EXPECT_EQ(a.capacity, 30);
  EXPECT_EQ(b.unit, link::QueueLimit::Unit::bytes);
  EXPECT_EQ(b.capacity, 60000);
}

// Issue 43 §2: nodes are built along space (PhyNetwork::node_build_order), nodes
// near each other one after the other, whatever the scenario's order; each MAC
// still sits on its own node's radio.
TEST(MacSetup, NodesAreBuiltAlongSpaceAndEachMacOnItsOwnRadio) {
  nlohmann::json doc = test::minimal_scenario();
  doc["nodes"][1]["position_m"] = {1000, 0};  // B far; GW next to A
  doc["nodes"][2]["position_m"] = {10, 0};
  const Scenario s = parse_scenario(doc);
  Built w(s);
  EXPECT_EQ(w.phy.node_build_order, (std::vector<std::uint32_t>{0, 2, 1}));  // A, GW, B
  for (std::size_t n = 0; n < 3; ++n) {
    ASSERT_EQ(w.macs.node_macs[n].size(), 1u);
    EXPECT_EQ(w.macs.node_macs[n][0]->radio().id(), w.phy.node_radios[n][0]);
    EXPECT_EQ(w.phy.medium->radio(w.phy.node_radios[n][0]).node(), n);
  }
}

// Issue 43 §3 (memory per node): the MACs of radios with one profile share one
// MacContext, so one MacTiming, instead of a copy each, with the values a MAC derives on its own.
TEST(MacSetup, MacsShareOneTiming) {
  const Scenario s = parse_scenario(test::minimal_scenario());
  Built w(s);
  ASSERT_EQ(w.macs.macs.size(), 3u);
  const MacTiming& shared = w.macs.macs[0]->timing();
  EXPECT_EQ(&w.macs.macs[1]->timing(), &shared);
  EXPECT_EQ(&w.macs.macs[2]->timing(), &shared);
  const MacTiming own = mac_timing(w.phy.medium->radio(0).profile(), *w.phy.basic_rate);
  EXPECT_EQ(shared.control_rate, own.control_rate);
  EXPECT_EQ(shared.difs, own.difs);
  EXPECT_EQ(shared.eifs, own.eifs);
  EXPECT_EQ(shared.ack_timeout, own.ack_timeout);
  EXPECT_EQ(shared.rts_airtime, own.rts_airtime);
}

// A MacContext given to a MAC must be its radio's: of the medium's copy of the
// radio's profile, and of its simulation, packet pool and medium. Another is
// refused rather than used (mac.cpp, checked_context).
TEST(MacSetup, AContextOfAnotherProfileIsRefused) {
  const Scenario s = parse_scenario(test::minimal_scenario());
  Built w(s);
  phy::Radio& radio = w.phy.medium->radio(0);
  const phy::PhyProfile copy = radio.profile();  // equal, but not the medium's
  const auto context = [&](const phy::PhyProfile& profile) {
    return std::make_shared<const MacContext>(
        MacContext{w.sim.scheduler(), profile, w.macs.macs[0]->timing(), w.pool, w.phy.medium->payload_pool(), {}});
  };
  MacConfig config;
  config.context = context(copy);
  EXPECT_THROW(Mac(w.sim, radio, config, w.pool, w.sink, w.sim.random().stream("test", 0, "backoff")),
               std::invalid_argument);
  PacketPool other_pool;
  config.context = std::make_shared<const MacContext>(MacContext{w.sim.scheduler(), radio.profile(),
                                                                 w.macs.macs[0]->timing(), other_pool,
                                                                 w.phy.medium->payload_pool(), {}});
  EXPECT_THROW(Mac(w.sim, radio, config, w.pool, w.sink, w.sim.random().stream("test", 0, "backoff")),
               std::invalid_argument);
}

TEST(MacSetup, EdcaCategoriesFromTheScenario) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = {{"type", "edca"}, {"access_categories", {{"ac_vo", {{"aifsn", 2}, {"cw_min", 4}, {"cw_max", 8}, {"txop_limit_frames", 3}}}}}};
  const Scenario s = parse_scenario(doc);
  Built w(s);
  const Mac& a = *w.macs.node_macs[0][0];
  EXPECT_EQ(a.category_count(), 4u);
  EXPECT_EQ(a.params(AccessCategory::ac_vo).cw_min, 4);
  EXPECT_EQ(a.params(AccessCategory::ac_vo).txop.frames, 3);
  EXPECT_EQ(a.params(AccessCategory::ac_bk).aifsn, 7);  // the standard's default
}

TEST(MacSetup, AFrameCrossesTheFirstHopOfTheFlagshipChain) {
  const Scenario s = parse_scenario(test::minimal_scenario());
  Built w(s);
  w.macs.node_macs[1][0]->set_user(&w.sink);
  PacketPtr p = w.pool.make(w.sim.now());
  p->size_bytes = 1500;
  p->next_hop_radio = w.macs.node_macs[1][0]->address();
  w.macs.node_macs[0][0]->enqueue(std::move(p));
  w.sim.run_until(100_ms);
  EXPECT_EQ(w.sink.received, 1);
  EXPECT_EQ(w.sink.drops, 0);
  EXPECT_EQ(w.macs.node_macs[0][0]->stats().tx_success, 1u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
