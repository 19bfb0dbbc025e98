#include "core/delay_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace wmnsim {

void DelayDistribution::merge(const DelayDistribution& other) {
  delays_ps_.insert(delays_ps_.end(), other.delays_ps_.begin(), other.delays_ps_.end());
  sum_ps_ += other.sum_ps_;
}

std::optional<double> DelayDistribution::mean_s() const {
  if (delays_ps_.empty()) return std::nullopt;
  return sum_ps_ / static_cast<double>(delays_ps_.size()) * 1e-12;
}

std::int64_t DelayDistribution::nearest_rank(const std::vector<std::int64_t>& sorted_ps, double p) {
  if (sorted_ps.empty()) throw std::invalid_argument("nearest_rank: no values");
  if (!(p >= 0.0 && p <= 100.0)) throw std::invalid_argument("nearest_rank: p must be in [0, 100]");
  const double n = static_cast<double>(sorted_ps.size());
  // rank = ceil(p/100 * n), at least 1. p/100 * n is computed as p * n / 100 so that
  // exact products (p = 95, n = 20: rank 19) are not pushed up by rounding.
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n / 100.0)));
  return sorted_ps[std::min(rank, sorted_ps.size()) - 1];
}

namespace {

// nearest_rank's index (0-based) of percentile p among n values.
std::size_t rank_index(std::size_t n, double p) {
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p * static_cast<double>(n) / 100.0)));
  return std::min(rank, n) - 1;
}

}  // namespace

DelayDistribution::Summary DelayDistribution::summary() const {
  Summary s;
  s.count = delays_ps_.size();
  if (delays_ps_.empty()) return s;
  // Four order statistics rather than a sort (O(n), not O(n log n): a 60-s run keeps
  // tens of thousands of delays per radio), largest rank first, each selection
  // narrowing the range of the next: the same values nearest_rank gives on the
  // sorted delays.
  std::vector<std::int64_t> v = delays_ps_;
  const std::size_t n = v.size();
  const std::size_t i99 = rank_index(n, 99), i95 = rank_index(n, 95), i50 = rank_index(n, 50);
  const auto at = [&v](std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  std::nth_element(v.begin(), at(i99), v.end());
  // The largest is among [i99, n), at or above the 99th percentile: 1 % of the scan.
  const std::int64_t max_ps = *std::max_element(at(i99), v.end());
  std::nth_element(v.begin(), at(i95), at(i99));  // [0, i99) holds the i99 smallest
  std::nth_element(v.begin(), at(i50), at(i95));
  const auto seconds = [](std::int64_t ps) { return static_cast<double>(ps) * 1e-12; };
  s.mean_s = mean_s();
  s.p50_s = seconds(v[i50]);
  s.p95_s = seconds(v[i95]);
  s.p99_s = seconds(v[i99]);
  s.max_s = seconds(max_ps);
  return s;
}

std::vector<DelayDistribution::Bin> DelayDistribution::histogram(Time bin_width) const {
  if (bin_width <= Time::zero()) throw std::invalid_argument("histogram: the bin width must be positive");
  const std::int64_t width = bin_width.picoseconds();
  std::vector<std::uint64_t> index;
  index.reserve(delays_ps_.size());
  std::uint64_t lowest = std::numeric_limits<std::uint64_t>::max(), highest = 0;
  for (const std::int64_t d : delays_ps_) {
    index.push_back(static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0) / width));
    lowest = std::min(lowest, index.back());
    highest = std::max(highest, index.back());
  }
  std::vector<Bin> bins;
  if (!index.empty() && highest - lowest < index.size()) {
    // The bins span no more indices than there are delays (the usual case: a flow's
    // delays in 1-ms bins): counted in place, O(n), where sorting the indices cost
    // most of a short run's results (docs/performance.md, "Short runs").
    std::vector<std::uint64_t> counts(highest - lowest + 1, 0);
    for (const std::uint64_t k : index) ++counts[k - lowest];
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] > 0) bins.push_back({lowest + i, counts[i]});
    }
    return bins;
  }
  std::sort(index.begin(), index.end());
  for (const std::uint64_t k : index) {
    if (bins.empty() || bins.back().index != k) bins.push_back({k, 0});
    ++bins.back().count;
  }
  return bins;
}

}  // namespace wmnsim
