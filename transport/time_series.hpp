#pragma once
// (time, value) samples recorded on request (cwnd and RTT traces). Recording is
// off unless enabled, so long runs do not grow memory for nothing.

#include <vector>

#include "core/time.hpp"

namespace wmnsim::transport {

struct TimeSample {
  Time at;
  double value = 0.0;
};

class TimeSeries {
 public:
  explicit TimeSeries(bool enabled = false) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void record(Time at, double value) {
    if (enabled_) samples_.push_back(TimeSample{at, value});
  }
  const std::vector<TimeSample>& samples() const { return samples_; }

 private:
  bool enabled_;
  std::vector<TimeSample> samples_;
};

}  // namespace wmnsim::transport
