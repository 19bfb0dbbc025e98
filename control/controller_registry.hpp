#pragma once
// Controllers by type name. A scenario selects a controller with its "type"
// (docs/scenario.md, `controllers`); the registry maps that name to its entry
// (control/controller_entry.hpp), which parses the controller's keys, contributes
// its fragments of the JSON Schema and of docs/scenario.md, and builds it. A new
// controller plugs in with one add() in with_builtins(), or a program adds its own
// before it parses and runs a scenario. A value, not a global: two simulations in
// one process may use different registries.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "control/controller.hpp"
#include "control/controller_entry.hpp"

namespace wmnsim::control {

class ControllerRegistry {
 public:
  using Factory = ControllerEntry::Factory;

  // Every controller wmnsim parses (and builds, where it simulates it).
  static ControllerRegistry with_builtins();

  // Replaces an entry of the same name in place, else appends. Registration order is
  // the order of names in messages, in the schema and in the docs.
  void add(ControllerEntry entry);
  // Gives the registered entry `name` a factory (replacing any). Throws
  // std::invalid_argument when no entry of that name is registered.
  void add(std::string_view name, Factory factory);
  // Registered with a factory: simulated (a parse-only entry is registered, not simulated).
  bool has(std::string_view name) const {
    const ControllerEntry* e = find(name);
    return e != nullptr && static_cast<bool>(e->build);
  }
  // The registered entry, with or without a factory; nullptr when unknown.
  const ControllerEntry* find(std::string_view name) const;
  // Every registered name, in registration order (what a scenario may name).
  std::vector<std::string> names() const;
  const std::vector<ControllerEntry>& entries() const { return entries_; }

  // Throws NotSupportedError naming /controllers/<index>/type when the entry of
  // config.type has no factory (the runner asks before it builds anything).
  void require(const ControllerConfig& config, std::size_t index) const;
  // Builds the controller of config.type; require()s it first.
  std::unique_ptr<Controller> create(const ControllerConfig& config, std::size_t index,
                                     ControlContext& context) const;

 private:
  std::vector<ControllerEntry> entries_;
};

}  // namespace wmnsim::control
