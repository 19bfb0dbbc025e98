#include "control/controller_registry.hpp"

#include <utility>

#include "control/counter_starvation.hpp"
#include "core/not_supported.hpp"

namespace wmnsim::control {

ControllerRegistry ControllerRegistry::with_builtins() {
  ControllerRegistry r;
  r.add("counter_starvation", [](const ControllerConfig& c, ControlContext& ctx) {
    return std::make_unique<CounterStarvation>(c, ctx);
  });
  return r;
}

void ControllerRegistry::add(std::string name, Factory factory) { factories_[std::move(name)] = std::move(factory); }

bool ControllerRegistry::has(std::string_view name) const { return factories_.find(name) != factories_.end(); }

std::vector<std::string> ControllerRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, factory] : factories_) out.push_back(name);
  return out;
}

void ControllerRegistry::require(const ControllerConfig& config, std::size_t index) const {
  const std::string_view type = to_string(config.type);
  if (has(type)) return;
  std::string known;
  for (const auto& [name, factory] : factories_) known += (known.empty() ? "" : ", ") + name;
  throw NotSupportedError("/controllers/" + std::to_string(index) + "/type: \"" + std::string(type) +
                          "\" is not simulated yet (simulated: " + known +
                          "); remove this controller to run the scenario without it");
}

std::unique_ptr<Controller> ControllerRegistry::create(const ControllerConfig& config, std::size_t index,
                                                       ControlContext& context) const {
  require(config, index);
  return factories_.find(to_string(config.type))->second(config, context);
}

}  // namespace wmnsim::control
