#pragma once
// The counter-starvation policy of 000 (Sec. 5.6): "All nodes that are directly
// connected to the gateway should increase their minimum contention window to a
// factor of at least two greater than all other nodes." The gateways' one-hop
// neighbours are found from the routing (a node whose route to a gateway, or the
// gateway's route to it, is one wireless hop), not listed by hand. Only the radio
// that carries that hop changes. Under EDCA the chosen access categories change
// (all by default). At stop the windows go back to what they were.

#include <vector>

#include "control/controller.hpp"
#include "control/counter_starvation_params.hpp"

namespace wmnsim::control {

class CounterStarvation final : public Controller {
 public:
  CounterStarvation(const ControllerConfig& config, ControlContext& context);

  void start() override;
  nlohmann::ordered_json statistics() const override;

  // One window the policy changed.
  struct Change {
    std::size_t node = 0;
    std::size_t radio = 0;  // index among the node's radios
    std::size_t gateway = 0;
    AccessCategory category = AccessCategory::ac_be;
    int cw_min_before = 0;
    int cw_min_after = 0;
    int cw_max_before = 0;
    int cw_max_after = 0;
  };
  const std::vector<Change>& changes() const { return changes_; }

 private:
  void on_stop() override;
  mac::Mac& mac_of(const Change& c) { return *context().macs.at(c.node, c.radio); }

  const CounterStarvationParams& params_;
  std::vector<Change> changes_;
};

}  // namespace wmnsim::control
