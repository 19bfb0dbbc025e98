// The management-frame path (Mac::send_management, docs/mac.md "Management
// frames"): an Action frame goes out while the data queue holds its head back,
// at the basic rate, contending with the access function of AC_VO under EDCA; it
// is acknowledged, retried and filtered for duplicates like data, and handed up
// apart from data: never a data delivery, counted in MacStats' mgmt_* counters.
// The node dispatches it to the handlers of its category.

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/node.hpp"
#include "core/packet_ledger.hpp"
#include "core/routing.hpp"
#include "mac/congestion_notification.hpp"
#include "mac/mac.hpp"
#include "mac/mac_interface.hpp"
#include "mac_world.hpp"
#include "release_queue.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;
using testing::ReleaseQueue;

constexpr std::uint32_t kBytes = 1500;
constexpr std::uint32_t kCcnMpdu = 24 + 18 + 4;  // management header + CCN body + FCS

MacWorld dot11b_world(MacType type = MacType::dcf) {
  return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, type);
}

std::shared_ptr<const CongestionNotification> ccn(Time be = 50_ms) {
  auto body = std::make_shared<CongestionNotification>();
  body->set_duration(AccessCategory::ac_be, be);
  return body;
}

TEST(CongestionNotification, BodyAndFieldUnits) {
  const auto body = ccn(Time::us(1234));
  EXPECT_EQ(body->category(), 13);
  EXPECT_EQ(body->action(), 3);
  EXPECT_EQ(body->size_bytes(), 18u);
  EXPECT_EQ(mpdu_bytes(FrameKind::action, body->size_bytes()), kCcnMpdu);
  EXPECT_EQ(body->duration(AccessCategory::ac_be), Time::us(1300));  // whole 100 us units, rounded up
  EXPECT_EQ(body->duration(AccessCategory::ac_vo), Time::zero());
  CongestionNotification c;
  EXPECT_THROW(c.set_duration(AccessCategory::ac_be, Time::us(100) * 65536), std::invalid_argument);
  EXPECT_NO_THROW(c.set_duration(AccessCategory::ac_be, Time::us(100) * 65535));
}

TEST(MacManagement, GoesOutWhileTheDataQueueHoldsItsHeadAtTheBasicRate) {
  const Time at = 3_ms;
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  auto held = std::make_unique<ReleaseQueue>(*w.taps[a]);
  w.macs[a]->set_queue(AccessCategory::ac_be, std::move(held));
  w.send(a, b, kBytes);  // held for ever
  w.sim.scheduler().schedule_at(at, [&] { w.macs[a]->send_management(ccn(), b); });
  w.run(50_ms);

  const auto action = w.taps[a]->sent_of(FrameKind::action);
  ASSERT_EQ(action.size(), 1u);
  EXPECT_EQ(action[0].at, at);  // idle function, medium idle for DIFS: at once (9.3.4.2)
  EXPECT_EQ(action[0].receiver, b);
  EXPECT_EQ(action[0].airtime, w.airtime_control(kCcnMpdu));  // 1 Mbit/s, not the 11 Mbit/s data rate
  EXPECT_TRUE(w.taps[a]->sent_of(FrameKind::data).empty());
  // Acknowledged SIFS after its end.
  const auto acks = w.taps[b]->sent_of(FrameKind::ack);
  ASSERT_EQ(acks.size(), 1u);
  EXPECT_EQ(acks[0].at, at + action[0].airtime + w.timing().sifs);
  // Received once, handed up as management, never as data.
  ASSERT_EQ(w.taps[b]->management.size(), 1u);
  EXPECT_EQ(w.taps[b]->management[0].from, a);
  EXPECT_EQ(w.taps[b]->management[0].category, CongestionNotification::kCategoryMesh);
  EXPECT_EQ(w.taps[b]->management[0].at, at + action[0].airtime);
  EXPECT_TRUE(w.taps[b]->delivered.empty());
  const MacStats& sa = w.macs[a]->stats();
  EXPECT_EQ(sa.mgmt_attempts, 1u);
  EXPECT_EQ(sa.mgmt_tx_success, 1u);
  EXPECT_EQ(sa.data_attempts, 0u);
  EXPECT_EQ(sa.tx_success, 0u);
  const MacStats& sb = w.macs[b]->stats();
  EXPECT_EQ(sb.mgmt_rx, 1u);
  EXPECT_EQ(sb.mgmt_rx_discarded, 0u);
  EXPECT_EQ(sb.rx_data, 0u);
  EXPECT_EQ(sb.acks_sent, 1u);
  EXPECT_EQ(w.macs[a]->management_backlog(), 0u);
}

