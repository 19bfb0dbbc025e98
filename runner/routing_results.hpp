#pragma once
// The results' `routing` object of a run whose routing protocol ran during the
// simulation (AODV, core/aodv.hpp): its overhead and route events per node and in
// total (docs/results.md, `routing`). Static routing writes none.

#include <nlohmann/json.hpp>

#include "core/aodv.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

nlohmann::ordered_json aodv_results(const Scenario& scenario, const aodv::Aodv& agent);

}  // namespace wmnsim
