#pragma once
// The parameters of the in-network half of 003's WCCP (control/wccp.hpp).

#include "control/controller_entry.hpp"
#include <array>

#include "core/enum_names.hpp"
#include "core/time.hpp"

namespace wmnsim {

// Which busy time the channel busyness ratio is measured from (control/wccp.hpp).
enum class WccpBusyTime {
  standard,  // 003 Sec. III-B's words: transmitting, receiving or sensing, NAV set
  ns2,       // as ns-2's Mac802_11, where 003 measured it (mac::Mac::ns2_busy_time)
};
inline constexpr std::array<EnumName<WccpBusyTime>, 2> kWccpBusyTimes{
    {{"standard", WccpBusyTime::standard}, {"ns2", WccpBusyTime::ns2}}};

// 003 Sec. III: the in-network half of WCCP.
struct WccpControllerParams {
  double busyness_threshold = 0.92;  // th_b, Sec. III-A
  double alpha = 0.1;                // Sec. III-D, Eq. 13
  // The first average control interval, before any packet has told the node its
  // senders' intervals (Eq. 17). 003 gives none; ours: 0.1 s, the order of the
  // 9-node chain's RTT (003 Sec. IV-A: 0.12 s).
  Time initial_control_interval = Time::ms(100);
  WccpBusyTime busy_time = WccpBusyTime::standard;
};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc, factory.
ControllerEntry wccp_entry();
}  // namespace control

}  // namespace wmnsim
