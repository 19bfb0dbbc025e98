#pragma once
// Static routing: the tables as written (RoutingSection::routes), checked against
// the links. Internal to core/routing*.cpp.
//
// A node forwards a packet for D by its entry for D, else by its "*" entry, else not
// at all: there are no implicit routes (docs/scenario.md, `routing`). Checks, all
// reported in one pass:
//  - every next hop must be a neighbour (a link from the node to it), reported at
//    the entry's place (StaticRoute::defined_at) with the node's neighbours;
//  - the path of every explicit (node, destination) entry must reach the
//    destination: no loop, no dead end (a node with neither an entry for D nor "*").
// The flows' paths are checked by compute_routing with failure() for the message.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/input_error.hpp"
#include "core/routing_graph.hpp"

namespace wmnsim::routing_detail {

class StaticTables {
 public:
  StaticTables(const RoutingInput& scenario, const LinkGraph& graph, IssueSink& issues);

  const RoutingTables& tables() const { return tables_; }
  // Why the tables lead nowhere from `from` to `to`, as a sentence that says what
  // to change ("the static tables loop: A -> B -> A; ..."); empty when they arrive.
  std::string failure(std::uint32_t from, std::uint32_t to) const;

 private:
  enum class End { arrived, loop, dead_end, bad_entry };
  struct Walk {
    End end = End::arrived;
    std::vector<std::uint32_t> nodes;  // visited, from the start (a loop repeats its first node)
    std::size_t route = 0;             // bad_entry: the entry with the unusable next hop
  };
  Walk walk(std::uint32_t from, std::uint32_t to) const;
  std::string describe(const Walk& w, std::uint32_t to) const;
  std::string sequence(const std::vector<std::uint32_t>& nodes) const;

  // Which route (node, dst) uses: the node's entry for dst, else its "*" entry.
  // Kept per entry written, not per node pair; the tables' columns read it too.
  struct Entries {
    std::size_t n = 0;
    std::unordered_map<std::uint64_t, std::size_t> own;  // node * n + dst -> route index
    std::vector<std::optional<std::size_t>> default_route;  // per node: its "*" route
    std::vector<bool> usable;                                // per route: its next hop is a neighbour
    std::optional<std::size_t> entry(std::uint32_t node, std::uint32_t dst) const;
  };
  class Columns;

  const RoutingInput& scenario_;
  std::size_t n_;
  std::shared_ptr<Entries> entries_;
  RoutingTables tables_;
};

}  // namespace wmnsim::routing_detail
