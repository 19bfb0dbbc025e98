#pragma once
// Static routing: per-node next-hop tables computed once before a run, from the
// scenario's `routing` section and the links the network offers (DESIGN.md: the
// network layer forwards by table; no routing protocol runs during a simulation).
//
// Three ways to get tables (docs/scenario.md, `routing`):
//  - auto: shortest paths between every pair of nodes over every usable link, by
//    hop count or by an airtime metric (003's "pre-computed shortest paths");
//  - gateway_trees: every mesh node joins the tree of its best gateway (the lowest
//    path cost by the metric, 004 Sec. 4.1), and routes use only tree links and
//    wired links;
//  - static: explicit tables, checked for unknown next hops, loops and dead ends.
//
// Ties between equal-cost paths go to the neighbour with the lowest node index,
// so tables are deterministic and independent of link order.
//
// The links come from the layer that knows them (runner/ builds them from the PHY
// and the wired links); core/ knows nothing of radios.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/input_error.hpp"
#include "core/routing_config.hpp"
#include "core/topology.hpp"

namespace wmnsim {

// One direction of a link a packet can cross in one hop.
//
// Interfaces of a node are numbered: its radios first, in radio order (interface r
// is radio r), then its wired links in the order of Scenario::links.
struct RoutingLink {
  std::uint32_t from = 0;       // node index
  std::uint32_t to = 0;         // node index
  std::uint32_t interface = 0;  // the from-node's interface
  std::uint32_t address = 0;    // the to-node's address on it: its radio id (wireless); unused (wired)
  // Airtime metric cost in seconds (IEEE 802.11s-2012 13.9: O + Bt / r for a usable
  // link, whose frame error rate is below 1 %). Wired links: serialization of Bt
  // bits plus the propagation delay. hop_count ignores it.
  double cost_s = 0.0;
  bool wired = false;
};

struct NextHop {
  std::uint32_t node = 0;
  std::uint32_t interface = 0;
  std::uint32_t address = 0;
};

// Where each flow's packets actually go: "@gateway" resolved to a node.
struct FlowEnds {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
};

// Next-hop tables, one column per destination. A column is either filled by set()
// or, for tables computed from links (compute_routing: auto and gateway_trees),
// computed the first time a lookup asks for that destination: one shortest-path
// run per destination actually used (the flows' ends, the gateways), so a whole
// network costs memory per node and per used destination, not per node pair.
// The result is the same whenever a column is computed.
//
// Lookups may compute a column, so concurrent lookups on one RoutingTables need
// external synchronisation (each run owns its own tables).
class RoutingTables {
 public:
  // What computes a column on demand: for destination `dst`, each node's next hop
  // as an index into the hops the tables were built with, kNoHop for none.
  class Source {
   public:
    virtual ~Source() = default;
    virtual void column(std::uint32_t dst, std::span<std::uint32_t> out) const = 0;
  };
  static constexpr std::uint32_t kNoHop = 0xffffffffu;

  RoutingTables() = default;
  // Empty tables (no routes) for set() to fill.
  explicit RoutingTables(std::size_t nodes);
  // Tables whose columns `source` computes on first use, over these hops.
  RoutingTables(std::size_t nodes, std::vector<NextHop> hops, std::shared_ptr<const Source> source);

  std::size_t node_count() const { return nodes_; }
  // nullptr: no route from `node` to `dst` (or node == dst). The pointer stays valid
  // until the next set().
  const NextHop* next_hop(std::uint32_t node, std::uint32_t dst) const {
    if (node >= nodes_ || dst >= nodes_) out_of_range();
    const std::vector<std::uint32_t>& col = column(dst);
    const std::uint32_t slot = col[node];
    return slot == kNoHop ? nullptr : &hops_[slot];
  }
  void set(std::uint32_t node, std::uint32_t dst, NextHop hop);
  void clear(std::uint32_t node, std::uint32_t dst);
  // The nodes a packet from src to dst visits, src and dst included; empty when
  // the tables lead nowhere (no route, or a loop).
  std::vector<std::uint32_t> path(std::uint32_t src, std::uint32_t dst) const;
  // Destinations whose column exists (computed or set), for tests and benchmarks.
  std::size_t columns_in_use() const;

 private:
  [[noreturn]] static void out_of_range();
  const std::vector<std::uint32_t>& column(std::uint32_t dst) const {
    const std::vector<std::uint32_t>& col = columns_[dst];
    return col.empty() ? fill(dst) : col;
  }
  const std::vector<std::uint32_t>& fill(std::uint32_t dst) const;

