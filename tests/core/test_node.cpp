// The network layer of one node, with fake interfaces: delivery to the flow's
// endpoint, forwarding by table with hop count and TTL, drops with cause, node and
// hops into the ledger, the stale-copy rule, conservation, and the refill of
// saturated sources.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/node.hpp"
#include "core/packet.hpp"
#include "core/packet_ledger.hpp"
#include "core/routing.hpp"
#include "core/scheduler.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

// Keeps what it is given, with the address, as a MAC queue would.
class HoldingInterface final : public NetInterface {
 public:
  void send(PacketPtr packet, std::uint32_t address) override {
    addresses.push_back(address);
    held.push_back(std::move(packet));
  }
  std::vector<std::uint32_t> addresses;
  std::vector<PacketPtr> held;
};

class Endpoint final : public PacketSink {
 public:
  void receive(PacketPtr packet) override { received.push_back(std::move(packet)); }
  std::vector<PacketPtr> received;
};

struct World {
  // Nodes 0 - 1 - 2 in a chain; this test drives node 1 (the relay) and node 0.
  World() : tables(3), ledger(3, 2, Time::zero(), 10_s) {
    tables.set(0, 1, {1, 0, 101});
    tables.set(0, 2, {1, 0, 101});
    tables.set(1, 2, {2, 0, 102});
    tables.set(1, 0, {0, 0, 100});
  }
  PacketPtr packet(std::uint32_t src, std::uint32_t dst, std::uint32_t flow) {
    PacketPtr p = pool.make(scheduler.now());
    p->src = src;
    p->dst = dst;
    p->flow = flow;
    p->size_bytes = 1500;
    p->transport.payload_bytes = 1500 - 28;  // a datagram: data, as the ledger counts it
    return p;
  }
  PacketPool pool;
  Scheduler scheduler;
  RoutingTables tables;
  PacketLedger ledger;
  NodeContext context{scheduler, tables, ledger};
};

TEST(Node, OriginatesThroughTheNextHopsInterfaceAndAddress) {
  World w;
  HoldingInterface radio;
  Node a(w.context, 0);
  a.add_interface(radio);
  a.receive(w.packet(0, 2, 0));
  ASSERT_EQ(radio.held.size(), 1u);
  EXPECT_EQ(radio.addresses[0], 101u);
  EXPECT_EQ(radio.held[0]->hops, 0);
  EXPECT_EQ(radio.held[0]->ttl, kDefaultTtl);
  EXPECT_EQ(a.counters().originated, 1u);
}

TEST(Node, ForwardsWithOneMoreHopAndOneLessTtl) {
  World w;
  HoldingInterface radio;
  Node relay(w.context, 1);
  relay.add_interface(radio);
  PacketPtr p = w.packet(0, 2, 0);
  w.ledger.originated(*p);
  relay.arrive(std::move(p), PrevHop{0, 100});
  ASSERT_EQ(radio.held.size(), 1u);
  EXPECT_EQ(radio.addresses[0], 102u);
  EXPECT_EQ(radio.held[0]->hops, 1);
  EXPECT_EQ(radio.held[0]->ttl, kDefaultTtl - 1);
  EXPECT_EQ(relay.counters().forwarded, 1u);
}

// A node that only originates and relays holds no block for endpoints, sources,
// wired links' ends and management handlers (issue 43 §3, memory per node); the
// first endpoint allocates it, and delivery then finds the endpoint there.
TEST(Node, OnlyANodeWithEndpointsOrHandlersHoldsTheirBlock) {
  World w;
  HoldingInterface radio;
  Node relay(w.context, 1);
  relay.add_interface(radio);
  PacketPtr p = w.packet(0, 2, 0);
  w.ledger.originated(*p);
  relay.arrive(std::move(p), PrevHop{0, 100});
  relay.receive(w.packet(1, 2, 0));
  relay.on_departure(*radio.held[1]);
  EXPECT_EQ(radio.held.size(), 2u);
  EXPECT_FALSE(relay.holds_attachments());
  Endpoint e;
  relay.set_endpoint(1, e);
  EXPECT_TRUE(relay.holds_attachments());
  PacketPtr q = w.packet(0, 1, 1);
  q->hops = 1;
  w.ledger.originated(*q);
  relay.arrive(std::move(q), PrevHop{0, 100});
  EXPECT_EQ(e.received.size(), 1u);
}

