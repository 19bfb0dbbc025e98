#pragma once
// Minimum, mean and maximum of a set of delays, without storing them.

#include <algorithm>
#include <cstdint>

#include "core/time.hpp"

namespace wmnsim::transport {

class DelayStats {
 public:
  void add(Time delay) {
    if (count_ == 0 || delay < min_) min_ = delay;
    if (count_ == 0 || delay > max_) max_ = delay;
    // Summed in picoseconds as a double: an int64 sum of hours of delays could overflow.
    sum_ps_ += static_cast<double>(delay.picoseconds());
    ++count_;
  }
  std::uint64_t count() const { return count_; }
  Time min() const { return min_; }  // zero when empty
  Time max() const { return max_; }  // zero when empty
  double mean_s() const { return count_ == 0 ? 0.0 : sum_ps_ / static_cast<double>(count_) * 1e-12; }

 private:
  std::uint64_t count_ = 0;
  Time min_;
  Time max_;
  double sum_ps_ = 0.0;
};

}  // namespace wmnsim::transport
