#pragma once
// Both ends of one flow, as the results and the samplers see them, whatever the
// transport. A transport implements this once per flow (UdpFlow, TcpFlow); the
// runner asks only through it, so a new transport brings its own statistics and
// time series without the runner knowing its classes.
//
// What every flow answers:
//  - packets_sent: the packets its sending side handed to the network;
//  - payload_bytes_delivered: application bytes its receiving side delivered in
//    order, over the whole run (the samplers difference it per interval);
//  - goodput_bps: the same bytes counted inside the measurement window, in bit/s;
//  - statistics: the transport's own per-flow figures for its row of the results
//    file, by name (docs/results.md), in a fixed order;
//  - series / sample: the time series it can offer (e.g. a congestion window, an
//    RTT, a sending rate), by kind, and the value of one of them now.
// Everything here is read-only and cheap: a sampler calls it once per interval.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace wmnsim::transport {

// A per-flow figure for the results file. Counts are integers, rates and
// durations doubles (the JSON keeps the distinction: 0 against 0.0).
struct FlowStatistic {
  std::string_view name;
  std::variant<std::uint64_t, double> value;
};

// What the two ends of a TCP-like flow put in the segments they send besides data
// (a trace writing a synthetic handshake copies them: trace/pcap_trace.hpp).
struct ConnectionFields {
  std::uint32_t receiver_window_bytes = 0;  // the window the receiver advertises
  std::optional<std::uint8_t> sender_user_priority;    // the data sender's segments' 802.1D UP
  std::optional<std::uint8_t> receiver_user_priority;  // the receiver's (its ACKs')
};

// Told, at the time a flow's transfer completes, one past its last byte.
using CompletionListener = std::function<void(std::uint64_t data_end)>;

// A time series kind a flow can offer (the scenario's outputs.timeseries names it).
struct FlowSeriesKind {
  std::string_view name;
  std::string_view unit;
};

class FlowEndpoint {
 public:
  virtual ~FlowEndpoint() = default;

  virtual std::uint64_t packets_sent() const = 0;
  virtual std::uint64_t payload_bytes_delivered() const = 0;
  virtual double goodput_bps() const = 0;
  virtual std::vector<FlowStatistic> statistics() const = 0;

  // The kinds this flow offers; the same for every flow of one transport.
  virtual std::span<const FlowSeriesKind> series() const { return {}; }
  // The value of `kind` now, or nothing when it has none yet (an RTT before the
  // first sample) or does not offer that kind.
  virtual std::optional<double> sample(std::string_view /*kind*/) const { return std::nullopt; }

  // A transfer that ends (TCP, WCCP: a finite or stopped transfer, once every byte
  // is acknowledged) calls `listener` then; returns false, and never calls it, for
  // a transport without such an end (UDP).
  virtual bool set_completion_listener(CompletionListener /*listener*/) { return false; }
  // A TCP-like flow's ConnectionFields; nothing for others (UDP).
  virtual std::optional<ConnectionFields> connection_fields() const { return std::nullopt; }
};

}  // namespace wmnsim::transport
