#pragma once
// A scenario's controller entry (docs/scenario.md, `controllers`): its type, where and
// when it acts, and its parameters. The type names a registry entry
// (control/controller_registry.hpp); the entry parsed the parameters and its
// controller reads them back with params_as<P>().

#include <any>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/time.hpp"

namespace wmnsim {

struct ControllerConfig {
  std::string type;                // the registry entry's name, e.g. "counter_starvation"
  std::string id;                  // given, or "<type>#<index>"
  std::vector<std::size_t> nodes;  // where it acts; empty for entries that name their own
                                   // places (counter_starvation, gateway_rate_control)
  Time start;
  std::optional<Time> stop;
  std::any params;  // what the entry's parse produced (control/<name>_params.hpp)

  // The parameters as the entry's type; a wrong type is a bug (std::bad_any_cast).
  template <typename P>
  const P& params_as() const {
    return std::any_cast<const P&>(params);
  }
};

}  // namespace wmnsim