TEST(Node, DeliversToTheFlowsEndpoint) {
  World w;
  Endpoint e0, e1;
  Node gw(w.context, 2);
  gw.set_endpoint(0, e0);
  gw.set_endpoint(1, e1);
  PacketPtr p = w.packet(0, 2, 1);
  p->hops = 1;
  w.ledger.originated(*p);
  gw.arrive(std::move(p), PrevHop{0, 101});
  EXPECT_TRUE(e0.received.empty());
  ASSERT_EQ(e1.received.size(), 1u);
  EXPECT_EQ(e1.received[0]->hops, 2);
  EXPECT_EQ(w.ledger.flow_deliveries(1).packets, 1u);
  EXPECT_EQ(gw.counters().delivered, 1u);
}

TEST(Node, DropsAtTtlOneAndWithoutRouteRecordingNodeAndHops) {
  World w;
  HoldingInterface radio;
  Node relay(w.context, 1);
  relay.add_interface(radio);
  PacketPtr dying = w.packet(0, 2, 0);
  dying->ttl = 1;
  w.ledger.originated(*dying);
  relay.arrive(std::move(dying), PrevHop{0, 100});
  // A destination without an entry in the node's table.
  PacketPtr unroutable = w.packet(1, 0, 1);
  w.tables.clear(1, 0);
  relay.receive(std::move(unroutable));
  EXPECT_TRUE(radio.held.empty());
  const DropCounters& d = w.ledger.node_drops(1);
  EXPECT_EQ(d.by_cause[static_cast<std::size_t>(DropCause::ttl_expired)].packets, 1u);
  EXPECT_EQ(d.by_cause[static_cast<std::size_t>(DropCause::no_route)].packets, 1u);
  EXPECT_EQ(d.intra_mesh.packets, 1u);  // the TTL drop had made one hop
  EXPECT_EQ(d.intra_mesh_by_cause[static_cast<std::size_t>(DropCause::ttl_expired)].packets, 1u);
  EXPECT_EQ(d.intra_mesh_by_cause[static_cast<std::size_t>(DropCause::no_route)].packets, 0u);
  EXPECT_EQ(d.local.packets, 1u);       // the unroutable one had made none
  EXPECT_EQ(d.window_total.hop_weighted_bits, 1500u * 8u * 1u);
  // Nodes that dropped nothing have no counters of their own (issue 43 §3) and read
  // zeros; the node that dropped keeps its own.
  EXPECT_EQ(w.ledger.node_drops(0).total.packets, 0u);
  EXPECT_EQ(w.ledger.node_drops(2).total.packets, 0u);
  EXPECT_NE(&w.ledger.node_drops(0), &d);
  EXPECT_THROW(static_cast<void>(w.ledger.node_drops(3)), std::out_of_range);
}

// Node 0 has sent a packet towards node 1, the relay: its MAC holds it.
class SentToTheRelay : public ::testing::Test {
 protected:
  SentToTheRelay() {
    a.add_interface(radio_a);
    relay.add_interface(radio_relay);
    a.receive(w.packet(0, 2, 0));
  }
  World w;
  HoldingInterface radio_a, radio_relay;
  Node a{w.context, 0};
  Node relay{w.context, 1};
};

