#pragma once
// The distribution of a set of delays, kept exactly: every delay is stored (8 bytes
// each), so the mean and the percentiles are exact, not estimated from bins, and a
// histogram of any bin width can be drawn at the end. A flow delivering 1,000
// packets/s for 180 s stores 1.4 MB; the results need the numbers once, at the end.
//
// Percentiles are nearest-rank (Hyndman and Fan 1996, definition 1; NIST/SEMATECH
// e-Handbook 7.2.6.2 "empirical"): the p-th percentile is the smallest stored delay
// such that at least p % of the delays are at or below it, i.e. the value of rank
// ceil(p/100 * n) in ascending order (rank 1 for p = 0). It is always a delay that
// some packet had, and exact: no interpolation, no binning error.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/time.hpp"

namespace wmnsim {

class DelayDistribution {
 public:
  void add(Time delay) {
    delays_ps_.push_back(delay.picoseconds());
    // As a double: an int64 sum of hours of picosecond delays could overflow.
    sum_ps_ += static_cast<double>(delay.picoseconds());
  }
  // Adds every delay of `other` (a node's radios pooled into one distribution).
  void merge(const DelayDistribution& other);

  std::uint64_t count() const { return delays_ps_.size(); }
  // Nothing when empty.
  std::optional<double> mean_s() const;

  // What a results row reports, computed with one sort.
  struct Summary {
    std::uint64_t count = 0;
    std::optional<double> mean_s, p50_s, p95_s, p99_s, max_s;  // nothing when empty
  };
  Summary summary() const;

  // Nearest-rank percentile of `sorted_ps` (ascending, non-empty), p in [0, 100].
  static std::int64_t nearest_rank(const std::vector<std::int64_t>& sorted_ps, double p);

  // The bins [k * bin_width, (k + 1) * bin_width) that hold a delay, as (k, count)
  // in ascending k: sparse, so its size is bounded by the number of delays and of
  // distinct bins, not by the largest delay (a 100-s delay in 1-ms bins is one
  // entry, not 100,000). Empty when there are no delays. Throws
  // std::invalid_argument for a bin width <= 0.
  struct Bin {
    std::uint64_t index = 0;
    std::uint64_t count = 0;
    bool operator==(const Bin&) const = default;
  };
  std::vector<Bin> histogram(Time bin_width) const;

 private:
  std::vector<std::int64_t> delays_ps_;  // in arrival order
  double sum_ps_ = 0.0;
};

}  // namespace wmnsim
