#pragma once
// Fairness and efficiency figures of a run's per-flow rates.

#include <optional>
#include <span>

namespace wmnsim {

// Jain's fairness index (Jain, Chiu, Hawe 1984): (sum x)^2 / (n sum x^2), 1 when
// all rates are equal, 1/n when one flow has everything. Empty when there are no
// flows or every rate is zero.
inline std::optional<double> jain_fairness_index(std::span<const double> rates) {
  double sum = 0.0, sum_sq = 0.0;
  for (double x : rates) {
    sum += x;
    sum_sq += x * x;
  }
  if (rates.empty() || sum_sq <= 0.0) return std::nullopt;
  return sum * sum / (static_cast<double>(rates.size()) * sum_sq);
}

}  // namespace wmnsim
