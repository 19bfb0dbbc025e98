// AODV (core/aodv.hpp) at exact times on small topologies, over a stub air: every
// frame takes 1 ms to cross a link; a unicast over a link that is down is given up
// 5 ms after it was sent, as a MAC at its retry limit would (the node's DropSink
// with retry_limit). Broadcast jitter is off, so every time below follows from
// RFC 3561's rules and defaults (NODE_TRAVERSAL_TIME 40 ms: RING_TRAVERSAL_TIME
// for TTL t is 80 ms * (t + 2); NET_TRAVERSAL_TIME 2.8 s).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "core/aodv.hpp"
#include "core/node.hpp"
#include "core/packet.hpp"
#include "core/packet_ledger.hpp"
#include "core/routing.hpp"
#include "core/scheduler.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;
using aodv::Aodv;
using aodv::AodvStats;
using aodv::DataDrop;
using aodv::Route;

constexpr Time kHop = 1_ms;
constexpr Time kGiveUp = 5_ms;
constexpr std::uint32_t radio_of(std::uint32_t node) { return 100 + node; }

class Endpoint final : public PacketSink {
 public:
  explicit Endpoint(Scheduler& s) : scheduler(s) {}
  void receive(PacketPtr packet) override {
    times.push_back(scheduler.now());
    ids.push_back(packet->id);
  }
  Scheduler& scheduler;
  std::vector<Time> times;
  std::vector<PacketId> ids;
};

// Nodes joined by links that can be cut; one radio (interface 0) per node.
class World {
 public:
  World(std::size_t n, std::vector<std::pair<std::uint32_t, std::uint32_t>> links, AodvParams params = quiet())
      : tables(n), ledger(n, 1, Time::zero(), 1000_s), sink(scheduler) {
    for (std::uint32_t i = 0; i < n; ++i) {
      nodes.push_back(std::make_unique<Node>(context, i));
      ports.push_back(std::make_unique<Port>(*this, i));
      nodes.back()->add_interface(*ports.back());
    }
    for (const auto& [a, b] : links) up.insert({std::min(a, b), std::max(a, b)});
    std::vector<Node*> raw;
    std::vector<RandomStream> jitter;
    for (auto& node : nodes) {
      raw.push_back(node.get());
      jitter.emplace_back(node->index() + 1);
    }
    agent = std::make_unique<Aodv>(scheduler, pool, params, raw, std::move(jitter));
  }
  static AodvParams quiet() {
    AodvParams p;
    p.broadcast_jitter = Time::zero();
    return p;
  }
  bool linked(std::uint32_t a, std::uint32_t b) const { return up.contains({std::min(a, b), std::max(a, b)}); }
  void cut(std::uint32_t a, std::uint32_t b) { up.erase({std::min(a, b), std::max(a, b)}); }

  // A data packet of flow 0 from `src` to `dst`, handed to src's node now.
  void send(std::uint32_t src, std::uint32_t dst) {
    nodes[dst]->set_endpoint(0, sink);
    PacketPtr p = pool.make(scheduler.now());
    p->src = src;
    p->dst = dst;
    p->flow = 0;
    p->size_bytes = 1000;
    nodes[src]->receive(std::move(p));
  }
  const AodvStats& stats(std::uint32_t node) const { return agent->stats(node); }
  std::uint64_t frames(std::uint32_t node, std::size_t type) const { return stats(node).sent_frames[type]; }

  // Declared first: every packet goes back to it before it is destroyed.
  PacketPool pool;
  Scheduler scheduler;
  RoutingTables tables;
  PacketLedger ledger;
  NodeContext context{scheduler, tables, ledger};
  Endpoint sink;
  std::set<std::pair<std::uint32_t, std::uint32_t>> up;
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::unique_ptr<NetInterface>> ports;
  std::unique_ptr<Aodv> agent;

 private:
  class Port final : public NetInterface {
   public:
    Port(World& w, std::uint32_t node) : w_(w), node_(node) {}
    void send(PacketPtr packet, std::uint32_t address) override {
      packet->next_hop_radio = address;  // as a MAC interface does
      Scheduler& s = w_.scheduler;
      if (address == kBroadcastRadio) {
        for (std::uint32_t to = 0; to < w_.nodes.size(); ++to) {
          if (to == node_ || !w_.linked(node_, to)) continue;
          s.schedule_in(kHop, [this, to, p = w_.pool.clone(*packet)]() mutable {
            w_.nodes[to]->arrive(std::move(p), PrevHop{0, radio_of(node_)});
          });
        }
        return;
      }
      const std::uint32_t to = address - 100;
      if (!w_.linked(node_, to)) {
        s.schedule_in(kGiveUp, [this, p = std::move(packet)]() mutable {
          w_.nodes[node_]->on_drop(std::move(p), DropCause::retry_limit, w_.scheduler.now());
        });
        return;
      }
      s.schedule_in(kHop, [this, to, p = std::move(packet)]() mutable {
        w_.nodes[to]->arrive(std::move(p), PrevHop{0, radio_of(node_)});
      });
    }

