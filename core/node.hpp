#pragma once
// A node's network layer: it takes packets from the transport endpoints on the
// node, looks up the next hop in the static routing tables (or asks its routing
// protocol, core/route_agent.hpp, when it has one: AODV) and hands the packet to
// the interface that reaches it; it takes packets arriving over its interfaces and
// delivers them to the flow's endpoint or forwards them (DESIGN.md, the data path).
//
// Header fields it keeps (RFC 791): every crossing of a link adds one to
// Packet::hops; a packet to be forwarded loses one TTL and is dropped when the TTL
// would reach zero. Every drop on the node (its queues, MACs and links report to
// it as their DropSink; forwarding adds no_route and ttl_expired) goes to the
// PacketLedger with the node and the hops travelled.
//
// Interfaces are what the node sends through: a radio's MAC (mac/mac_interface.hpp)
// or one end of a wired link (link/wired_link.hpp WiredInterface). They are numbered as the routing
// layer numbers them (core/routing.hpp): radios first, then wired links.
//
// Saturated sources ("always backlogged", 000's fully backlogged UDP) keep
// `target` of their own packets waiting in the node's interface queues: whenever a
// packet leaves one of the node's queues (DepartureListener), every registered
// source below its target is asked for one more. A source whose packet the queue
// refused (full) tries again at the next departure, so it never stalls, and it
// never floods the queue shared with forwarded traffic.
//
// Signals (core/node_signals.hpp): subscribers hear of every packet originated,
// forwarded, delivered and dropped here; the management frames its MACs receive go
// to the handlers subscribed to their category (core/management_body.hpp).
//
// Cost: O(1) per packet forwarded (a table lookup), O(log E) per packet delivered
// (E: the endpoints on this node), plus one branch per packet and event while
// nobody subscribes and one per routed packet, arrival and drop while no routing
// protocol runs.

#include <cstdint>
#include <list>
#include <stdexcept>
#include <memory>
#include <utility>
#include <vector>

#include "core/management_body.hpp"
#include "core/node_signals.hpp"
#include "core/packet.hpp"
#include "core/packet_ledger.hpp"
#include "core/packet_sink.hpp"
#include "core/route_agent.hpp"
#include "core/routing.hpp"
#include "core/scheduler.hpp"

namespace wmnsim {

// What a node sends through.
class NetInterface {
 public:
  virtual ~NetInterface() = default;
  // Hands `packet` to the link layer for the neighbour at `address` (its radio id,
  // or, for a wired link, unused). The interface queues it and may drop it later,
  // reporting to the node's DropSink.
  virtual void send(PacketPtr packet, std::uint32_t address) = 0;
};

// Told when a packet left one of a node's interface queues (a MAC's, or a wired
// link's when the packet was serialized). Called last, when the queue's state is
// consistent, so the listener may hand the interface a packet at once.
class DepartureListener {
 public:
  static constexpr const char* kHookName = "a wired link's departure listener";  // SubscriberList's messages
  virtual ~DepartureListener() = default;
  virtual void on_departure(const Packet& departed) = 0;
};

// Asked for one more packet of a saturated flow when one of its packets departed.
class BacklogSource {
 public:
  virtual ~BacklogSource() = default;
  virtual void refill() = 0;
};

struct NodeCounters {
  std::uint64_t originated = 0;  // from endpoints on this node
  std::uint64_t received = 0;    // arrived over a link
  std::uint64_t delivered = 0;   // to an endpoint on this node
  std::uint64_t forwarded = 0;   // arrived and sent on
};

// What every node of a network refers to: one per network, which outlives its
// nodes. One pointer in each node instead of three references (issue 43 §3,
// memory per node).
struct NodeContext {
  Scheduler& scheduler;
  const RoutingTables& tables;
  PacketLedger& ledger;
};

class Node final : public PacketSink, public DropSink {
 public:
  // `context` must outlive the node.
  Node(const NodeContext& context, std::uint32_t index) : context_(&context), index_(index) {}
  Node(NodeContext&&, std::uint32_t) = delete;  // a temporary would not outlive it
  ~Node() override;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  std::uint32_t index() const { return index_; }

  // Interfaces in the routing layer's order; the node does not own them. Returns
  // the interface's number.
  std::uint32_t add_interface(NetInterface& interface);
  std::size_t interface_count() const { return interface_count_; }
  // Whether the node holds the block of its endpoints, saturated sources, wired
  // links' far ends and management handlers (allocated with the first; tests).
  bool holds_attachments() const { return attachments_ != nullptr; }
  // The endpoint on this node that receives `flow`'s packets addressed here.
  void set_endpoint(std::uint32_t flow, PacketSink& endpoint);
  void set_backlog_source(std::uint32_t flow, BacklogSource& source, int target);

  // From an endpoint on this node: a packet to send (Packet::src is this node).
  void receive(PacketPtr packet) override;
  // From an interface: a packet that crossed a link to this node, from `from`.
  void arrive(PacketPtr packet, PrevHop from);
  // The same as a PacketSink, for a wired link's far end: every packet it is given
  // arrives from `from`. The sink lives as long as the node.
  PacketSink& arrivals(PrevHop from) { return attached().arrivals.emplace_back(*this, from); }

