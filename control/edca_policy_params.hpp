#pragma once
// The parameters of 002's EDCA policies, ACK priority and TXOP = flows (issue 18 implements them).

#include <array>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "control/controller_entry.hpp"

namespace wmnsim {

// 002: TCP ACK prioritisation with EDCA.
struct EdcaAckPriorityParams {
  int data_aifsn_increase = 4;  // extra AIFS slots for TCP data
  int ack_cw_min = 4;           // CWmin of the ACK access category
};

enum class TxopScaling { flows, half_txop_half_cw };

// 002: TXOP = number of flows a radio forwards.
struct EdcaTxopParams {
  TxopScaling scaling = TxopScaling::flows;
  bool dynamic = true;  // follow flows as they come and go
  Time flow_idle_timeout = Time::s(1);
};

inline constexpr std::array<EnumName<TxopScaling>, 2> kTxopScalings{
    {{"flows", TxopScaling::flows}, {"half_txop_half_cw", TxopScaling::half_txop_half_cw}}};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc; no factory yet.
ControllerEntry edca_ack_priority_entry();
ControllerEntry edca_txop_entry();
}  // namespace control

}  // namespace wmnsim