   private:
    World& w_;
    std::uint32_t node_;
  };
};

constexpr std::size_t kRreq = 0, kRrep = 1, kRerr = 2, kHello = 3;

TEST(Aodv, ExpandingRingFindsTheChainAndDeliversTheHeldPacket) {
  World w(3, {{0, 1}, {1, 2}});  // A - B - C
  w.send(0, 2);
  EXPECT_EQ(w.agent->held(0), 1u);
  w.scheduler.run_until(10_s);
  // TTL_START 1: A's first RREQ reaches B only (no rebroadcast at TTL 1). After
  // RING_TRAVERSAL_TIME(1) = 240 ms, TTL 3: B rebroadcasts at 241 ms, C answers at
  // 242 ms, B forwards the RREP at 243 ms, A has its route at 244 ms and sends the
  // packet: B at 245 ms, C at 246 ms.
  ASSERT_EQ(w.sink.times.size(), 1u);
  EXPECT_EQ(w.sink.times[0], 246_ms);
  EXPECT_EQ(w.stats(0).discoveries, 1u);
  EXPECT_EQ(w.stats(0).discoveries_found, 1u);
  EXPECT_EQ(w.stats(0).rreq_attempts, 2u);
  EXPECT_DOUBLE_EQ(w.stats(0).discovery_latency_sum_s, 0.244);
  EXPECT_EQ(w.frames(0, kRreq), 2u);
  EXPECT_EQ(w.frames(1, kRreq), 1u);  // the TTL-3 copy only; A's copy back is a duplicate
  EXPECT_EQ(w.frames(1, kRrep), 1u);
  EXPECT_EQ(w.frames(2, kRrep), 1u);
  EXPECT_EQ(w.frames(2, kRreq), 0u);  // the destination answers, it does not rebroadcast
  // RFC 5: RREQ 24 B, RREP 20 B, over IP (20) and UDP (8).
  EXPECT_EQ(w.stats(0).sent_bytes[kRreq], 2u * 52u);
  EXPECT_EQ(w.stats(2).sent_bytes[kRrep], 48u);
  // Routes: A -> C via B (2 hops, C's sequence number 0 with RFC 6.6.1: a RREQ
  // with an unknown sequence number does not raise it), C -> A via B.
  const Route* to_c = w.agent->route(0, 2);
  ASSERT_NE(to_c, nullptr);
  EXPECT_EQ(to_c->next.node, 1u);
  EXPECT_EQ(to_c->next.address, radio_of(1));
  EXPECT_EQ(to_c->hops, 2);
  EXPECT_TRUE(to_c->valid_seq);
  EXPECT_EQ(w.agent->route(2, 0)->next.node, 1u);
  EXPECT_EQ(w.agent->route(2, 0)->seq, 2u);  // A's own number, raised before each of its RREQs
  // RFC 6.7: B forwarded the RREP to A, so A is a precursor of B's route to C.
  EXPECT_EQ(w.agent->route(1, 2)->precursors, std::vector<std::uint32_t>{0});
  const Conservation c = w.ledger.balance(w.pool);
  EXPECT_TRUE(c.holds());
  EXPECT_EQ(c.delivered, 1u);
}

TEST(Aodv, RoutesExpireUnusedAndUseKeepsThemAlive) {
  World w(3, {{0, 1}, {1, 2}});
  w.send(0, 2);
  w.scheduler.run_until(1_s);
  ASSERT_TRUE(w.agent->active(0, 2));
  // The RREP gave A's route MY_ROUTE_TIMEOUT (6 s) from 244 ms; a packet at 5 s
  // keeps it ACTIVE_ROUTE_TIMEOUT (3 s) beyond, so it is still active at 7.5 s.
  w.scheduler.schedule_at(5_s, [&] { w.send(0, 2); });
  w.scheduler.run_until(7500_ms);
  EXPECT_TRUE(w.agent->active(0, 2));
  EXPECT_EQ(w.sink.times.size(), 2u);
  EXPECT_EQ(w.sink.times[1], 5_s + 2 * kHop);
  w.scheduler.run_until(8500_ms);
  EXPECT_FALSE(w.agent->active(0, 2));
}

