#include "runner/result_rows.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace wmnsim {

void put_flow_statistics(const transport::FlowEndpoint& flow, nlohmann::ordered_json& row) {
  for (const transport::FlowStatistic& stat : flow.statistics()) {
    const std::string key(stat.name);
    if (row.contains(key)) throw std::logic_error("flow statistic " + key + " would replace a key of the flow's row");
    nlohmann::ordered_json& cell = row[key];
    std::visit([&](auto value) { cell = value; }, stat.value);
    // A statistic that has no value in this run (NaN) is null, as a missing column is.
    if (cell.is_number_float() && std::isnan(cell.get<double>())) cell = nullptr;
  }
}

void append_columns(nlohmann::ordered_json& row, const nlohmann::ordered_json& columns) {
  for (const auto& [key, value] : columns.items()) {
    if (row.contains(key)) {
      throw std::logic_error("column " + key + " is already in the flow's row (a transport statistic took its name)");
    }
    row[key] = value;
  }
}

void same_keys(std::vector<nlohmann::ordered_json>& rows) {
  std::vector<std::string> keys;
  for (const auto& row : rows) {
    for (const auto& [key, value] : row.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  for (auto& row : rows) {
    nlohmann::ordered_json ordered;
    for (const std::string& key : keys) ordered[key] = row.contains(key) ? row[key] : nlohmann::ordered_json(nullptr);
    row = std::move(ordered);
  }
}

void put_delay_columns(nlohmann::ordered_json& row, const DelayColumns& columns, const DelayDistribution& delays) {
  put_delay_columns(row, columns, delays.summary());
}

void put_delay_columns(nlohmann::ordered_json& row, const DelayColumns& columns, const DelayDistribution::Summary& d) {
  columns.mean_s.set(row, d.mean_s);
  columns.p50_s.set(row, d.p50_s);
  columns.p95_s.set(row, d.p95_s);
  columns.p99_s.set(row, d.p99_s);
}

const DelayDistribution::Summary& DelaySummaries::of(const DelayDistribution& delays) {
  auto it = known_.find(&delays);
  if (it == known_.end()) it = known_.emplace(&delays, delays.summary()).first;
  return it->second;
}

}  // namespace wmnsim
