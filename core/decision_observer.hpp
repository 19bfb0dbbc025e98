#pragma once
// What a routing protocol and the controllers decide during a run, told to an
// observer that only reads: the event trace (trace/event_trace.hpp) writes each as
// a record ("route", "controller"; docs/traces.md "Event trace"). Here, in core/,
// so that AODV (core/aodv.hpp) and the controllers (control/) report without
// knowing the trace, and the trace without knowing them.
//
// Cost when nobody observes: one null-pointer test per decision.

#include <cstdint>
#include <limits>

#include "core/event_kind.hpp"

namespace wmnsim {

inline constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

// One controller action (ControllerAction in core/event_kind.hpp says what `value` holds).
struct ControllerDecision {
  ControllerAction action{};
  std::uint32_t node = kNoNode;   // where it acts
  std::uint32_t radio = kNoNode;  // its radio, when it acts on one
  std::uint32_t peer_radio = kNoNode;  // the other radio it concerns (notified, notifier)
  std::uint32_t flow = kNoNode;   // the flow it concerns (a rate)
  std::int64_t value = 0;
};

class DecisionObserver {
 public:
  virtual ~DecisionObserver() = default;
  // `node`'s route to `dst` now leads to the neighbour `next_hop` through the node's
  // interface `interface` (found, or changed: either of them), or to none (both
  // kNoNode: broken, expired or invalidated).
  virtual void on_route(std::uint32_t node, std::uint32_t dst, std::uint32_t next_hop, std::uint32_t interface) = 0;
  virtual void on_controller(const ControllerDecision& decision) = 0;
};

}  // namespace wmnsim
