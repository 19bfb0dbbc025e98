#pragma once
// The receiving end of a UDP flow: counts what arrives. One sink per flow (the
// node hands it the flow's datagrams).
//
// Delivered packets and bytes count everything received; goodput and the one-way
// delays (now - Packet::created) count only datagrams received inside the
// measurement window, so the warm-up does not bias them.

#include <cstdint>

#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/delay_stats.hpp"
#include "transport/measurement_window.hpp"

namespace wmnsim::transport {

struct UdpSinkStats {
  std::uint64_t packets = 0;        // all received
  std::uint64_t payload_bytes = 0;  // all received
  std::uint64_t window_packets = 0;
  std::uint64_t window_payload_bytes = 0;
  std::uint64_t reordered_packets = 0;  // arrived with a number below the highest seen
  DelayStats delay;                     // window only
};

class UdpSink final : public PacketSink {
 public:
  UdpSink(const Scheduler& scheduler, MeasurementWindow window) : scheduler_(scheduler), window_(window) {}

  void receive(PacketPtr packet) override;

  const UdpSinkStats& stats() const { return stats_; }
  // Application bytes per second received in the window, in bit/s.
  double goodput_bps() const { return window_.rate_bps(stats_.window_payload_bytes); }

 private:
  const Scheduler& scheduler_;
  MeasurementWindow window_;
  UdpSinkStats stats_;
  std::uint64_t next_expected_ = 0;
};

}  // namespace wmnsim::transport
