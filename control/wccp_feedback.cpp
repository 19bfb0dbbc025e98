#include "control/wccp_feedback.hpp"

#include <algorithm>
#include <cmath>

namespace wmnsim::control {

WccpFeedback::WccpFeedback(const WccpFeedbackParams& params)
    : params_(params), control_interval_(std::max(params.initial_control_interval, params.min_control_interval)) {}

void WccpFeedback::observe(const CongestionHeader& header, std::uint32_t size_bytes, int weight) {
  const double w = weight;
  traffic_bytes_ += w * size_bytes;
  // Sec. III-E: r_p = 0 marks a sender without an RTT estimate; such a packet
  // carries no rate to count flows (Eq. 7) or intervals (Eq. 16) by.
  if (!(header.rate_pps > 0.0)) return;
  inverse_rates_ += w / header.rate_pps;
  weighted_intervals_ += w * header.control_interval.to_seconds() / header.rate_pps;
  observations_ += w;
}

double WccpFeedback::feedback(const CongestionHeader& header, std::uint32_t size_bytes, int weight) {
  if (!(header.rate_pps > 0.0) || size_bytes == 0) return kNoFeedback;
  const double w = weight;
  const double interval = control_interval_.to_seconds();
  // Eq. 9: the increase law's share, inversely proportional to the packets the
  // flow sends in an interval; Eq. 10: the decrease law's, the same per packet.
  double increase = increase_per_flow_ / (header.rate_pps * interval);
  double decrease = decrease_constant_ / interval;
  // Sec. III-D: what the interval's budget has left (a forwarded packet spends it twice).
  increase = std::min(increase, increase_left_ / w);
  decrease = std::max(decrease, decrease_left_ / w);
  increase_left_ -= w * increase;
  decrease_left_ -= w * decrease;
  return (increase + decrease) / size_bytes;
}

const WccpInterval& WccpFeedback::end_interval(double busy_ratio, Time length) {
  WccpInterval r;
  r.busy_ratio = busy_ratio;
  r.traffic_bytes = traffic_bytes_;
  r.observations = observations_;
  r.length = length;
  const double d = length.to_seconds();
  const double th = params_.busyness_threshold;
  if (busy_ratio > 0.0 && d > 0.0 && inverse_rates_ > 0.0) {
    const double s = traffic_bytes_;
    r.delta_bytes = (th - busy_ratio) / busy_ratio * s;  // Eq. 5
    const double ds = r.delta_bytes;
    const double shuffle = params_.alpha * (s + ds);     // Eq. 13
    if (ds > 0.0 && ds < shuffle) {
      r.increase_bytes = shuffle;
      r.decrease_bytes = ds - shuffle;
    } else if (ds < 0.0 && ds > -shuffle) {
      r.decrease_bytes = -shuffle;
      r.increase_bytes = ds + shuffle;
    } else {
      r.increase_bytes = std::max(ds, 0.0);
      r.decrease_bytes = std::min(ds, 0.0);
    }
    r.flows = inverse_rates_ / d;                        // Eq. 7
    r.increase_per_flow_bps = r.increase_bytes / (d * r.flows);  // Eq. 8
    r.decrease_constant = r.decrease_bytes / observations_;      // Eq. 12
  }
  // Eq. 17: the average of the senders' control intervals, weighted by the packets
  // each sends per second of it.
  if (inverse_rates_ > 0.0) {
    const Time average = Time::from_seconds(weighted_intervals_ / inverse_rates_);
    control_interval_ = std::max(average, params_.min_control_interval);
  }
  r.next_length = control_interval_;
  increase_per_flow_ = r.increase_per_flow_bps;
  decrease_constant_ = r.decrease_constant;
  increase_left_ = d > 0.0 ? r.increase_bytes / d : 0.0;
  decrease_left_ = d > 0.0 ? r.decrease_bytes / d : 0.0;
  traffic_bytes_ = inverse_rates_ = weighted_intervals_ = observations_ = 0.0;
  ++intervals_;
  last_ = r;
  return last_;
}

}  // namespace wmnsim::control
