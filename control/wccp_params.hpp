#pragma once
// The parameters of the in-network half of 003's WCCP (control/wccp.hpp).

#include "control/controller_entry.hpp"
#include <array>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "control/wccp_feedback.hpp"

namespace wmnsim {

// Which busy time the channel busyness ratio is measured from (control/wccp.hpp).
enum class WccpBusyTime {
  standard,  // 003 Sec. III-B's words: transmitting, receiving or sensing, NAV set
  ns2,       // as ns-2's Mac802_11, where 003 measured it (mac::Mac::ns2_busy_time)
};
inline constexpr std::array<EnumName<WccpBusyTime>, 2> kWccpBusyTimes{
    {{"standard", WccpBusyTime::standard}, {"ns2", WccpBusyTime::ns2}}};

// 003 Sec. III: the in-network half of WCCP.
// The feedback's keys default to the model's own (control/wccp_feedback.hpp).
struct WccpControllerParams {
  double busyness_threshold = control::WccpFeedbackParams{}.busyness_threshold;  // th_b, Sec. III-A
  double alpha = control::WccpFeedbackParams{}.alpha;                            // Sec. III-D, Eq. 13
  Time initial_control_interval = control::WccpFeedbackParams{}.initial_control_interval;
  WccpBusyTime busy_time = WccpBusyTime::standard;
};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc, factory.
ControllerEntry wccp_entry();
}  // namespace control

}  // namespace wmnsim
