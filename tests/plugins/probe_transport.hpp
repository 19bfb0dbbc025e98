#pragma once
// A transport that lives in the test tree only, to prove that adding one takes one
// file pair and one registration line: "probe" sends one packet of payload_bytes
// every `interval_s` (no ACKs), with 100 bytes of its own headers, and offers the
// `probe_delivered` time series (packets delivered so far).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_build_context.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/transport_entry.hpp"

namespace wmnsim::test {

struct ProbeParams {
  Time interval = Time::ms(100);
};

class ProbeFlow final : public transport::FlowEndpoint, private PacketSink {
 public:
  static constexpr std::uint32_t kHeaderBytes = 100;
  static constexpr transport::FlowSeriesKind kSeries[] = {{"probe_delivered", "packets"}};

  explicit ProbeFlow(transport::FlowBuildContext& site);
  ~ProbeFlow() override;
  ProbeFlow(const ProbeFlow&) = delete;
  ProbeFlow& operator=(const ProbeFlow&) = delete;

  std::uint64_t packets_sent() const override { return sent_; }
  std::uint64_t payload_bytes_delivered() const override { return delivered_bytes_; }
  double goodput_bps() const override;
  std::vector<transport::FlowStatistic> statistics() const override;
  std::span<const transport::FlowSeriesKind> series() const override { return kSeries; }
  std::optional<double> sample(std::string_view kind) const override;

 private:
  void send();
  void receive(PacketPtr packet) override;  // at the destination

  Scheduler& scheduler_;
  PacketPool& pool_;
  PacketSink& network_;  // the source node
  transport::FlowSpec flow_;
  ProbeParams params_;
  transport::MeasurementWindow window_;
  EventId next_;
  std::uint64_t sent_ = 0;
  std::uint64_t delivered_ = 0;
  std::uint64_t delivered_bytes_ = 0;       // all of them
  std::uint64_t window_bytes_ = 0;          // inside the measurement window
};

transport::TransportEntry probe_entry();

}  // namespace wmnsim::test
