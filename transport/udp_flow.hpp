#pragma once
// A UDP flow: its UdpSource and UdpSink, seen through FlowEndpoint.
//
// A saturated source has no clock of its own: its node asks for one more datagram
// whenever one of the flow's own datagrams leaves its queues (core/node.hpp
// BacklogSource); backlog() is what the node is given.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/node.hpp"  // BacklogSource
#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/measurement_window.hpp"
#include "transport/udp_sink.hpp"
#include "transport/udp_source.hpp"

namespace wmnsim::transport {

class UdpFlow final : public FlowEndpoint {
 public:
  // The source sends through `network` (its node); the sink counts over `window`.
  // The source is built first, so its start events are scheduled as a lone
  // UdpSource's would be.
  UdpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& network, const UdpSourceConfig& config,
          RandomStream arrivals, MeasurementWindow window);

  UdpSource& source() { return source_; }
  const UdpSource& source() const { return source_; }
  UdpSink& sink() { return sink_; }
  const UdpSink& sink() const { return sink_; }
  // For a saturated source: pushes one more datagram when asked.
  BacklogSource& backlog() { return backlog_; }

  std::uint64_t packets_sent() const override { return source_.stats().packets_sent; }
  std::uint64_t payload_bytes_delivered() const override { return sink_.stats().payload_bytes; }
  double goodput_bps() const override { return sink_.goodput_bps(); }
  std::vector<FlowStatistic> statistics() const override;

 private:
  class Backlog final : public BacklogSource {
   public:
    explicit Backlog(UdpSource& source) : source_(source) {}
    void refill() override { source_.push_backlog(1); }

   private:
    UdpSource& source_;
  };

  UdpSource source_;
  UdpSink sink_;
  Backlog backlog_{source_};
};

}  // namespace wmnsim::transport