TEST(Aodv, IntermediateNodeWithAFreshRouteAnswers) {
  World w(4, {{0, 1}, {1, 2}, {1, 3}});  // A - B - C, and D beside B
  w.send(0, 2);
  w.scheduler.run_until(1_s);
  const std::uint64_t c_rreps = w.frames(2, kRrep);
  w.scheduler.schedule_at(2_s, [&] { w.send(3, 2); });
  w.scheduler.run_until(3_s);
  // RFC 6.6.2: B holds an active route to C with a valid sequence number, and D's
  // RREQ asks for none: B answers at once; D's route is found after 2 ms.
  EXPECT_EQ(w.frames(2, kRrep), c_rreps);
  EXPECT_DOUBLE_EQ(w.stats(3).discovery_latency_sum_s, 0.002);
  ASSERT_EQ(w.sink.times.size(), 2u);
  EXPECT_EQ(w.sink.times[1], 2_s + 4 * kHop);
  EXPECT_EQ(w.agent->route(3, 2)->hops, 2);
  // D became a precursor of B's route to C (RFC 6.6.2), beside A.
  EXPECT_EQ(w.agent->route(1, 2)->precursors, (std::vector<std::uint32_t>{0, 3}));
}

TEST(Aodv, LinkBreakSendsRerrAndTheSourceRediscovers) {
  // A - B - C and A - D - C: the first discovery takes B (its copy of the TTL-3
  // RREQ reaches C first: B is A's first neighbour, the events keep their order).
  World w(4, {{0, 1}, {1, 2}, {0, 3}, {3, 2}});
  w.send(0, 2);
  w.scheduler.run_until(1_s);
  ASSERT_EQ(w.agent->route(0, 2)->next.node, 1u);
  // RFC 6.5: C heard the TTL-3 RREQ twice (via B, then via D) and answered once;
  // D's copy was a duplicate, so C's route back to A stays through B.
  EXPECT_EQ(w.frames(2, kRrep), 1u);
  EXPECT_EQ(w.agent->route(2, 0)->next.node, 1u);
  w.cut(1, 2);
  w.scheduler.schedule_at(2_s, [&] { w.send(0, 2); });
  // The packet reaches B at 2.001 s; B's unicast to C is given up at 2.006 s: the
  // route breaks (RFC 6.11 (i)), C's sequence number at B goes up by one, and B's
  // RERR (A is the one precursor: unicast) reaches A at 2.007 s.
  w.scheduler.run_until(2006_ms);
  EXPECT_TRUE(w.agent->active(0, 2));
  w.scheduler.run_until(2007_ms);
  EXPECT_EQ(w.stats(1).link_failures, 1u);
  EXPECT_EQ(w.stats(1).route_breaks, 1u);
  EXPECT_EQ(w.frames(1, kRerr), 1u);
  EXPECT_FALSE(w.agent->route(1, 2)->valid);
  EXPECT_EQ(w.agent->route(1, 2)->seq, 1u);
  EXPECT_FALSE(w.agent->active(0, 2));
  EXPECT_EQ(w.agent->route(0, 2)->seq, 1u);  // copied from the RERR
  // The lost packet is counted where it was given up.
  EXPECT_EQ(w.ledger.node_drops(1).by_cause[static_cast<std::size_t>(DropCause::retry_limit)].packets, 1u);
  // The next packet (3 s) finds no route: A rediscovers with TTL = 2 hops + 2, asking
  // for C's sequence number 1 or newer: only C can answer (B's route is invalid),
  // through D: RREQ at D 3.001 s, C 3.002 s, RREP at D 3.003 s, at A 3.004 s.
  w.scheduler.schedule_at(3_s, [&] { w.send(0, 2); });
  w.scheduler.run_until(4_s);
  EXPECT_EQ(w.agent->route(0, 2)->next.node, 3u);
  EXPECT_EQ(w.stats(0).discoveries, 2u);
  EXPECT_DOUBLE_EQ(w.stats(0).discovery_latency_max_s, 0.244);
  EXPECT_DOUBLE_EQ(w.stats(0).discovery_latency_sum_s, 0.244 + 0.004);
  ASSERT_EQ(w.sink.times.size(), 2u);
  EXPECT_EQ(w.sink.times[1], 3006_ms);
  EXPECT_TRUE(w.ledger.balance(w.pool).holds());
}

