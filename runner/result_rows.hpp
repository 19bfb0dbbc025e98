#pragma once
// Helpers for the per-flow and per-node rows of the results file (docs/results.md).

#include <nlohmann/json.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "core/delay_distribution.hpp"
#include "results/result_columns.hpp"
#include "transport/flow_endpoint.hpp"

namespace wmnsim {

// Adds a flow's own figures (FlowEndpoint::statistics), in the order the transport
// gives them, to its row. Throws std::logic_error if one would replace a key the
// row already has.
void put_flow_statistics(const transport::FlowEndpoint& flow, nlohmann::ordered_json& row);
// Appends `columns` (the fixed columns after the statistics) to `row`; throws
// std::logic_error when a statistic already took one of their names.
void append_columns(nlohmann::ordered_json& row, const nlohmann::ordered_json& columns);

// Rows of one table share their keys, in one order (first appearance, row by row);
// a key a row lacks (a host has no MAC, a transport has no such statistic) is null
// there.
void same_keys(std::vector<nlohmann::ordered_json>& rows);

// Adds the mean and percentiles of `delays` to `row` in `columns`, null when there
// are none (a radio that sent no data).
void put_delay_columns(nlohmann::ordered_json& row, const DelayColumns& columns, const DelayDistribution& delays);
void put_delay_columns(nlohmann::ordered_json& row, const DelayColumns& columns,
                       const DelayDistribution::Summary& delays);

// The summaries of the MACs' delay distributions, each selected once: a node with
// one radio reports that radio's delays in the nodes table and again in the radios
// table, and selecting the percentiles of tens of thousands of delays was most of
// what a short run spent on its results (docs/performance.md, "Short runs").
// Keyed by the distribution's address: it must not change while the cache is used.
class DelaySummaries {
 public:
  const DelayDistribution::Summary& of(const DelayDistribution& delays);

 private:
  std::unordered_map<const DelayDistribution*, DelayDistribution::Summary> known_;
};

}  // namespace wmnsim
