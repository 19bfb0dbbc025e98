#pragma once
// Checks on a whole run's results shared by the runner's tests.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim::test {

// The flow table's row of flow `id`.
inline const nlohmann::ordered_json& flow_row(const Results& r, const std::string& id) {
  for (const auto& row : r.flows) {
    if (flow_column::id.of(row) == id) return row;
  }
  throw std::runtime_error("no flow " + id);
}

// Every packet originated is accounted for: delivered, dropped or still in the network.
inline void expect_conserved(const Results& r) {
  const auto p = summary_column::packets.of(r.summary);
  EXPECT_EQ(p["originated"].get<std::uint64_t>(),
            p["delivered"].get<std::uint64_t>() + p["dropped"].get<std::uint64_t>() + p["in_network"].get<std::uint64_t>())
      << p.dump();
}

}  // namespace wmnsim::test
