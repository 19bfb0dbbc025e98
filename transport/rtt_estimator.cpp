#include "transport/rtt_estimator.hpp"

#include <algorithm>
#include <stdexcept>

namespace wmnsim::transport {

RttEstimator::RttEstimator(RtoLimits limits) : limits_(limits) {
  if (limits_.min <= Time::zero() || limits_.max < limits_.min || limits_.initial <= Time::zero()) {
    throw std::invalid_argument("RTO limits need 0 < min <= max and a positive initial RTO");
  }
  rto_ = base_rto();
}

Time RttEstimator::base_rto() const {
  // RFC 6298 2.1 before any sample; 2.2/2.3: RTO = SRTT + max(G, K*RTTVAR), K = 4; 2.4/2.5: clamp.
  const Time raw = has_sample_ ? srtt_ + std::max(limits_.granularity, rttvar_ * 4) : limits_.initial;
  return std::clamp(raw, limits_.min, limits_.max);
}

void RttEstimator::add_sample(Time rtt) {
  if (!has_sample_) {
    // RFC 6298 2.2: SRTT = R, RTTVAR = R/2.
    srtt_ = rtt;
    rttvar_ = rtt / 2;
    has_sample_ = true;
  } else {
    // RFC 6298 2.3: RTTVAR first (it uses the old SRTT), then SRTT.
    const Time error = srtt_ > rtt ? srtt_ - rtt : rtt - srtt_;
    rttvar_ = (rttvar_ * 3 + error) / 4;
    srtt_ = (srtt_ * 7 + rtt) / 8;
  }
  rto_ = base_rto();
  backoffs_ = 0;
}

void RttEstimator::restart_after_syn_timeout() {
  // "the RTO MUST be re-initialized to 3 seconds when data transmission begins"
  // (said of an RTO below 3 s; for an initial RTO of 3 s or more the RFC is silent,
  // and data starts with that initial RTO, the SYN's back-off dropped).
  rto_ = std::clamp(std::max(limits_.initial, Time::s(3)), limits_.min, limits_.max);
  backoffs_ = 0;
}

void RttEstimator::back_off() {
  rto_ = std::min(rto_ * 2, limits_.max);
  ++backoffs_;
}

}  // namespace wmnsim::transport
