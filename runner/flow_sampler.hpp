#pragma once
// Per-flow time series, sampled at the end of every measurement interval:
//   flow_goodput  application bytes delivered in order during the interval, bit/s
//   tcp_cwnd      congestion window at the sample instant, segments (cwnd / MSS)
//   flow_rtt      smoothed RTT (RFC 6298 SRTT) at the sample instant, s; tcp only,
//                 and only once the flow has a sample
// and one per node:
//   weighted_intra_mesh_loss  bits dropped at the node during the interval, each
//                 weighted by the hops its packet had made (004 Sec. 4.2), bit/s;
//                 the run-level figure is the summary's weighted_intra_mesh_loss_bps
// Sample ids are flow ids (node ids for the per-node kind). One event per interval
// for everything.

#include <cstdint>
#include <string>
#include <vector>

#include "results/results.hpp"
#include "runner/network.hpp"

namespace wmnsim {

class FlowSampler {
 public:
  FlowSampler(Network& network, Time interval, const std::vector<std::string>& kinds);
  ~FlowSampler();
  FlowSampler(const FlowSampler&) = delete;
  FlowSampler& operator=(const FlowSampler&) = delete;

  void start();
  void write(Results& out) const;

 private:
  void sample();

  Network& network_;
  Time interval_;
  bool goodput_ = false, cwnd_ = false, rtt_ = false, loss_ = false;
  std::vector<std::uint64_t> last_bytes_;
  std::vector<std::uint64_t> last_weighted_bits_;  // per node
  std::vector<TimeSeries::Sample> goodput_samples_, cwnd_samples_, rtt_samples_, loss_samples_;
  EventId next_{};
};

}  // namespace wmnsim
