#pragma once
// The routing layer's settings, as a scenario's `routing` section gives them
// (docs/scenario.md, `routing`).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aodv_params.hpp"
#include "core/enum_names.hpp"

namespace wmnsim {

// aodv: no tables; AODV (RFC 3561, core/aodv.hpp) finds routes during the run.
enum class RoutingType { automatic, gateway_trees, static_tables, aodv };
enum class RoutingMetric { hop_count, airtime };

struct StaticRoute {
  std::size_t node = 0;
  std::optional<std::size_t> dst;  // empty: the default route "*"
  std::size_t next_hop = 0;
  std::string defined_at;  // where the entry is written (scenario/: its JSON pointer), for messages
};

struct RoutingSection {
  RoutingType type = RoutingType::automatic;
  RoutingMetric metric = RoutingMetric::hop_count;
  std::vector<StaticRoute> routes;  // static_tables only
  AodvParams aodv;                  // aodv only
};

inline constexpr std::array<EnumName<RoutingType>, 4> kRoutingTypes{
    {{"auto", RoutingType::automatic},
     {"gateway_trees", RoutingType::gateway_trees},
     {"static", RoutingType::static_tables},
     {"aodv", RoutingType::aodv}}};
inline constexpr std::array<EnumName<RoutingMetric>, 2> kRoutingMetrics{
    {{"hop_count", RoutingMetric::hop_count}, {"airtime", RoutingMetric::airtime}}};
constexpr std::string_view to_string(RoutingType v) { return enum_name(names(kRoutingTypes), v); }
constexpr std::string_view to_string(RoutingMetric v) { return enum_name(names(kRoutingMetrics), v); }

}  // namespace wmnsim