TEST(Aodv, RerrTravelsBackThroughThePrecursors) {
  World w(4, {{0, 1}, {1, 2}, {2, 3}});  // A - B - C - D
  w.send(0, 3);
  // TTL 1 fails (240 ms); TTL 3 reaches D at 243 ms; the RREP is back at A at
  // 246 ms; the packet arrives at 249 ms.
  w.scheduler.run_until(1_s);
  ASSERT_EQ(w.sink.times.size(), 1u);
  EXPECT_EQ(w.sink.times[0], 249_ms);
  EXPECT_EQ(w.agent->route(2, 3)->precursors, std::vector<std::uint32_t>{1});
  EXPECT_EQ(w.agent->route(1, 3)->precursors, std::vector<std::uint32_t>{0});
  w.cut(2, 3);
  w.scheduler.schedule_at(2_s, [&] { w.send(0, 3); });
  // C gives the packet up at 2.007 s (sent at 2.002 s); RFC 6.11: C's RERR goes to
  // its one precursor B (2.008 s), whose route to D went through C, so B sends it
  // on to its precursor A (2.009 s). The sequence number C raised travels with it.
  w.scheduler.run_until(2007_ms);
  EXPECT_FALSE(w.agent->route(2, 3)->valid);
  EXPECT_TRUE(w.agent->active(1, 3));
  w.scheduler.run_until(2008_ms);
  EXPECT_FALSE(w.agent->route(1, 3)->valid);
  EXPECT_TRUE(w.agent->active(0, 3));
  w.scheduler.run_until(2009_ms);
  EXPECT_FALSE(w.agent->route(0, 3)->valid);
  for (const std::uint32_t n : {0u, 1u, 2u}) EXPECT_EQ(w.agent->route(n, 3)->seq, 1u) << n;
  EXPECT_EQ(w.frames(2, kRerr), 1u);
  EXPECT_EQ(w.frames(1, kRerr), 1u);
  EXPECT_EQ(w.frames(0, kRerr), 0u);  // A has no precursor for D
  // B's route to C is untouched: only routes through the sender are invalidated.
  EXPECT_TRUE(w.agent->active(1, 2));
}

TEST(Aodv, UnreachableDestinationDropsTheHeldPacketsAfterTheRetries) {
  World w(3, {{0, 1}});  // C has no link
  w.send(0, 2);
  w.send(0, 2);
  // Rings of TTL 1, 3, 5, 7 (240 + 400 + 560 + 720 ms), then NET_DIAMETER: NET_TRAVERSAL_TIME
  // 2.8 s and RREQ_RETRIES = 2 retries waiting 5.6 s and 11.2 s (binary exponential
  // backoff): the discovery fails at 21.52 s.
  w.scheduler.run_until(21519_ms);
  EXPECT_EQ(w.agent->held(0), 2u);
  EXPECT_EQ(w.stats(0).rreq_attempts, 7u);
  w.scheduler.run_until(21520_ms);
  EXPECT_EQ(w.agent->held(0), 0u);
  EXPECT_EQ(w.stats(0).discoveries, 1u);
  EXPECT_EQ(w.stats(0).discoveries_failed, 1u);
  EXPECT_EQ(w.stats(0).data_drops[static_cast<std::size_t>(DataDrop::discovery_failed)], 2u);
  const DropCounters& drops = w.ledger.node_drops(0);
  EXPECT_EQ(drops.by_cause[static_cast<std::size_t>(DropCause::no_route)].packets, 2u);
  EXPECT_TRUE(w.ledger.balance(w.pool).holds());
  EXPECT_EQ(w.ledger.balance(w.pool).dropped, 2u);
  // B heard every RREQ of A and rebroadcast those with TTL > 1 (6 of 7); the
  // broadcast copies come back to A as duplicates of its own.
  EXPECT_EQ(w.frames(1, kRreq), 6u);
}

