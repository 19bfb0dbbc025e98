#pragma once
// The parameters of 002's EDCA policies (Badarla, Malone, Leith): TCP ACK
// prioritisation (Sec. III) and TXOP = number of flows forwarded (Sec. IV, IV-A, IV-B,
// V). Controllers: control/edca_ack_priority.hpp, control/edca_txop.hpp.

#include <array>
#include <vector>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "control/controller_entry.hpp"
#include "mac/mac_params.hpp"

namespace wmnsim {

// 002 Sec. III: "increasing the AIFS of data packets by 4 slots and decreasing the
// CWmin of TCP ACKs to 2^2".
struct EdcaAckPriorityParams {
  int data_aifsn_increase = 4;  // extra AIFS slots for the data category
  int ack_cw_min = 4;           // CWmin (window size) of the ACK category
  AccessCategory data_category = AccessCategory::ac_be;  // where TCP data goes (untagged traffic)
  AccessCategory ack_category = AccessCategory::ac_vo;   // where pure TCP ACKs go
};

// flows: TXOP = n (Sec. IV). half_txop_half_cw: for n >= 2, TXOP = ceil(n / 2) and
// CWmin halved (Sec. IV-A); n = 1 keeps the radio's own TXOP and CWmin.
enum class TxopScaling { flows, half_txop_half_cw };
// What one "flow" is (002 Sec. IV leaves it to the operator): a transport flow in one
// direction (the 5-tuple), or everything one source node sends.
enum class FlowDefinition { five_tuple, source_node };

struct EdcaTxopParams {
  TxopScaling scaling = TxopScaling::flows;
  // false: flows counted from the routes before the run; true: from the packets each
  // radio sends, as they come and go (Sec. IV-B).
  bool dynamic = true;
  Time flow_idle_timeout = Time::s(1);  // dynamic: a flow silent this long has ended
  FlowDefinition flow_definition = FlowDefinition::five_tuple;
  AccessCategory category = AccessCategory::ac_be;  // whose TXOP is set: TCP data's
  // Sec. V: TXOP = sum of the weights of the flows carried. By flow index
  // (five_tuple) or node index (source_node); empty: every weight 1.
  std::vector<double> weights;
};

inline constexpr std::array<EnumName<TxopScaling>, 2> kTxopScalings{
    {{"flows", TxopScaling::flows}, {"half_txop_half_cw", TxopScaling::half_txop_half_cw}}};
inline constexpr std::array<EnumName<FlowDefinition>, 2> kFlowDefinitions{
    {{"five_tuple", FlowDefinition::five_tuple}, {"source_node", FlowDefinition::source_node}}};

namespace control {
// Their registry entries (control/controller_registry.hpp): parse, schema, doc, build.
ControllerEntry edca_ack_priority_entry();
ControllerEntry edca_txop_entry();
}  // namespace control

}  // namespace wmnsim
