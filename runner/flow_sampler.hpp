#pragma once
// Per-flow time series, sampled at the end of every measurement interval:
//   flow_goodput  application bytes delivered in order during the interval, bit/s
//                 (every flow: FlowEndpoint::payload_bytes_delivered)
//   any kind a flow's transport offers (FlowEndpoint::series), its value at the
//                 sample instant, e.g. TCP's tcp_cwnd (segments) and flow_rtt (s,
//                 once the flow has an RTT sample); flows that do not offer the
//                 kind, or have no value yet, add no row
// and one per node:
//   weighted_intra_mesh_loss  bits dropped at the node during the interval, each
//                 weighted by the hops its packet had made (004 Sec. 4.2), bit/s;
//                 the run-level figure is the summary's weighted_intra_mesh_loss_bps
// Sample ids are flow ids (node ids for the per-node kind). One event per interval
// for everything. Requested kinds that are neither of these nor offered by any
// flow nor known to a transport (`known_series`) are another sampler's (the MAC's).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/packet_ledger.hpp"
#include "core/scheduler.hpp"
#include "results/results.hpp"
#include "runner/network.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/transport_entry.hpp"

namespace wmnsim {

class FlowSampler {
 public:
  struct Flow {
    std::string id;  // the samples' id
    const transport::FlowEndpoint* endpoint;
  };
  // What a sampler watches.
  struct Sources {
    std::vector<Flow> flows;
    const PacketLedger* ledger = nullptr;  // weighted_intra_mesh_loss: node_drops()
    std::vector<std::string> node_ids;     // by ledger node index (weighted_intra_mesh_loss: its sample ids)
    // Units of the kinds transports can offer, for a kind requested while no flow
    // of this run offers it (written with no rows).
    std::vector<transport::FlowSeriesKind> known_series;
  };

  FlowSampler(Scheduler& scheduler, Sources sources, Time interval, const std::vector<std::string>& kinds);
  // The flows and nodes of `network`; `transports` are the ones a kind may come from.
  FlowSampler(Network& network, const transport::TransportRegistry& transports, Time interval,
              const std::vector<std::string>& kinds);
  ~FlowSampler();
  FlowSampler(const FlowSampler&) = delete;
  FlowSampler& operator=(const FlowSampler&) = delete;

  void start();
  void write(Results& out) const;

 private:
  // One requested kind that flows offer.
  struct Series {
    std::string kind;
    std::string unit;
    std::vector<TimeSeries::Sample> samples;
  };

  void sample();

  Scheduler& scheduler_;
  Sources sources_;
  Time interval_;
  bool goodput_ = false, loss_ = false;
  std::vector<Series> series_;
  std::vector<std::uint64_t> last_bytes_;
  std::vector<std::uint64_t> last_weighted_bits_;  // per node
  std::vector<TimeSeries::Sample> goodput_samples_, loss_samples_;
  EventId next_{};
};

}  // namespace wmnsim