TEST(Aodv, HeldPacketsAreBoundedAndTimeOut) {
  AodvParams p = World::quiet();
  p.buffer_packets = 2;
  p.buffer_timeout = 1_s;
  World w(2, {}, p);  // nobody in reach
  w.send(0, 1);
  w.send(0, 1);
  w.scheduler.schedule_at(500_ms, [&] { w.send(0, 1); });
  w.scheduler.run_until(500_ms);
  // The third packet pushes out the oldest (ns-2's aodv_rqueue rule).
  EXPECT_EQ(w.stats(0).data_drops[static_cast<std::size_t>(DataDrop::buffer_full)], 1u);
  EXPECT_EQ(w.agent->held(0), 2u);
  w.scheduler.run_until(999_ms);
  EXPECT_EQ(w.agent->held(0), 2u);
  w.scheduler.run_until(1_s);  // the second packet's second is up
  EXPECT_EQ(w.agent->held(0), 1u);
  w.scheduler.run_until(1500_ms);
  EXPECT_EQ(w.agent->held(0), 0u);
  EXPECT_EQ(w.stats(0).data_drops[static_cast<std::size_t>(DataDrop::buffer_timeout)], 2u);
  EXPECT_EQ(w.stats(0).held, 3u);
  EXPECT_TRUE(w.ledger.balance(w.pool).holds());
}

TEST(Aodv, ForwardingWithoutARouteDropsAndReportsIt) {
  World w(3, {{0, 1}, {1, 2}});
  w.send(0, 2);
  w.scheduler.run_until(1_s);
  // After 20 s of silence B's route to C has expired; a packet for C arrives at B
  // from A all the same (as from a neighbour with an older route).
  w.scheduler.run_until(20_s);
  ASSERT_FALSE(w.agent->active(1, 2));
  PacketPtr p = w.pool.make(w.scheduler.now());
  p->src = 0;
  p->dst = 2;
  p->flow = 0;
  p->size_bytes = 100;
  w.ledger.originated(*p);
  w.nodes[1]->arrive(std::move(p), PrevHop{0, radio_of(0)});
  // RFC 6.11 (ii): dropped at B, and a RERR broadcast about C.
  EXPECT_EQ(w.stats(1).data_drops[static_cast<std::size_t>(DataDrop::forward_no_route)], 1u);
  EXPECT_EQ(w.frames(1, kRerr), 1u);
  EXPECT_EQ(w.ledger.node_drops(1).by_cause[static_cast<std::size_t>(DropCause::no_route)].packets, 1u);
}

TEST(Aodv, HelloLossBreaksTheLinkWithoutTraffic) {
  AodvParams p = World::quiet();
  p.hello = true;
  World w(3, {{0, 1}, {1, 2}}, p);
  w.send(0, 2);
  w.scheduler.run_until(2_s);
  ASSERT_TRUE(w.agent->active(1, 2));
  EXPECT_GT(w.frames(1, kHello), 0u);
  w.cut(1, 2);
  // No data: B notices C's silence once more than ALLOWED_HELLO_LOSS *
  // HELLO_INTERVAL (2 s) has passed since the last HELLO it heard (after 1 s: they
  // come every second), at one of its own ticks (1 s apart): after 3 s, by 5 s.
  w.scheduler.run_until(3_s);
  EXPECT_EQ(w.stats(1).route_breaks, 0u);
  w.scheduler.run_until(5100_ms);
  EXPECT_EQ(w.stats(1).route_breaks, 1u);
  EXPECT_FALSE(w.agent->active(1, 2));
  EXPECT_FALSE(w.agent->active(0, 2));
}

TEST(Aodv, ControlPacketsCarryTheirMessages) {
  PacketPool pool;
  PacketPtr p = pool.make(Time::zero());
  aodv::Rreq m;
  m.hop_count = 3;
  m.rreq_id = 7;
  m.dst = 9;
  m.dst_seq = 11;
  m.orig = 2;
  m.orig_seq = 5;
  m.flags = aodv::Rreq::kUnknownSeq;
  aodv::encode(*p, m);
  EXPECT_EQ(p->size_bytes, 20u + 8u + 24u);
  EXPECT_TRUE(aodv::is_aodv(*p));
  const PacketPtr copy = pool.clone(*p);
  const aodv::Rreq back = aodv::decode<aodv::Rreq>(*copy);
  EXPECT_EQ(back.rreq_id, 7u);
  EXPECT_EQ(back.dst_seq, 11u);
  EXPECT_EQ(back.orig_seq, 5u);
  EXPECT_EQ(back.hop_count, 3);
  EXPECT_THROW(aodv::decode<aodv::Rrep>(*copy), std::logic_error);
  aodv::Rerr e;
  e.count = 2;
  aodv::encode(*p, e);
  EXPECT_EQ(p->size_bytes, 20u + 8u + 4u + 16u);
  // RFC 6.1: rollover-safe comparison.
  EXPECT_TRUE(aodv::seq_newer(1, 0xffffffffu));
  EXPECT_FALSE(aodv::seq_newer(5, 5));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
