#pragma once
// AODV (RFC 3561) as a routing protocol that runs over the simulated air: one
// agent for the whole network holding each node's state, attached to every node
// as its RouteAgent (core/route_agent.hpp). Its RREQs, RREPs and RERRs are real
// packets (core/aodv_message.hpp: IP + UDP port 654 + the RFC's message sizes)
// that the nodes send through their interfaces: broadcasts without ACK or retry,
// unicasts with them, in the same MAC queues as data.
//
// What is implemented, by RFC 3561 section (docs/aodv.md has the full list and
// what is simplified):
//  - 6.1 sequence numbers (own one incremented before a RREQ, and by the
//    destination when a RREQ asks for the next one; signed 32-bit comparison);
//  - 6.2 route table entries, their lifetimes, kept alive by use
//    (ACTIVE_ROUTE_TIMEOUT), the update rules, precursor lists;
//  - 6.3, 6.4 route discovery: RREQ with the expanding ring search (TTL_START,
//    TTL_INCREMENT, TTL_THRESHOLD, RING_TRAVERSAL_TIME), then RREQ_RETRIES
//    network-wide attempts with a binary exponential backoff of
//    NET_TRAVERSAL_TIME; data held meanwhile (bounded, with a timeout), dropped
//    when discovery fails;
//  - 6.5 RREQ processing: the route to the previous hop, duplicate suppression by
//    (originator, RREQ ID) for PATH_DISCOVERY_TIME, the reverse route, rebroadcast
//    with jitter (RFC 5148) while the IP TTL allows;
//  - 6.6 RREP generation by the destination and by an intermediate node with a
//    fresh enough route (its precursors updated);
//  - 6.7 RREP forwarding along the reverse path, creating the forward route;
//  - 6.9 HELLO messages (optional);
//  - 6.11 route errors: a link break from the MAC (a unicast frame given up at the
//    retry limit) invalidates the routes through that neighbour (their sequence
//    numbers incremented) and sends a RERR to the precursors; a data packet to
//    forward with no route is dropped and reported by RERR; a RERR received
//    invalidates the routes through its sender and goes on to their precursors.
//
// Every drop of a data packet goes through its node with DropCause::no_route (the
// ledger's word); AodvStats keeps the finer cause (buffer full, buffer timeout,
// discovery failed, no route while forwarding).
//
// Cost: a data packet's lookup is one ordered-map search in its node's table (the
// destinations it knows); the rest happens per control packet.

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/aodv_message.hpp"
#include "core/aodv_params.hpp"
#include "core/decision_observer.hpp"
#include "core/random.hpp"
#include "core/route_agent.hpp"
#include "core/scheduler.hpp"

namespace wmnsim {

class Node;

namespace aodv {

// Why a held or forwarded data packet was given up (all DropCause::no_route).
enum class DataDrop : std::uint8_t { buffer_full, buffer_timeout, discovery_failed, forward_no_route };
inline constexpr std::size_t kDataDropCount = 4;
constexpr std::string_view to_string(DataDrop d) {
  constexpr std::array<std::string_view, kDataDropCount> names{"buffer_full", "buffer_timeout", "discovery_failed",
                                                               "forward_no_route"};
  return names[static_cast<std::size_t>(d)];
}

// One node's routing overhead and route events over the whole run.
struct AodvStats {
  // Control packets handed to an interface, by message type (RREQ, RREP, RERR;
  // HELLOs are RREPs, counted apart), and their IP bytes.
  std::array<std::uint64_t, 4> sent_frames{};  // rreq, rrep, rerr, hello
  std::array<std::uint64_t, 4> sent_bytes{};
  std::uint64_t received = 0;         // control packets received
  std::uint64_t control_dropped = 0;  // control packets a queue or a MAC dropped (a receiver's: false duplicates)
  std::uint64_t discoveries = 0;      // route discoveries started (one per destination wanted)
  std::uint64_t discoveries_found = 0;
  std::uint64_t discoveries_failed = 0;
  std::uint64_t rreq_attempts = 0;  // RREQs originated: first attempts, wider rings and retries
  double discovery_latency_sum_s = 0.0;  // of those found: first RREQ to the RREP's arrival
  double discovery_latency_max_s = 0.0;
  std::uint64_t link_failures = 0;  // retry-limit notices (and HELLO losses) from the link layer
  std::uint64_t route_breaks = 0;   // of those, the ones that invalidated routes
  std::uint64_t held = 0;           // data packets held during discovery
  std::array<std::uint64_t, kDataDropCount> data_drops{};
  std::uint64_t sent_frames_total() const { return sent_frames[0] + sent_frames[1] + sent_frames[2] + sent_frames[3]; }
  std::uint64_t sent_bytes_total() const { return sent_bytes[0] + sent_bytes[1] + sent_bytes[2] + sent_bytes[3]; }
};

// A route table entry (RFC 3561 6.2).
struct Route {
  std::uint32_t seq = 0;
  bool valid_seq = false;
  bool valid = false;  // the RFC's "valid" flag; active while also before `lifetime`
  std::uint8_t hops = 0;
  NextHop next;
  Time lifetime;
  std::vector<std::uint32_t> precursors;  // node indices, ascending
};

class Aodv final : public RouteAgent {
 public:
  // Attaches itself to every node (Node::set_route_agent) and detaches when
  // destroyed. `jitter`: one stream per node (its broadcast jitter and HELLO
  // phase), so the draws of one node do not depend on another's.
  Aodv(Scheduler& scheduler, PacketPool& pool, const AodvParams& params, std::span<Node* const> nodes,
       std::vector<RandomStream> jitter);
  ~Aodv() override;
  Aodv(const Aodv&) = delete;
  Aodv& operator=(const Aodv&) = delete;

