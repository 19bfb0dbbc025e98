#include "runner/flow_sampler.hpp"

#include <algorithm>

namespace wmnsim {

FlowSampler::FlowSampler(Network& network, Time interval, const std::vector<std::string>& kinds)
    : network_(network),
      interval_(interval),
      last_bytes_(network.scenario().flows.size(), 0),
      last_weighted_bits_(network.scenario().nodes.size(), 0) {
  const auto wants = [&](const char* kind) { return std::find(kinds.begin(), kinds.end(), kind) != kinds.end(); };
  goodput_ = wants("flow_goodput");
  cwnd_ = wants("tcp_cwnd");
  rtt_ = wants("flow_rtt");
  loss_ = wants("weighted_intra_mesh_loss");
}

FlowSampler::~FlowSampler() { network_.simulation().scheduler().cancel(next_); }

void FlowSampler::start() {
  if (!goodput_ && !cwnd_ && !rtt_ && !loss_) return;
  next_ = network_.simulation().scheduler().schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

void FlowSampler::sample() {
  Scheduler& s = network_.simulation().scheduler();
  const double t = s.now().to_seconds();
  const Scenario& scenario = network_.scenario();
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    const FlowEndpoints& e = network_.flow(i);
    const std::string& id = scenario.flows[i].id;
    if (goodput_) {
      const std::uint64_t bytes = e.payload_bytes_delivered();
      goodput_samples_.push_back({t, id, static_cast<double>(bytes - last_bytes_[i]) * 8.0 / interval_.to_seconds()});
      last_bytes_[i] = bytes;
    }
    if (e.tcp_sender) {
      if (cwnd_) {
        const double mss = e.tcp_sender->config().mss;
        cwnd_samples_.push_back({t, id, static_cast<double>(e.tcp_sender->cwnd_bytes()) / mss});
      }
      if (rtt_ && e.tcp_sender->rtt().has_sample()) {
        rtt_samples_.push_back({t, id, e.tcp_sender->rtt().srtt().to_seconds()});
      }
    }
  }
  if (loss_) {
    for (std::size_t n = 0; n < scenario.nodes.size(); ++n) {
      // A drop at the source weighs nothing (0 hops), so this is the intra-mesh loss.
      const std::uint64_t bits = network_.ledger().node_drops(static_cast<std::uint32_t>(n)).total.hop_weighted_bits;
      loss_samples_.push_back({t, scenario.nodes[n].id, static_cast<double>(bits - last_weighted_bits_[n]) / interval_.to_seconds()});
      last_weighted_bits_[n] = bits;
    }
  }
  next_ = s.schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

void FlowSampler::write(Results& out) const {
  const auto put = [&](const char* kind, const char* unit, const std::vector<TimeSeries::Sample>& samples, bool on) {
    if (on) append_timeseries(out, kind, unit, interval_, samples);
  };
  put("flow_goodput", "bit/s", goodput_samples_, goodput_);
  put("tcp_cwnd", "segments", cwnd_samples_, cwnd_);
  put("flow_rtt", "s", rtt_samples_, rtt_);
  put("weighted_intra_mesh_loss", "bit/s", loss_samples_, loss_);
}

}  // namespace wmnsim
