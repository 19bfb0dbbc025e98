#pragma once
// The parameters of the counter-starvation controller (000, control/counter_starvation.hpp).

#include <cstddef>
#include <optional>
#include <vector>

#include "mac/mac_params.hpp"  // AccessCategory
#include "control/controller_entry.hpp"

namespace wmnsim {

// 000: the gateways' one-hop neighbours raise their minimum contention window.
struct CounterStarvationParams {
  double cw_min_factor = 4.0;         // times the scenario's cw_min (000: 32 -> 128)
  std::optional<int> cw_min;          // absolute window instead of the factor
  std::vector<std::size_t> gateways;  // whose neighbours; default: every gateway
  // EDCA: the categories whose CWmin is raised; empty: all. DCF has one category.
  std::vector<AccessCategory> access_categories;
};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc, factory.
ControllerEntry counter_starvation_entry();
}  // namespace control

}  // namespace wmnsim
