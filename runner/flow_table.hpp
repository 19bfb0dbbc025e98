#pragma once
// The human-readable per-flow table printed by `wmnsim run`.

#include <string>

#include "results/results.hpp"

namespace wmnsim {

// The per-flow table, then the run summary (e.g. Jain's index). Compact (the
// default): the columns a reader scans first, in short headers with readable units
// (goodput in Mbit/s, delays in ms), so that it fits a terminal; wide: one column per
// flow metric under its results-file name, as --csv writes them.
std::string format_flow_table(const Results& results, bool wide = false);

}  // namespace wmnsim
