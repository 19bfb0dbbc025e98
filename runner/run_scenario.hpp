#pragma once
// Runs a scenario: builds the network from every layer, runs it, collects results.

#include <stdexcept>

#include "core/results.hpp"
#include "core/scenario.hpp"
#include "core/simulation.hpp"

namespace wmnsim {

// The scenario is valid but asks for something this build cannot simulate yet.
// The message names the JSON path and the missing piece.
class NotSupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  RunControl control;
  spdlog::level::level_enum log_level = spdlog::level::warn;
};

// Throws NotSupportedError for features no layer implements yet.
Results run_scenario(const Scenario& scenario, const RunOptions& options = {});

}  // namespace wmnsim