  const NextHop* next_hop(std::uint32_t node, const Packet& packet, const PrevHop* from) override;
  void no_route(std::uint32_t node, PacketPtr packet, const PrevHop* from) override;
  void receive_control(std::uint32_t node, PacketPtr packet, const PrevHop& from) override;
  void control_dropped(std::uint32_t node, const Packet& packet, DropCause cause) override;
  void link_failed(std::uint32_t node, std::uint32_t address) override;

  const AodvParams& params() const { return params_; }
  // Told each time a node's route to a destination is found, changes its next hop
  // or is lost (an expired route: when the node next looks it up); null: nobody.
  void set_observer(DecisionObserver* observer) { observer_ = observer; }
  const AodvStats& stats(std::uint32_t node) const { return state_.at(node).stats; }
  // The entry `node` holds for `dst` (null: none), for tests.
  const Route* route(std::uint32_t node, std::uint32_t dst) const;
  // Whether that entry is an active route now.
  bool active(std::uint32_t node, std::uint32_t dst) const;
  std::uint32_t sequence_number(std::uint32_t node) const { return state_.at(node).seq; }
  std::size_t held(std::uint32_t node) const { return state_.at(node).buffer.size(); }

 private:
  struct Discovery {
    Time started;
    std::int64_t ttl = 0;
    std::int64_t retries = 0;  // network-wide attempts after the first
    EventId timer;
  };
  struct Held {
    PacketPtr packet;
    Time expires;
  };
  struct NodeState {
    std::uint32_t seq = 0;
    std::uint32_t rreq_id = 0;
    std::map<std::uint32_t, Route> routes;
    std::map<std::uint32_t, Discovery> discoveries;
    std::deque<Held> buffer;
    EventId buffer_timer;
    // RREQs seen: (originator, RREQ ID) until the time they may be processed again,
    // and the same keys in expiry order (expiries only grow) for purging.
    std::map<std::pair<std::uint32_t, std::uint32_t>, Time> seen;
    std::deque<std::pair<Time, std::pair<std::uint32_t, std::uint32_t>>> seen_order;
    std::map<std::uint32_t, Time> hello_heard;  // neighbour radio -> last heard (HELLO option)
    RandomStream jitter{0};
    AodvStats stats;
  };

  Time now() const { return scheduler_.now(); }
  bool is_active(const Route& r) const { return r.valid && now() < r.lifetime; }
  // What the observer sees of a route: its next hop and the interface to it while
  // valid, else none (a change of either is a change: a node with several radios
  // may reach one neighbour through another radio).
  struct ShownRoute {
    std::uint32_t node = kNoNode;
    std::uint32_t interface = kNoNode;
    bool operator==(const ShownRoute&) const = default;
  };
  static ShownRoute shown(const Route& r) { return r.valid ? ShownRoute{r.next.node, r.next.interface} : ShownRoute{}; }
  void route_changed(std::uint32_t node, std::uint32_t dst, ShownRoute was, const Route& r);
  Route* find(std::uint32_t node, std::uint32_t dst);
  // RFC 6.2: whether an offered route (seq, hops) replaces `r`.
  static bool better(const Route& r, bool valid_seq, std::uint32_t seq, std::uint8_t hops, bool active);
  // Creates or refreshes the route to a neighbour heard directly (RFC 6.5, 6.7).
  void heard_neighbour(std::uint32_t node, std::uint32_t neighbour, const PrevHop& from, Time lifetime);
  static void add_precursor(Route& r, std::uint32_t node);

  PacketPtr control_packet(std::uint32_t node, std::uint32_t dst, std::uint8_t ttl);
  void broadcast(std::uint32_t node, PacketPtr packet, bool jitter);
  void broadcast_now(std::uint32_t node, const PacketPtr& packet);
  void unicast(std::uint32_t node, PacketPtr packet, const NextHop& to);
  void count_sent(std::uint32_t node, const Packet& packet);

  void start_discovery(std::uint32_t node, std::uint32_t dst);
  void send_rreq(std::uint32_t node, std::uint32_t dst, Discovery& d);
  void discovery_timeout(std::uint32_t node, std::uint32_t dst);
  void release_held(std::uint32_t node, std::uint32_t dst);
  void drop_held(std::uint32_t node, std::uint32_t dst, DataDrop why);
  void expire_held(std::uint32_t node);
  void arm_buffer_timer(std::uint32_t node);

  void on_rreq(std::uint32_t node, const Packet& packet, const PrevHop& from);
  void on_rrep(std::uint32_t node, const Packet& packet, const PrevHop& from);
  void on_rerr(std::uint32_t node, const Packet& packet, const PrevHop& from);
  void on_hello(std::uint32_t node, const Packet& packet, const Rrep& m, const PrevHop& from);
  bool seen_before(std::uint32_t node, std::uint32_t orig, std::uint32_t rreq_id);

  void link_break(std::uint32_t node, std::uint32_t address);
  // Sends RERRs for `lost` (destination, sequence number) to `precursors`: one
  // unicast to a single precursor, a broadcast otherwise (RFC 6.11).
  void send_rerr(std::uint32_t node, const std::vector<Rerr::Unreachable>& lost,
                 const std::vector<std::uint32_t>& precursors);
  void hello_tick(std::uint32_t node);

  Scheduler& scheduler_;
  PacketPool& pool_;
  AodvParams params_;
  DecisionObserver* observer_ = nullptr;
  std::vector<Node*> nodes_;
  std::vector<NodeState> state_;
  // Jittered broadcasts waiting for their time. Kept here, not in the events'
  // captures, so that they go back to the pool with the agent (the scheduler may
  // outlive both).
  std::map<std::uint64_t, PacketPtr> pending_;
  std::uint64_t next_pending_ = 0;
};

}  // namespace aodv
}  // namespace wmnsim
