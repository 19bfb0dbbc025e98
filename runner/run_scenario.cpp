#include "runner/run_scenario.hpp"

namespace wmnsim {

Results run_scenario(const Scenario& scenario, const RunOptions& /*options*/) {
  // Every valid scenario has nodes that talk over radios and at least one flow.
  // The radio stack (phy/, mac/, transport/) lands with the PHY, MAC and
  // network/transport issues; until then nothing in a scenario can be simulated,
  // and saying so is better than returning empty results.
  (void)scenario;
  throw NotSupportedError(
      "/nodes: this build of wmnsim has no radio stack yet (PHY, MAC and transport layers); "
      "the scenario is valid, but it cannot be simulated until those layers land. "
      "Use `wmnsim validate` to check scenarios meanwhile.");
}

}  // namespace wmnsim
