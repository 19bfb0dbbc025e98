#pragma once
// What plugs into the scenario format: controllers, transports and queue
// disciplines, each a registry of named entries that declare and parse their own
// keys (the JSON Schema's and docs/scenario.md's parts are generated from the
// declarations, scenario/scenario_fragments.hpp), and build their objects. A default-constructed Registries holds the built-ins; a program (or
// a test) adds its own entries and passes the bundle to parse_scenario() and
// run_scenario(). A value, not a global.

#include <string>
#include <vector>

#include "control/controller_registry.hpp"
#include "link/queue_discipline_entry.hpp"
#include "transport/transport_entry.hpp"

namespace wmnsim {

struct Registries {
  control::ControllerRegistry controllers = control::ControllerRegistry::with_builtins();
  transport::TransportRegistry transports = transport::builtin_transports();
  link::QueueDisciplineRegistry queue_disciplines = link::builtin_queue_disciplines();
};

// The kinds outputs.timeseries may list: the built-in ones (timeseries_kinds(),
// scenario/scenario.hpp), then what the registered transports offer.
std::vector<std::string> timeseries_kinds(const Registries& registries);

}  // namespace wmnsim
