#pragma once
// What TCP and WCCP flows share (tcp_flow.hpp, wccp_flow.hpp): a sender of
// `Sender` at the source, the TcpReceiver at the destination, and for paced
// traffic (cbr, poisson, on_off; the `written` application) the TrafficGenerator
// that writes into the sender's buffer. The subclass names its statistics and
// series. `Sender` has stats().segments_sent, is a TrafficGenerator::Consumer and
// is built from a `SenderConfig` with application, mss, start and stop.
#include <cstdint>
#include <memory>
#include <utility>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/tcp_config.hpp"  // TcpApplication
#include "transport/tcp_receiver.hpp"
#include "transport/traffic_generator.hpp"
#include "transport/transport_config.hpp"  // TrafficConfig

namespace wmnsim::transport {

template <typename Sender, typename SenderConfig>
class SenderReceiverFlow : public FlowEndpoint {
 public:
  Sender& sender() { return sender_; }
  const Sender& sender() const { return sender_; }
  TcpReceiver& receiver() { return receiver_; }
  const TcpReceiver& receiver() const { return receiver_; }

  std::uint64_t packets_sent() const override { return sender_.stats().segments_sent; }
  std::uint64_t payload_bytes_delivered() const override { return receiver_.stats().delivered_bytes; }
  double goodput_bps() const override { return receiver_.goodput_bps(); }
  bool set_completion_listener(CompletionListener listener) override {
    sender_.set_completion_listener(std::move(listener));
    return true;
  }
  std::optional<ConnectionFields> connection_fields() const override {
    return ConnectionFields{receiver_.advertised_window_bytes(), sender_.config().user_priority,
                            receiver_.config().ack_user_priority};
  }

 protected:
  // The sender sends through `src_network` (its node), the receiver its ACKs
  // through `dst_network`. With the `written` application a TrafficGenerator of
  // `traffic` feeds the sender, messages of one MSS, in [start, stop) of the
  // sender's config, drawing from `arrivals`. Built in the order sender,
  // receiver, generator (the order their start events are scheduled in).
  SenderReceiverFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& src_network, PacketSink& dst_network,
                     const SenderConfig& sender, const TcpReceiverConfig& receiver, const TrafficConfig& traffic,
                     RandomStream arrivals)
      : sender_(scheduler, pool, src_network, sender), receiver_(scheduler, pool, dst_network, receiver) {
    if (sender.application == TcpApplication::written) {
      application_ = std::make_unique<TrafficGenerator>(scheduler, static_cast<TrafficGenerator::Consumer&>(sender_),
                                                        traffic, sender.mss, sender.start, sender.stop,
                                                        std::move(arrivals));
    }
  }

  Sender sender_;
  TcpReceiver receiver_;
  std::unique_ptr<TrafficGenerator> application_;  // the written application only
};

}  // namespace wmnsim::transport
