#pragma once
// The human-readable per-flow table printed by `wmnsim run`.

#include <string>

#include "results/results.hpp"

namespace wmnsim {

// One aligned column per flow metric, then the run summary (e.g. Jain's index).
std::string format_flow_table(const Results& results);

}  // namespace wmnsim
