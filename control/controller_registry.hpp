#pragma once
// Controllers by type name. A scenario selects a controller with its "type"
// (docs/scenario.md, `controllers`); the registry maps that name to a factory. A
// new controller plugs in with one add() in with_builtins(), or a program adds
// its own before it runs a scenario. A value, not a global: two simulations in
// one process may use different registries.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "control/controller.hpp"

namespace wmnsim::control {

class ControllerRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Controller>(const ControllerConfig&, ControlContext&)>;

  // Every controller wmnsim implements.
  static ControllerRegistry with_builtins();

  // Replaces an earlier factory of the same name.
  void add(std::string name, Factory factory);
  bool has(std::string_view name) const;
  std::vector<std::string> names() const;

  // Throws NotSupportedError naming /controllers/<index>/type when no factory is
  // registered for config.type (the runner asks before it builds anything).
  void require(const ControllerConfig& config, std::size_t index) const;
  // Builds the controller of config.type; require()s it first.
  std::unique_ptr<Controller> create(const ControllerConfig& config, std::size_t index,
                                     ControlContext& context) const;

 private:
  std::map<std::string, Factory, std::less<>> factories_;
};

}  // namespace wmnsim::control
