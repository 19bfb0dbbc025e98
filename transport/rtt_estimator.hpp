#pragma once
// The retransmission timeout of RFC 6298: SRTT and RTTVAR from RTT samples, the
// RTO derived from them, clamped to [min_rto, max_rto], and its exponential
// back-off. Integer picosecond arithmetic: alpha = 1/8 and beta = 1/4 are exact.

#include <cstdint>

#include "core/time.hpp"

namespace wmnsim::transport {

struct RtoLimits {
  Time initial = Time::s(1);     // RFC 6298 2.1: 1 s before the first sample
  Time min = Time::ms(200);      // RFC 6298 2.4 says 1 s; 200 ms as Linux and the scenarios
  Time max = Time::s(60);        // RFC 6298 2.5: a cap of at least 60 s
  Time granularity = Time::ms(1);  // G of RFC 6298 2.2/2.3: the clock tick of the modelled host
};

class RttEstimator {
 public:
  explicit RttEstimator(RtoLimits limits);

  // RFC 6298 2.2 (first sample) and 2.3 (later ones); recomputes the RTO and
  // drops any back-off. Only a valid sample ends a back-off (Karn's algorithm,
  // RFC 6298 5.7: docs/transport.md).
  void add_sample(Time rtt);
  // RFC 6298 5.5: RTO = 2 RTO, up to max; kept until the next sample.
  void back_off();
  // RFC 6298 5.7: after a SYN timed out, data starts with an RTO of 3 s (the initial
  // RTO if that is longer: the RFC is silent there), clamped, without a back-off.
  void restart_after_syn_timeout();

  Time rto() const { return rto_; }
  bool has_sample() const { return has_sample_; }
  Time srtt() const { return srtt_; }
  Time rttvar() const { return rttvar_; }
  int backoffs() const { return backoffs_; }

 private:
  Time base_rto() const;

  RtoLimits limits_;
  bool has_sample_ = false;
  Time srtt_;
  Time rttvar_;
  Time rto_;
  int backoffs_ = 0;
};

}  // namespace wmnsim::transport