  std::size_t nodes_ = 0;
  std::vector<NextHop> hops_;  // what the columns point at: the source's, then set()'s
  std::shared_ptr<const Source> source_;
  // By destination: per node an index into hops_ (kNoHop: none); empty until used.
  mutable std::vector<std::vector<std::uint32_t>> columns_;
};

// Per node, a node's index or none, in 4 bytes where a std::optional<std::uint32_t>
// takes 8 (issue 43 §3: held for the whole run); read as that optional. No node has
// the largest index (the node cap is far below it), which stands for none.
class NodeIndexColumn {
 public:
  NodeIndexColumn() = default;
  explicit NodeIndexColumn(std::size_t nodes) : indices_(nodes, kNone) {}

  std::size_t size() const { return indices_.size(); }
  bool empty() const { return indices_.empty(); }
  std::optional<std::uint32_t> operator[](std::size_t node) const {
    const std::uint32_t i = indices_[node];
    return i == kNone ? std::nullopt : std::optional<std::uint32_t>(i);
  }
  // Throws std::out_of_range for an index no node can have.
  void set(std::size_t node, std::uint32_t index);

  // The entries as optionals, in node order (a range-for reads them).
  class Iterator {
   public:
    using value_type = std::optional<std::uint32_t>;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    explicit Iterator(const std::uint32_t* at) : at_(at) {}
    value_type operator*() const { return *at_ == kNone ? std::nullopt : value_type(*at_); }
    Iterator& operator++() { return ++at_, *this; }
    Iterator operator++(int) { Iterator old = *this; ++at_; return old; }
    bool operator==(const Iterator&) const = default;

   private:
    const std::uint32_t* at_ = nullptr;
  };
  Iterator begin() const { return Iterator(indices_.data()); }
  Iterator end() const { return Iterator(indices_.data() + indices_.size()); }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::vector<std::uint32_t> indices_;
};

struct Routing {
  RoutingTables tables;
  std::vector<FlowEnds> flows;  // by flow index
  // Per node: the gateway it attaches to (its tree's root under gateway_trees, the
  // cheapest reachable gateway otherwise; the node itself for a gateway); empty for
  // hosts and for nodes that reach no gateway.
  NodeIndexColumn gateway;
};

// What the routing needs of a scenario (scenario/scenario.hpp's routing_input()
// builds it): the nodes, the `routing` section and each flow's ends.
struct RoutingInput {
  // Where a message points the user (an issue's place, a place named in its text)
  // is the input's own word for it: scenario/ gives JSON pointers and keys (its
  // routing_input()), so the routing layer knows no JSON.
  struct NodeEntry {
    std::string id;
    NodeRole role = NodeRole::mesh;
    std::optional<Position> position;  // for distances in messages
    std::string table_at;              // where its static routing table is written
  };
  struct FlowEntry {
    std::optional<std::size_t> src;  // empty: "@gateway"
    std::optional<std::size_t> dst;
    bool needs_return_path = false;  // the transport sends ACKs back (tcp, wccp)
    std::string transport;           // its name, for messages
    std::string defined_at;          // where the flow is written (its issues' place)
    std::string src_at, dst_at;      // where its ends are written
  };
  std::vector<NodeEntry> nodes;
  RoutingSection routing;
  std::vector<FlowEntry> flows;
  std::string tables_at;      // where the static tables are written
  std::string links_at;       // where wired links are added
  std::string auto_routing;   // the setting that chooses automatic routing
  // What to change when nodes are cut off, as the scenario's settings suggest it.
  std::string unreachable_advice;
};

// Builds the tables for `scenario` over `links`, resolves "@gateway" flow ends, and
// checks that every flow's path exists both ways (data, and ACKs for tcp and wccp).
// Throws ScenarioError listing every problem, each at the place the input names
// (RoutingInput: defined_at, table_at, StaticRoute::defined_at); for a scenario:
//   /flows/3: no route from "A" to "GW": "A" has no usable link (the nearest node, "B", is 412 m away); ...
//   /routing/tables/A/GW: "C" is not a neighbour of "A" (neighbours: B); ...
//   /flows/1: no route from "A" to "GW": the static tables loop: A -> B -> A; ...
// (docs/scenario.md, `routing`, lists the checks.) "@gateway" resolves to
// Routing::gateway of the mesh node at the other end; under static tables that is
// the gateway the node's own tables reach in the fewest hops (ties: lowest index).
Routing compute_routing(const RoutingInput& scenario, std::span<const RoutingLink> links);

}  // namespace wmnsim