TEST_F(SentToTheRelay, ACopyDroppedAfterTheNextHopHadItIsNotALoss) {
  // The MAC hands the receiver a clone while keeping its own copy ...
  relay.arrive(w.pool.clone(*radio_a.held[0]), PrevHop{0, 100});
  // ... and later gives up on it (the ACKs were lost): not a loss.
  a.on_drop(std::move(radio_a.held[0]), DropCause::retry_limit, w.scheduler.now());
  radio_a.held.clear();
  EXPECT_EQ(w.ledger.all_drops().total.packets, 0u);
  EXPECT_EQ(w.ledger.stale_copy_drops(), 1u);
  // The relay's copy is still in the network.
  Conservation c = w.ledger.balance(w.pool);
  EXPECT_EQ(c.originated, 1u);
  EXPECT_EQ(c.in_network, 1u);
  EXPECT_TRUE(c.holds());
  // Dropped at the relay: now it is a loss, after one hop.
  relay.on_drop(std::move(radio_relay.held[0]), DropCause::queue_overflow, w.scheduler.now());
  radio_relay.held.clear();
  c = w.ledger.balance(w.pool);
  EXPECT_EQ(c.dropped, 1u);
  EXPECT_EQ(c.in_network, 0u);
  EXPECT_TRUE(c.holds());
  EXPECT_EQ(w.ledger.node_drops(1).intra_mesh.packets, 1u);
}

TEST_F(SentToTheRelay, AFalseDuplicateIsALossAtTheReceiverAfterTheHop) {
  // The sender's MAC released its copy on the ACK; the receiver's MAC discarded
  // the frame as a duplicate (mac/duplicate_filter.hpp) and hands the node a copy.
  PacketPtr sent = std::move(radio_a.held[0]);
  radio_a.held.clear();
  relay.on_drop(w.pool.clone(*sent), DropCause::false_duplicate, w.scheduler.now());
  sent.reset();  // the ACK came back
  const Conservation c = w.ledger.balance(w.pool);
  EXPECT_EQ(c.dropped, 1u);
  EXPECT_EQ(c.in_network, 0u);
  EXPECT_TRUE(c.holds());
  const DropCounters& d = w.ledger.node_drops(1);
  EXPECT_EQ(d.by_cause[static_cast<std::size_t>(DropCause::false_duplicate)].packets, 1u);
  EXPECT_EQ(d.intra_mesh.packets, 1u);  // it made the hop
  EXPECT_EQ(d.window_total.hop_weighted_bits, 1500u * 8u * 1u);
  EXPECT_EQ(w.ledger.node_drops(0).total.packets, 0u);
}

TEST(Node, ConservationCatchesAPacketThatVanished) {
  World w;
  HoldingInterface radio;
  Node a(w.context, 0);
  a.add_interface(radio);
  a.receive(w.packet(0, 2, 0));
  a.receive(w.packet(0, 2, 0));
  radio.held.pop_back();  // freed without a drop record
  const Conservation c = w.ledger.balance(w.pool);
  EXPECT_EQ(c.originated, 2u);
  EXPECT_EQ(c.in_network, 1u);
  EXPECT_EQ(c.unaccounted, 1u);
  EXPECT_FALSE(c.holds());
}

// A saturated source: counts its own packets waiting and is refilled at departures.
class CountingSource final : public BacklogSource {
 public:
  CountingSource(World& w, Node& node) : w_(w), node_(node) {}
  void refill() override {
    ++refills;
    node_.receive(w_.packet(0, 2, 0));
  }
  int refills = 0;

 private:
  World& w_;
  Node& node_;
};

