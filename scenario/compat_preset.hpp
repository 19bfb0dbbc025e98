#pragma once
// Compatibility presets (`"compat"` at a scenario's top level; docs/validation.md).
//
// `"compat": "ns3"` makes wmnsim run a scenario with the defaults of ns-3 3.44 wherever
// wmnsim can express them: before the scenario is read, every key the preset sets and
// the scenario leaves out is written into the document, so an explicit key (in the file
// or through --set) always wins, and a scenario without `compat` is read exactly as
// before. The preset is data: one row per key, with the ns-3 attribute it copies, that
// attribute's default and what the standard or RFC says; docs/scenario.md's table is
// generated from these rows (`wmnsim fragments`), so the docs cannot drift from them.

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wmnsim {

struct CompatSetting {
  // Where, as a JSON pointer; "/flows/*/tcp/..." is each TCP flow's key.
  std::string pointer;
  // The value for this scenario, or nullopt where the key does not apply (for example
  // a sinr-only key under another reception model). `flow` is the flow for a
  // "/flows/*" pointer, else null.
  std::function<std::optional<nlohmann::json>(const nlohmann::json& doc, const nlohmann::json& flow)> value;
  std::string value_text;     // the value as the docs show it
  std::string ns3_attribute;  // ns-3's attribute, e.g. "ns3::WifiMacQueue::MaxDelay"
  std::string ns3_default;    // its ns-3 3.44 default, e.g. "500 ms"
  std::string standard;       // the standard's (or RFC's) rule for the same quantity
};

// The ns3 preset's rows, in the order they are applied.
const std::vector<CompatSetting>& ns3_compat_settings();

// `doc` with the preset named by its top-level "compat" applied (keys it leaves out
// filled in); `doc` itself when it has no "compat" or an unknown one (the loader
// reports that). The "compat" key stays in the result.
nlohmann::json apply_compat_preset(const nlohmann::json& doc);

// The controllers that install their own queue discipline (ControllerEntry::
// replaces_queues): beside one the ns3 preset leaves mac.dequeue alone, since only a
// drop_tail queue counts the place its "ns3" reading keeps for a frame in service.
// The preset reads the document before any registry, hence the names here; a test
// keeps them equal to the registry's, in its order.
inline constexpr const char* kControllersReplacingQueues[] = {"gateway_rate_control", "tcc", "lscc"};

// The names "compat" accepts.
const std::vector<std::string>& compat_preset_names();

// The ns3 preset as a markdown table (docs/scenario.md, between
// `<!-- compat:ns3 begin -->` and `<!-- compat:ns3 end -->`).
std::string ns3_compat_table();

}  // namespace wmnsim
