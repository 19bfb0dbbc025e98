#pragma once
// 001's capacity models for a whole scenario (`wmnsim model capacity`,
// wmnsim.model.capacity, docs/capacity.md): the PHY and the routing built as a run
// builds them, the problem (scenario/capacity_problem.hpp), and each flow's max-min
// fair share under both models, as one JSON document and as a table.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "core/time.hpp"
#include "scenario/capacity_problem.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

struct CapacityReportOptions {
  // The flows sending at this time (start <= at < stop); empty: every flow.
  std::optional<Time> at;
  CapacityOptions capacity;
};

// {"scenario", "at_s", "b": {...}, "models": {"collision_domain": {...}, "clique": {...}},
//  "flows": [{"id", "src", "dst", "active", "hops", "route", "collision_domain_bps", "clique_bps"}]}
// (docs/capacity.md lists the fields). A rate is null for a flow with no wireless hop.
// Throws ScenarioError (routing), NotSupportedError (PHY) and std::invalid_argument
// (a bad B), as a run would refuse the scenario.
nlohmann::ordered_json capacity_report(const Scenario& scenario, const CapacityReportOptions& options = {});

// The document as a table for the terminal.
std::string format_capacity_table(const nlohmann::ordered_json& report);

}  // namespace wmnsim
