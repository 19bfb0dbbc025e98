#pragma once
// The kinds of record of the event trace (trace/event_trace.hpp, docs/traces.md
// "Event trace"), here where every layer sees them: the scenario's
// outputs.event_trace.kinds names them, the trace writes their codes (the order
// below) and their names into its file.

#include <array>
#include <cstdint>

#include "core/enum_names.hpp"

namespace wmnsim {

enum class EventKind : std::uint8_t {
  tx_start,   // a radio starts transmitting a frame
  tx_end,     // the frame's end
  rx_lock,    // a radio locked onto a frame (detected its preamble and PLCP header)
  rx_ok,      // the frame it locked onto was decoded
  rx_fail,    // ... was lost, with the cause (and the interferer)
  rx_missed,  // a frame reached a radio that never locked onto it, with the cause
  backoff,    // a backoff drawn (802.11-2012 9.3.4.3)
  nav,        // the NAV set (9.3.2.4)
  retry,      // the MPDU in service failed an attempt and will be tried again (9.3.4.4)
  drop,       // a node gave a packet up, with the cause
  enqueue,    // a packet entered a MAC queue
  dequeue,    // a packet left a MAC queue for service
  deliver,    // a packet reached its destination node
  params,     // an access category's CW or AIFSN changed during the run (a controller's doing)
  route,      // a node's route to a destination found, changed or lost (a routing protocol's)
  controller, // a controller acted (ControllerAction below)
};

inline constexpr std::array<EnumName<EventKind>, 16> kEventKinds{{
    {"tx_start", EventKind::tx_start},
    {"tx_end", EventKind::tx_end},
    {"rx_lock", EventKind::rx_lock},
    {"rx_ok", EventKind::rx_ok},
    {"rx_fail", EventKind::rx_fail},
    {"rx_missed", EventKind::rx_missed},
    {"backoff", EventKind::backoff},
    {"nav", EventKind::nav},
    {"retry", EventKind::retry},
    {"drop", EventKind::drop},
    {"enqueue", EventKind::enqueue},
    {"dequeue", EventKind::dequeue},
    {"deliver", EventKind::deliver},
    {"params", EventKind::params},
    {"route", EventKind::route},
    {"controller", EventKind::controller},
}};

// What a controller did (a "controller" record's cause), and what its value holds.
enum class ControllerAction : std::uint8_t {
  notify,    // sent a congestion notification to a neighbour (004): value, its duration (ps; 0 lifts a block)
  blocked,   // was notified by a neighbour: data to it held until value (ps; now: lifted)
  duration,  // its notification duration D changed (004 Sec. 3.1): value, the new D (ps)
  rate,      // a flow's (class's) shaping rate changed (001): value, bit/s of IP packets
  txop,      // a radio's TXOP limit changed (002's edca_txop): value, the limit in frames (0: one per access)
};

inline constexpr std::array<EnumName<ControllerAction>, 5> kControllerActions{{
    {"notify", ControllerAction::notify},
    {"blocked", ControllerAction::blocked},
    {"duration", ControllerAction::duration},
    {"rate", ControllerAction::rate},
    {"txop", ControllerAction::txop},
}};

// A set of kinds, one bit each.
constexpr std::uint32_t kind_bit(EventKind k) { return std::uint32_t{1} << static_cast<unsigned>(k); }
inline constexpr std::uint32_t kAllEventKinds = (std::uint32_t{1} << kEventKinds.size()) - 1;

}  // namespace wmnsim
