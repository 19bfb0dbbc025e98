#pragma once
// The parameters of the in-network half of 003's WCCP (issue 20 implements it).

#include "control/controller_entry.hpp"

namespace wmnsim {

// 003: the in-network half of WCCP.
struct WccpControllerParams {
  double busyness_threshold = 0.92;  // th_b
  double alpha = 0.1;
};

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc; no factory yet.
ControllerEntry wccp_entry();
}  // namespace control

}  // namespace wmnsim
