#pragma once
// Jitter as ns-3's FlowMonitor reports it: the mean absolute difference between the
// one-way delays of consecutively received packets, jitterSum / (rxPackets - 1)
// (Carneiro, Fortuna, Ricardo, "FlowMonitor - a network monitoring framework for
// the Network Simulator 3", VALUETOOLS 2009, Sec. 3.3). Each difference is an IP
// packet delay variation in the sense of RFC 3393 (Sec. 2.4, "IPDV") with the
// selection function "consecutive packets in arrival order" (RFC 3393 Sec. 4.5);
// the mean of their absolute values is what FlowMonitor's jitter column holds.

#include <cstdint>
#include <optional>

#include "core/time.hpp"

namespace wmnsim {

class DelayVariation {
 public:
  // The delay of the next packet received, in arrival order.
  void add(Time delay) {
    if (count_ > 0) {
      const Time d = delay - last_;
      sum_abs_ps_ += static_cast<double>(d < Time::zero() ? -d.picoseconds() : d.picoseconds());
    }
    last_ = delay;
    ++count_;
  }
  std::uint64_t packets() const { return count_; }
  // Mean |IPDV| over the packets' consecutive pairs; nothing below two packets.
  std::optional<double> mean_s() const {
    if (count_ < 2) return std::nullopt;
    return sum_abs_ps_ / static_cast<double>(count_ - 1) * 1e-12;
  }

 private:
  std::uint64_t count_ = 0;
  Time last_;
  double sum_abs_ps_ = 0.0;
};

}  // namespace wmnsim
