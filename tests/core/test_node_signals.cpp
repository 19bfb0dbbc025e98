// Node signals (core/node_signals.hpp): originated, forwarded (with its previous
// and next hop), delivered and dropped, each fired exactly once per event, to
// every subscriber in the order they subscribed; a subscriber's edit of a
// forwarded packet's header reaches the next node.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/node.hpp"
#include "core/node_signals.hpp"
#include "core/packet.hpp"
#include "core/packet_ledger.hpp"
#include "core/routing.hpp"
#include "core/scheduler.hpp"
#include "link/wired_link.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

// Records every signal, tagged with the subscriber's name.
struct Event {
  std::string who, what;
  std::uint32_t node = 0;
  PacketId id = 0;
  PrevHop from;
  NextHop to;
  DropCause cause = DropCause::queue_overflow;
};

class Recorder final : public NodeSubscriber {
 public:
  Recorder(std::string name, std::vector<Event>& log) : name_(std::move(name)), log_(log) {}
  void on_originated(std::uint32_t node, Packet& p) override {
    log_.push_back({name_, "originated", node, p.id, {}, {}});
  }
  void on_forwarded(std::uint32_t node, Packet& p, const PrevHop& from, const NextHop& to) override {
    log_.push_back({name_, "forwarded", node, p.id, from, to});
    if (stamp) p.transport.window_bytes = stamp;  // e.g. 003's feedback stamped on the way
  }
  void on_delivered(std::uint32_t node, Packet& p, const PrevHop& from) override {
    log_.push_back({name_, "delivered", node, p.id, from, {}});
    delivered_window = p.transport.window_bytes;
  }
  void on_dropped(std::uint32_t node, const Packet& p, DropCause cause) override {
    log_.push_back({name_, "dropped", node, p.id, {}, {}, cause});
  }
  std::uint32_t stamp = 0;
  std::uint32_t delivered_window = 0;

 private:
  std::string name_;
  std::vector<Event>& log_;
};

// An interface that hands the packet straight to the next node, as arriving from
// `from` there.
class Wire final : public NetInterface {
 public:
  Wire(Node& to, PrevHop from) : to_(to), from_(from) {}
  void send(PacketPtr packet, std::uint32_t address) override {
    addresses.push_back(address);
    to_.arrive(std::move(packet), from_);
  }
  std::vector<std::uint32_t> addresses;

 private:
  Node& to_;
  PrevHop from_;
};

class Endpoint final : public PacketSink {
 public:
  void receive(PacketPtr packet) override { received.push_back(std::move(packet)); }
  std::vector<PacketPtr> received;
};

// Nodes 0 - 1 - 2 in a chain, each hop a Wire: 0's interface 0 reaches 1 (address
// 101), 1's interface 1 reaches 2 (address 102); 1 receives from 0 on its
// interface 0 (address 100), 2 from 1 on its interface 0 (address 101).
struct Chain {
  Chain() : tables(3), ledger(3, 1, Time::zero(), 10_s) {
    tables.set(0, 2, {1, 0, 101});
    tables.set(0, 1, {1, 0, 101});
    tables.set(1, 2, {2, 1, 102});
    n0.add_interface(w01);
    n1.add_interface(w10);
    n1.add_interface(w12);
    n2.add_interface(w21);
    n2.set_endpoint(0, sink);
  }
  PacketPtr packet(std::uint32_t src, std::uint32_t dst) {
    PacketPtr p = pool.make(scheduler.now());
    p->src = src;
    p->dst = dst;
    p->flow = 0;
    p->size_bytes = 1000;
    return p;
  }
  PacketPool pool;
  Scheduler scheduler;
  RoutingTables tables;
  PacketLedger ledger;
  NodeContext context{scheduler, tables, ledger};
  Node n0{context, 0}, n1{context, 1}, n2{context, 2};
  Wire w01{n1, PrevHop{0, 100}}, w10{n0, PrevHop{0, 101}}, w12{n2, PrevHop{0, 101}}, w21{n1, PrevHop{1, 102}};
  Endpoint sink;
};

TEST(NodeSignals, EachHopFiresOnceWithItsFields) {
  Chain c;
  std::vector<Event> log;
  Recorder r0("r", log), r1("r", log), r2("r", log);
  c.n0.subscribe(r0);
  c.n1.subscribe(r1);
  c.n2.subscribe(r2);
  PacketPtr p = c.packet(0, 2);
  const PacketId id = p->id;
  c.n0.receive(std::move(p));

  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].what, "originated");
  EXPECT_EQ(log[0].node, 0u);
  EXPECT_EQ(log[0].id, id);
  EXPECT_EQ(log[1].what, "forwarded");
  EXPECT_EQ(log[1].node, 1u);
  EXPECT_EQ(log[1].from, (PrevHop{0, 100}));
  EXPECT_EQ(log[1].to.node, 2u);
  EXPECT_EQ(log[1].to.interface, 1u);
  EXPECT_EQ(log[1].to.address, 102u);
  EXPECT_EQ(log[2].what, "delivered");
  EXPECT_EQ(log[2].node, 2u);
  EXPECT_EQ(log[2].from, (PrevHop{0, 101}));
  EXPECT_EQ(c.sink.received.size(), 1u);
  // The counters are as they were.
  EXPECT_EQ(c.n0.counters().originated, 1u);
  EXPECT_EQ(c.n1.counters().forwarded, 1u);
  EXPECT_EQ(c.n2.counters().delivered, 1u);
}

