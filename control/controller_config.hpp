#pragma once
// A scenario's controller entry (docs/scenario.md, `controllers`): its type, where and
// when it acts, and its parameters.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "control/congestion_notification_params.hpp"
#include "control/counter_starvation_params.hpp"
#include "control/edca_policy_params.hpp"
#include "control/gateway_rate_control_params.hpp"
#include "control/wccp_params.hpp"
#include "core/enum_names.hpp"
#include "core/time.hpp"

namespace wmnsim {

enum class ControllerType {
  counter_starvation,
  gateway_rate_control,
  tcc,
  lscc,
  edca_ack_priority,
  edca_txop,
  wccp,
};

using ControllerParams =
    std::variant<CounterStarvationParams, GatewayRateControlParams, CongestionNotificationParams,
                 EdcaAckPriorityParams, EdcaTxopParams, WccpControllerParams>;

struct ControllerConfig {
  ControllerType type = ControllerType::counter_starvation;
  std::string id;                  // given, or "<type>#<index>"
  std::vector<std::size_t> nodes;  // where it acts; empty for counter_starvation and
                                   // gateway_rate_control, which name their gateways
  Time start;
  std::optional<Time> stop;
  ControllerParams params;
};

inline constexpr std::array<EnumName<ControllerType>, 7> kControllerTypes{
    {{"counter_starvation", ControllerType::counter_starvation},
     {"gateway_rate_control", ControllerType::gateway_rate_control},
     {"tcc", ControllerType::tcc},
     {"lscc", ControllerType::lscc},
     {"edca_ack_priority", ControllerType::edca_ack_priority},
     {"edca_txop", ControllerType::edca_txop},
     {"wccp", ControllerType::wccp}}};
constexpr std::string_view to_string(ControllerType v) { return enum_name(names(kControllerTypes), v); }

}  // namespace wmnsim