TEST(MacManagement, UnderEdcaItContendsAsAcVo) {
  // Sent while c's frame is on the air: a draws its backoff from AC_VO's window
  // (802.11b defaults: CWmin 8 slots) and counts it AIFS[AC_VO] after the medium
  // turns idle (AIFSN set to 4 here, to tell it from the other categories').
  MacWorld w = dot11b_world(MacType::edca);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.params().access_categories[index_of(AccessCategory::ac_vo)].aifsn = 4;
  w.build();
  EXPECT_EQ(w.macs[a]->management_category(), AccessCategory::ac_vo);
  const MacTiming t = w.timing();
  const Time c_starts = 2_ms;
  const Time t_idle = c_starts + w.airtime_data(kBytes) + t.sifs + t.ack_airtime;
  w.send_at(c_starts, c, b, kBytes);
  w.sim.scheduler().schedule_at(c_starts + 100_us, [&] { w.macs[a]->send_management(ccn(), b); });
  w.run(50_ms);
  RandomStream draws = w.backoff_stream(a);
  const int vo_cw = w.macs[a]->params(AccessCategory::ac_vo).cw_min;
  const auto k = static_cast<std::int64_t>(draws.uniform_int(static_cast<std::uint64_t>(vo_cw)));
  const auto action = w.taps[a]->sent_of(FrameKind::action);
  ASSERT_EQ(action.size(), 1u);
  EXPECT_EQ(action[0].at, t_idle + t.aifs(4) + k * t.slot);
  EXPECT_EQ(w.taps[b]->management.size(), 1u);
}

TEST(MacManagement, ALostAckMeansARetryThatIsNotHandedUpTwice) {
  // A jammer J, hidden from B, hits A while B's ACK arrives (as in the data
  // timeline test): A retransmits with the Retry bit, B acknowledges again and
  // hands the frame up once.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), j = w.add();
  w.hide(b, j);
  w.set_gain(a, j, -40.0);
  w.build();
  w.macs[j]->radio().set_listener(nullptr);  // J is a bare radio
  const MacTiming t = w.timing();
  const Time ack_start = t.difs + w.airtime_control(kCcnMpdu) + t.sifs;
  const phy::Mcs* one = phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000);
  const phy::PhyFrame jam{100, one, phy::airtime(phy::profile_80211b(), *one, 100), nullptr};
  w.sim.scheduler().schedule_at(ack_start + 50_us, [&] { w.medium.radio(j).transmit(jam); });
  // Sent at DIFS: the medium is idle from 0, so a waits until DIFS has passed.
  w.sim.scheduler().schedule_at(Time::zero(), [&] { w.macs[a]->send_management(ccn(), b); });
  w.run(50_ms);

  const auto action = w.taps[a]->sent_of(FrameKind::action);
  ASSERT_EQ(action.size(), 2u);
  EXPECT_FALSE(action[0].retry);
  EXPECT_TRUE(action[1].retry);
  EXPECT_EQ(action[0].sequence, action[1].sequence);
  EXPECT_EQ(w.taps[b]->sent_of(FrameKind::ack).size(), 2u);
  EXPECT_EQ(w.taps[b]->management.size(), 1u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx, 1u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_duplicates, 1u);
  EXPECT_EQ(w.macs[b]->stats().rx_duplicates, 0u);
  EXPECT_EQ(w.macs[a]->stats().mgmt_retries, 1u);
  EXPECT_EQ(w.macs[a]->stats().mgmt_tx_success, 1u);
  EXPECT_EQ(w.macs[a]->stats().failed_attempts, 1u);
}

TEST(MacManagement, NoReceiverMeansRetriesUpToTheLimitAndNoPacketDrop) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.build();
  w.macs[a]->send_management(ccn(), b);
  w.run(500_ms);
  EXPECT_EQ(w.taps[a]->sent_of(FrameKind::action).size(), static_cast<std::size_t>(w.macs[a]->short_retry_limit()));
  EXPECT_EQ(w.macs[a]->stats().mgmt_drops_retry_limit, 1u);
  EXPECT_EQ(w.macs[a]->stats().drops_retry_limit, 0u);
  EXPECT_TRUE(w.taps[a]->drops.empty());  // no packet was dropped
  EXPECT_TRUE(w.taps[b]->management.empty());
}