TEST(NodeSignals, AForwardedPacketsHeaderEditReachesTheNextNode) {
  Chain c;
  std::vector<Event> log;
  Recorder relay("relay", log), gw("gw", log);
  relay.stamp = 4242;
  c.n1.subscribe(relay);
  c.n2.subscribe(gw);
  c.n0.receive(c.packet(0, 2));
  ASSERT_EQ(c.sink.received.size(), 1u);
  EXPECT_EQ(c.sink.received[0]->transport.window_bytes, 4242u);
  EXPECT_EQ(gw.delivered_window, 4242u);  // the delivered signal sees it too
  // The forwarded packet had its TTL taken before the signal: the edit left it.
  EXPECT_EQ(c.sink.received[0]->ttl, kDefaultTtl - 1);
}

TEST(NodeSignals, SeveralSubscribersInOrderAndUnsubscribe) {
  Chain c;
  std::vector<Event> log;
  Recorder first("first", log), second("second", log);
  c.n1.subscribe(first);
  c.n1.subscribe(second);
  c.n0.receive(c.packet(0, 2));
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].who, "first");
  EXPECT_EQ(log[1].who, "second");
  c.n1.unsubscribe(first);
  c.n0.receive(c.packet(0, 2));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[2].who, "second");
}

TEST(NodeSignals, DropsAtForwardingFireOnceWithTheirCause) {
  Chain c;
  std::vector<Event> log;
  Recorder r("r", log);
  c.n1.subscribe(r);
  // TTL: a packet that would leave with TTL 0.
  PacketPtr dying = c.packet(0, 2);
  dying->ttl = 1;
  c.ledger.originated(*dying);
  const PacketId dying_id = dying->id;
  c.n1.arrive(std::move(dying), PrevHop{0, 100});
  // No route: from the node's own endpoint ...
  c.tables.clear(1, 2);
  PacketPtr local = c.packet(1, 2);
  const PacketId local_id = local->id;
  c.n1.receive(std::move(local));
  // ... and when forwarding.
  PacketPtr transit = c.packet(0, 2);
  c.ledger.originated(*transit);
  const PacketId transit_id = transit->id;
  c.n1.arrive(std::move(transit), PrevHop{0, 100});

  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[0].what, "dropped");
  EXPECT_EQ(log[0].id, dying_id);
  EXPECT_EQ(log[0].cause, DropCause::ttl_expired);
  EXPECT_EQ(log[1].what, "originated");  // originated, then dropped: no route
  EXPECT_EQ(log[1].id, local_id);
  EXPECT_EQ(log[2].what, "dropped");
  EXPECT_EQ(log[2].id, local_id);
  EXPECT_EQ(log[2].cause, DropCause::no_route);
  EXPECT_EQ(log[3].what, "dropped");  // never forwarded: no forwarded signal
  EXPECT_EQ(log[3].id, transit_id);
  EXPECT_EQ(log[3].cause, DropCause::no_route);
}

TEST(NodeSignals, AQueueDropReachesTheSubscribers) {
  // Node 0 sends over a wired link whose queue holds one packet besides the one
  // being serialized: the third of three back-to-back packets overflows.
  PacketPool pool;
  Scheduler scheduler;
  RoutingTables tables(2);
  tables.set(0, 1, {1, 0, 1});
  PacketLedger ledger(2, 1, Time::zero(), 10_s);
  const NodeContext context{scheduler, tables, ledger};
  Node n0(context, 0), n1(context, 1);
  Endpoint sink;
  n1.set_endpoint(0, sink);
  link::WiredLink link(scheduler, 1e6, 1_ms, link::QueueLimit{link::QueueLimit::Unit::packets, 1}, n1.arrivals(PrevHop{0, 0}), n0);
  link::WiredInterface wired(link);
  n0.add_interface(wired);
  std::vector<Event> log;
  Recorder r0("r0", log), r1("r1", log);
  n0.subscribe(r0);
  n1.subscribe(r1);
  std::vector<PacketId> ids;
  for (int i = 0; i < 3; ++i) {
    PacketPtr p = pool.make(scheduler.now());
    p->src = 0;
    p->dst = 1;
    p->flow = 0;
    p->size_bytes = 1000;
    ids.push_back(p->id);
    n0.receive(std::move(p));
  }
  scheduler.run_until(1_s);
  int originated = 0, dropped = 0, delivered = 0;
  for (const Event& e : log) {
    if (e.what == "originated") ++originated;
    if (e.what == "dropped") {
      ++dropped;
      EXPECT_EQ(e.who, "r0");
      EXPECT_EQ(e.id, ids[2]);
      EXPECT_EQ(e.cause, DropCause::queue_overflow);
    }
    if (e.what == "delivered") {
      ++delivered;
      EXPECT_EQ(e.who, "r1");
      EXPECT_EQ(e.from, (PrevHop{0, 0}));  // arrivals() tags the wired link's far end
    }
  }
  EXPECT_EQ(originated, 3);
  EXPECT_EQ(dropped, 1);
  EXPECT_EQ(delivered, 2);
  EXPECT_EQ(sink.received.size(), 2u);
}

// Tries to subscribe another subscriber from inside a signal.
class Meddler final : public NodeSubscriber {
 public:
  Meddler(Node& node, NodeSubscriber& other) : node_(node), other_(other) {}
  void on_originated(std::uint32_t, Packet&) override {
    try {
      node_.subscribe(other_);
    } catch (const std::logic_error&) {
      refused = true;
    }
  }
  bool refused = false;

 private:
  Node& node_;
  NodeSubscriber& other_;
};

TEST(NodeSignals, TheListCannotChangeWhileASignalFires) {
  Chain c;
  std::vector<Event> log;
  Recorder r("r", log);
  Meddler m(c.n0, r);
  c.n0.subscribe(m);
  c.n0.receive(c.packet(0, 2));
  EXPECT_TRUE(m.refused);
  EXPECT_TRUE(log.empty());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