TEST(Node, SaturatedSourceKeepsItsBacklogAndRetriesAfterARefusal) {
  World w;
  HoldingInterface radio;
  Node a(w.context, 0);
  a.add_interface(radio);
  CountingSource source(w, a);
  a.set_backlog_source(0, source, 2);
  a.receive(w.packet(0, 2, 0));
  a.receive(w.packet(0, 2, 0));  // the initial backlog of 2
  // One leaves for the air: one refill.
  a.on_departure(*radio.held[0]);
  EXPECT_EQ(source.refills, 1);
  // A forwarded packet leaving does not change the count: nothing to refill.
  Packet forwarded = *radio.held[1];
  forwarded.hops = 1;
  a.on_departure(forwarded);
  EXPECT_EQ(source.refills, 1);
  // The queue refuses one (full): the count drops and the next departure refills.
  a.on_drop(std::move(radio.held[2]), DropCause::queue_overflow, w.scheduler.now());
  EXPECT_EQ(source.refills, 1);
  a.on_departure(forwarded);
  EXPECT_EQ(source.refills, 2);
  // A retry-limit drop happens after departure: no double count.
  a.on_drop(std::move(radio.held[0]), DropCause::retry_limit, w.scheduler.now());
  a.on_departure(forwarded);
  EXPECT_EQ(source.refills, 2);
}

// A wired link's departures reach the node through the listener it hands out
// (held in its attachments' block), as a MAC interface's reach on_departure.
TEST(Node, AWiredLinksDepartureListenerRefillsTheSources) {
  World w;
  HoldingInterface wire;
  Node a(w.context, 0);
  a.add_interface(wire);
  CountingSource source(w, a);
  a.set_backlog_source(0, source, 1);
  a.receive(w.packet(0, 2, 0));
  DepartureListener& departures = a.departures();
  EXPECT_EQ(&departures, &a.departures());  // one listener, for as long as the node lives
  departures.on_departure(*wire.held[0]);
  EXPECT_EQ(source.refills, 1);
  EXPECT_EQ(wire.held.size(), 2u);
}

// The signals' subscriber list is allocated at the first subscription (issue 43
// §3, memory per node): a node nobody watches forwards without one.
class ForwardCounter final : public NodeSubscriber {
 public:
  void on_forwarded(std::uint32_t, Packet&, const PrevHop&, const NextHop&) override { ++forwarded; }
  int forwarded = 0;
};

TEST(Node, OnlyASubscribedNodeHoldsItsSignalsList) {
  World w;
  HoldingInterface radio;
  Node relay(w.context, 1);
  relay.add_interface(radio);
  const auto forward = [&] {
    PacketPtr p = w.packet(0, 2, 0);
    w.ledger.originated(*p);
    relay.arrive(std::move(p), PrevHop{0, 100});
  };
  ForwardCounter counter;
  relay.unsubscribe(counter);  // nobody yet: nothing to do, nothing allocated
  forward();
  EXPECT_FALSE(relay.holds_signals());
  relay.subscribe(counter);
  EXPECT_TRUE(relay.holds_signals());
  forward();
  EXPECT_EQ(counter.forwarded, 1);
  relay.unsubscribe(counter);
  forward();
  EXPECT_EQ(counter.forwarded, 1);
  EXPECT_EQ(radio.held.size(), 3u);
}

// Interfaces keep the numbers add_interface gave them as more are added; a number
// the node does not have is refused.
TEST(Node, InterfacesKeepTheirNumbersAndAnUnknownOneIsRefused) {
  World w;
  HoldingInterface first, second, third;
  Node a(w.context, 0);
  EXPECT_EQ(a.add_interface(first), 0u);
  EXPECT_EQ(a.add_interface(second), 1u);
  EXPECT_EQ(a.add_interface(third), 2u);
  EXPECT_EQ(a.interface_count(), 3u);
  a.send_control(w.packet(0, 2, 0), 0, 7);
  a.send_control(w.packet(0, 2, 0), 2, 9);
  a.send_control(w.packet(0, 2, 0), 1, 8);
  ASSERT_EQ(first.addresses, std::vector<std::uint32_t>{7});
  ASSERT_EQ(second.addresses, std::vector<std::uint32_t>{8});
  ASSERT_EQ(third.addresses, std::vector<std::uint32_t>{9});
  EXPECT_THROW(a.send_control(w.packet(0, 2, 0), 3, 1), std::out_of_range);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