  // Signals (core/node_signals.hpp), in the order of subscription.
  void subscribe(NodeSubscriber& subscriber);
  void unsubscribe(NodeSubscriber& subscriber) {
    if (signals_) signals_->unsubscribe(subscriber);
  }
  // Whether the node holds its signals' subscriber list (allocated at the first
  // subscription; tests).
  bool holds_signals() const { return signals_ != nullptr; }
  // Management frames of `category` received by this node's MACs go to `handler`
  // (several handlers of one category are called in the order they subscribed).
  // A handler may subscribe or unsubscribe handlers, itself included, while it is
  // told: one unsubscribed then is not told again, one subscribed then hears the
  // current frame too.
  void subscribe_management(std::uint8_t category, ManagementHandler& handler);
  void unsubscribe_management(ManagementHandler& handler);
  // From an interface: a management frame for this node (or broadcast). Returns
  // whether any handler took it; without one it is discarded.
  bool receive_management(const ManagementBody& body, const PrevHop& from);

  // DropSink: this node's queues, MACs and links give up a packet.
  void on_drop(PacketPtr packet, DropCause cause, Time now) override;
  void on_drop_in_service(PacketPtr packet, DropCause cause, Time now) override;
  // A packet left one of this node's interface queues (a MAC's: MacInterface).
  void on_departure(const Packet& departed);
  // The listener to subscribe to a wired link's departures (it calls
  // on_departure); it lives as long as the node.
  DepartureListener& departures() { return attached().departures; }

  const NodeCounters& counters() const { return counters_; }

  // A routing protocol that runs during the simulation (core/route_agent.hpp); the
  // node then routes through it and not through its tables. Null: static tables.
  void set_route_agent(RouteAgent* agent) { agent_ = agent; }
  // For the agent: a control packet of its own, sent as is on `interface` to the
  // neighbour at `address` (kBroadcastRadio: every neighbour on a radio). Control
  // packets are not data: the ledger and the node's counters never see them.
  void send_control(PacketPtr packet, std::uint32_t interface, std::uint32_t address) {
    interface_at(interface).send(std::move(packet), address);
  }
  // For the agent: a data packet it held routed again (its route has come), as a
  // packet of this node's (from null) or one that arrived from `from`.
  void route_held(PacketPtr packet, const PrevHop* from) { route(std::move(packet), from); }

 private:
  // Every drop: `left_queue` when the packet had already left its interface queue (so
  // a saturated source's backlog counted it out then).
  void drop(PacketPtr packet, DropCause cause, Time now, bool left_queue);
  class Arrivals final : public PacketSink {
   public:
    Arrivals(Node& node, PrevHop from) : node_(node), from_(from) {}
    void receive(PacketPtr packet) override { node_.arrive(std::move(packet), from_); }

   private:
    Node& node_;
    PrevHop from_;
  };

  class Departures final : public DepartureListener {
   public:
    explicit Departures(Node& node) : node_(node) {}
    void on_departure(const Packet& departed) override { node_.on_departure(departed); }

   private:
    Node& node_;
  };

  // Throws std::out_of_range for a number the node does not have.
  NetInterface& interface_at(std::uint32_t interface) const {
    if (interface >= interface_count_) [[unlikely]] throw_no_interface(interface);
    return interface_count_ == 1 ? *interfaces_.one : *interfaces_.several[interface];
  }
  [[noreturn]] void throw_no_interface(std::uint32_t interface) const;
  bool signals_active() const { return signals_ != nullptr && signals_->active(); }
  // `from` is null for a packet of this node's own endpoints.
  void route(PacketPtr packet, const PrevHop* from);
  struct Backlog {
    std::uint32_t flow = 0;
    BacklogSource* source = nullptr;
    int target = 0;
    int queued = 0;  // own packets of the flow in this node's queues
  };
  Backlog* backlog_of(const Packet& p);
  void refill_backlogs();
  PacketSink* endpoint_of(std::uint32_t flow) const;

  // What only some nodes have: wired links' far ends and departure listener,
  // management handlers, flow endpoints, saturated sources. A block of its own,
  // allocated with the first of them (attached()): most nodes of a large network
  // have none, and hold one null pointer instead of these containers (issue 43 §3,
  // memory per node).
  struct Attachments {
    explicit Attachments(Node& node) : departures(node) {}
    // A list: the sinks handed out never move, and an empty one allocates nothing
    // (libstdc++'s deque takes over 512 B at construction).
    std::list<Arrivals> arrivals;
    std::vector<std::pair<std::uint8_t, ManagementHandler*>> management;  // (category, handler)
    // (flow, endpoint), sorted by flow: the endpoints on this node only, so a
    // network of N nodes and F flows holds F of them, not N x F.
    std::vector<std::pair<std::uint32_t, PacketSink*>> endpoints;
    std::vector<Backlog> backlog;
    // A depth: a management handler unsubscribed meanwhile is nulled, erased after.
    int dispatching_management = 0;
    Departures departures;  // a wired link's (a MAC's interface calls on_departure)
  };
  Attachments& attached() {
    if (!attachments_) attachments_ = std::make_unique<Attachments>(*this);
    return *attachments_;
  }

  // Every field is 8 bytes or two of 4, so the node has no padding (96 B with its
  // two vtable pointers; issue 43 §3). The per-packet path reads the context, the
  // index, the agent, the interfaces, the counters and a null test of signals_.
  const NodeContext* context_;
  std::uint32_t index_;
  std::uint32_t interface_count_ = 0;
  // The interfaces: one (most nodes: one radio, no wired link) in place, several
  // in an array interface_count_ long, which add_interface grows by one and the
  // destructor frees. A vector would add 16 B to every node, and a heap block.
  union Interfaces {
    NetInterface* one;
    NetInterface** several;
  } interfaces_{nullptr};
  RouteAgent* agent_ = nullptr;
  // The subscriber list, allocated at the first subscription: only controllers,
  // the hop table and the event trace subscribe (null: nobody, one test per packet).
  std::unique_ptr<NodeSignals> signals_;
  std::unique_ptr<Attachments> attachments_;  // attached(): null until the first
  NodeCounters counters_;
};

}  // namespace wmnsim
