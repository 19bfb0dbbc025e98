#pragma once
// A UDP sender: one datagram of payload_bytes (+ 28 bytes of UDP/IP headers) per
// application message, handed to the network through a PacketSink. Datagrams are
// numbered from 0 in TransportHeader::seq, so a sink can count losses.
//
// Paced traffic (cbr, poisson, on_off) runs by itself from a TrafficGenerator.
//
// Saturated traffic ("always backlogged", 000's fully backlogged UDP) has no
// clock of its own: the layer below asks for packets when it has room. Two hooks,
// both no-ops outside [start, stop):
//  - pull(now): returns one datagram for the caller to enqueue itself (a MAC queue
//    refilling from its source when it dequeues);
//  - push_backlog(n): sends n datagrams through the sink now (a node topping its
//    interface queue back up to capacity).
// At `start` a saturated source pushes `initial_backlog` datagrams on its own, so
// a queue that is refilled "one in per one out" is full from the first instant.
// Neither hook may be called from inside the sink's own receive() (the sink would
// be re-entered); schedule the call instead (Scheduler::schedule_in(Time::zero())).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "transport/transport_config.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_address.hpp"
#include "transport/traffic_generator.hpp"

namespace wmnsim::transport {

struct UdpSourceConfig {
  FlowAddress address;
  std::uint32_t payload_bytes = 1460;
  TrafficConfig traffic;
  Time start;
  std::optional<Time> stop;  // empty: never
  std::size_t initial_backlog = 1;  // saturated only: datagrams pushed at start
  std::optional<std::uint8_t> user_priority;  // copied into every datagram (802.1D UP)
};

struct UdpSourceStats {
  std::uint64_t packets_sent = 0;
  std::uint64_t payload_bytes_sent = 0;
};

class UdpSource final : private TrafficGenerator::Consumer {
 public:
  // `arrivals` draws Poisson gaps and on-off periods (RandomStreams::stream("flow",
  // flow_id, "arrivals")). Throws std::invalid_argument as TrafficGenerator does.
  UdpSource(Scheduler& scheduler, PacketPool& pool, PacketSink& network, UdpSourceConfig config,
            RandomStream arrivals);
  ~UdpSource() override;
  UdpSource(const UdpSource&) = delete;
  UdpSource& operator=(const UdpSource&) = delete;

  bool saturated() const { return config_.traffic.type == TrafficType::saturated; }
  // start <= now < stop.
  bool active(Time now) const;
  // Saturated only (null otherwise, or when not active): the next datagram.
  PacketPtr pull(Time now);
  // Saturated only: sends up to n datagrams through the sink; returns how many.
  std::size_t push_backlog(std::size_t n);

  const UdpSourceConfig& config() const { return config_; }
  const UdpSourceStats& stats() const { return stats_; }
  const TrafficGenerator* generator() const { return generator_.get(); }

 private:
  void on_application_data(std::uint32_t bytes) override;
  PacketPtr make_datagram(Time now);

  Scheduler& scheduler_;
  PacketPool& pool_;
  PacketSink& network_;
  UdpSourceConfig config_;
  std::unique_ptr<TrafficGenerator> generator_;  // paced traffic only
  EventId start_;                                // saturated only
  UdpSourceStats stats_;
};

}  // namespace wmnsim::transport
