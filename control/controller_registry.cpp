#include "control/controller_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "control/congestion_notification_params.hpp"
#include "control/counter_starvation_params.hpp"
#include "control/edca_policy_params.hpp"
#include "control/gateway_rate_control_params.hpp"
#include "control/wccp_params.hpp"
#include "core/not_supported.hpp"

namespace wmnsim::control {

ControllerRegistry ControllerRegistry::with_builtins() {
  ControllerRegistry r;
  r.add(counter_starvation_entry());
  r.add(gateway_rate_control_entry());
  r.add(tcc_entry());
  r.add(lscc_entry());
  r.add(edca_ack_priority_entry());
  r.add(edca_txop_entry());
  r.add(wccp_entry());
  return r;
}

void ControllerRegistry::add(ControllerEntry entry) {
  for (ControllerEntry& e : entries_) {
    if (e.name == entry.name) {
      e = std::move(entry);
      return;
    }
  }
  entries_.push_back(std::move(entry));
}

void ControllerRegistry::add(std::string_view name, Factory factory) {
  for (ControllerEntry& e : entries_) {
    if (e.name == name) {
      e.build = std::move(factory);
      return;
    }
  }
  throw std::invalid_argument("ControllerRegistry::add: no controller \"" + std::string(name) +
                              "\" is registered; add its ControllerEntry first");
}

const ControllerEntry* ControllerRegistry::find(std::string_view name) const {
  for (const ControllerEntry& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::vector<std::string> ControllerRegistry::names() const {
  std::vector<std::string> out;
  for (const ControllerEntry& e : entries_) out.push_back(e.name);
  return out;
}

void ControllerRegistry::require(const ControllerConfig& config, std::size_t index) const {
  const ControllerEntry* entry = find(config.type);
  if (entry != nullptr && entry->build) return;
  // Listed in name order, as the message always has.
  std::vector<std::string> simulated;
  for (const ControllerEntry& e : entries_) {
    if (e.build) simulated.push_back(e.name);
  }
  std::sort(simulated.begin(), simulated.end());
  std::string known;
  for (const std::string& name : simulated) known += (known.empty() ? "" : ", ") + name;
  throw NotSupportedError("/controllers/" + std::to_string(index) + "/type: \"" + config.type +
                          "\" is not simulated yet (simulated: " + known +
                          "); remove this controller to run the scenario without it");
}

std::unique_ptr<Controller> ControllerRegistry::create(const ControllerConfig& config, std::size_t index,
                                                       ControlContext& context) const {
  require(config, index);
  return find(config.type)->build(config, context);
}

}  // namespace wmnsim::control