TEST(MacManagement, BroadcastReachesEveryNeighbourOnceWithoutAck) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  w.taps[c]->take_management = false;  // c has no handler: counts and discards
  w.macs[a]->send_management(ccn(), kBroadcastRadio);
  w.run(50_ms);
  ASSERT_EQ(w.taps[a]->sent_of(FrameKind::action).size(), 1u);
  EXPECT_TRUE(w.taps[b]->sent_of(FrameKind::ack).empty());
  EXPECT_TRUE(w.taps[c]->sent_of(FrameKind::ack).empty());
  EXPECT_EQ(w.taps[b]->management.size(), 1u);
  EXPECT_EQ(w.taps[c]->management.size(), 1u);  // offered once ...
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_discarded, 0u);
  EXPECT_EQ(w.macs[c]->stats().mgmt_rx, 1u);
  EXPECT_EQ(w.macs[c]->stats().mgmt_rx_discarded, 1u);  // ... and discarded
  EXPECT_EQ(w.macs[a]->stats().mgmt_tx_success, 1u);
  EXPECT_EQ(w.macs[a]->stats().broadcasts, 0u);  // a data counter
  EXPECT_TRUE(w.taps[b]->delivered.empty());
}

TEST(MacManagement, ManagementFramesGoBeforeQueuedDataOfTheirFunction) {
  // DCF: two data packets at 0; the first is taken at DIFS. A management frame
  // given while it is on the air goes at the next access, before the second
  // data frame, which waited longer.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  w.sim.scheduler().schedule_at(w.timing().difs + Time::us(1), [&] { w.macs[a]->send_management(ccn(), b); });
  w.run(100_ms);
  ASSERT_EQ(w.taps[a]->sent.size(), 3u);
  EXPECT_EQ(w.taps[a]->sent[0].kind, FrameKind::data);
  EXPECT_EQ(w.taps[a]->sent[1].kind, FrameKind::action);
  EXPECT_EQ(w.taps[a]->sent[2].kind, FrameKind::data);
  EXPECT_EQ(w.taps[b]->delivered.size(), 2u);
  EXPECT_EQ(w.taps[b]->management.size(), 1u);
}

// A node's handlers, by category.
class Handler final : public ManagementHandler {
 public:
  void on_management(std::uint32_t node, const ManagementBody& body, const PrevHop& from) override {
    calls.push_back({node, body.category(), from});
  }
  struct Call {
    std::uint32_t node;
    std::uint8_t category;
    PrevHop from;
  };
  std::vector<Call> calls;
};

TEST(MacManagement, TheReceivingNodeDispatchesByCategoryAndNeverToAnEndpoint) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  RoutingTables tables(2);
  PacketLedger ledger(2, 1, Time::zero(), 1_s);
  const NodeContext context{w.sim.scheduler(), tables, ledger};
  Node na(context, 0), nb(context, 1);
  MacInterface ia(*w.macs[a], na), ib(*w.macs[b], nb);
  Handler mesh, other;
  nb.subscribe_management(CongestionNotification::kCategoryMesh, mesh);
  nb.subscribe_management(4, other);  // Public: not this frame's category
  w.macs[a]->send_management(ccn(), b);
  w.run(50_ms);
  ASSERT_EQ(mesh.calls.size(), 1u);
  EXPECT_EQ(mesh.calls[0].node, 1u);
  EXPECT_EQ(mesh.calls[0].from, (PrevHop{ib.interface(), a}));
  EXPECT_TRUE(other.calls.empty());
  EXPECT_EQ(nb.counters().received, 0u);
  EXPECT_EQ(nb.counters().delivered, 0u);
  EXPECT_EQ(ledger.balance(w.pool).originated, 0u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_discarded, 0u);
  // Without a handler of its category the node discards it, counted by the MAC.
  nb.unsubscribe_management(mesh);
  w.macs[a]->send_management(ccn(), b);
  w.run(100_ms);
  EXPECT_EQ(mesh.calls.size(), 1u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx, 2u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_discarded, 1u);
}

// A handler that stops listening while it is told (a controller stopped from
// on_management): the next handler of the category is still told, once.
class Quitter final : public ManagementHandler {
 public:
  explicit Quitter(Node& node) : node_(node) {}
  void on_management(std::uint32_t, const ManagementBody&, const PrevHop&) override {
    ++calls;
    node_.unsubscribe_management(*this);
  }
  int calls = 0;

 private:
  Node& node_;
};

// One that unsubscribes the handler before it.
class Remover final : public ManagementHandler {
 public:
  Remover(Node& node, ManagementHandler& other) : node_(node), other_(other) {}
  void on_management(std::uint32_t, const ManagementBody&, const PrevHop&) override {
    ++calls;
    node_.unsubscribe_management(other_);
  }
  int calls = 0;

 private:
  Node& node_;
  ManagementHandler& other_;
};

TEST(MacManagement, AHandlerMayUnsubscribeAnEarlierOneWhileTold) {
  Simulation sim(1);
  RoutingTables tables(1);
  PacketLedger ledger(1, 0, Time::zero(), 1_s);
  const NodeContext context{sim.scheduler(), tables, ledger};
  Node node(context, 0);
  Handler first, last;
  Remover remover(node, first);
  node.subscribe_management(CongestionNotification::kCategoryMesh, first);
  node.subscribe_management(CongestionNotification::kCategoryMesh, remover);
  node.subscribe_management(CongestionNotification::kCategoryMesh, last);
  const auto body = ccn();
  node.receive_management(*body, PrevHop{0, 5});
  EXPECT_EQ(first.calls.size(), 1u);
  EXPECT_EQ(remover.calls, 1);
  EXPECT_EQ(last.calls.size(), 1u);  // not skipped
  node.receive_management(*body, PrevHop{0, 5});
  EXPECT_EQ(first.calls.size(), 1u);
  EXPECT_EQ(last.calls.size(), 2u);
}

TEST(MacManagement, AHandlerMayUnsubscribeItselfWhileTold) {
  Simulation sim(1);
  RoutingTables tables(1);
  PacketLedger ledger(1, 0, Time::zero(), 1_s);
  const NodeContext context{sim.scheduler(), tables, ledger};
  Node node(context, 0);
  Quitter quitter(node);
  Handler after;
  node.subscribe_management(CongestionNotification::kCategoryMesh, quitter);
  node.subscribe_management(CongestionNotification::kCategoryMesh, after);
  const auto body = ccn();
  EXPECT_TRUE(node.receive_management(*body, PrevHop{0, 5}));
  EXPECT_EQ(quitter.calls, 1);
  EXPECT_EQ(after.calls.size(), 1u);
  EXPECT_TRUE(node.receive_management(*body, PrevHop{0, 5}));
  EXPECT_EQ(quitter.calls, 1);  // gone
  EXPECT_EQ(after.calls.size(), 2u);
}

TEST(MacManagement, ANewFrameTakenForADuplicateAfterTheSequenceWrapsIsCounted) {
  // As the data case (test_mac_timeline.cpp): A's single counter (9.3.2.11) goes
  // round between two notifications to B; the second's first attempt is jammed at
  // B, so it arrives with the Retry bit and the first one's number. B acknowledges
  // and discards it (9.3.2.10): a notification lost, counted.
  MacWorld w = dot11b_world();
  const testing::WrapRadios r = testing::build_wrap_world(w);
  const auto a = r.a, b = r.b;
  w.macs[a]->send_management(ccn(), b);
  w.run(5_ms);
  testing::wrap_counter(w, r);
  ASSERT_EQ(w.taps[b]->management.size(), 1u);
  const Time start = testing::jam_first_attempt(w, r, w.airtime_control(kCcnMpdu));
  w.macs[a]->send_management(ccn(), b);
  w.run(start + 50_ms);

  const auto action = w.taps[a]->sent_of(FrameKind::action);
  ASSERT_GE(action.size(), 3u);
  EXPECT_EQ(action.front().sequence, action.back().sequence);  // the counter went round
  EXPECT_TRUE(action.back().retry);
  EXPECT_EQ(w.macs[a]->stats().mgmt_tx_success, 2u);
  EXPECT_EQ(w.taps[b]->management.size(), 1u);  // the second never handed up
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_duplicates, 1u);
  EXPECT_EQ(w.macs[b]->stats().mgmt_rx_false_duplicates, 1u);
  EXPECT_TRUE(w.taps[b]->drops.empty());  // no packet: nothing for the ledger
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
