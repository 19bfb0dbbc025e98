#pragma once
// What an application offers, message by message: constant bit rate, Poisson, or
// on-off (the `traffic` of a flow, docs/scenario.md). It feeds a UdpSource (one
// datagram per message) or a TcpSender's send buffer (TcpSender::write).
//
// "Saturated" traffic is not a generator: it has no arrival times, the layer
// below decides when there is room (UdpSource::pull, or TCP's bulk transfer).
//
// Timing, all in [start, stop):
//  - cbr: a message at start, start + T, start + 2T, ... (T = packet_interval); with a
//    jitter J, each one a uniform [0, J) later than that nominal time, drawn per message
//    (J < T keeps their order; the nominal times do not drift)
//  - poisson: gaps drawn Exp(mean T) from start, so the first message is at
//    start + gap (a Poisson process started at `start`)
//  - on_off: an on period begins at start; while on, messages go out as cbr from
//    the period's beginning (the phase restarts each period); then an off period.
//    Period lengths are Exp(on_mean), Exp(off_mean) or constant.
// Cost: one pending event.

#include <cstdint>
#include <optional>

#include "core/random.hpp"
#include "transport/transport_config.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"

namespace wmnsim::transport {

class TrafficGenerator {
 public:
  class Consumer {
   public:
    virtual ~Consumer() = default;
    // A message of `bytes` application bytes is offered now.
    virtual void on_application_data(std::uint32_t bytes) = 0;
  };

  // Throws std::invalid_argument for saturated traffic, for neither interval nor
  // rate, or for on-off periods that are not positive. The interval is
  // traffic.packet_interval if set, else message_bytes * 8 / traffic.rate_bps.
  TrafficGenerator(Scheduler& scheduler, Consumer& consumer, const TrafficConfig& traffic,
                   std::uint32_t message_bytes, Time start, std::optional<Time> stop, RandomStream arrivals);
  ~TrafficGenerator();
  TrafficGenerator(const TrafficGenerator&) = delete;
  TrafficGenerator& operator=(const TrafficGenerator&) = delete;

  Time interval() const { return interval_; }
  std::uint64_t messages() const { return messages_; }
  std::uint64_t on_periods() const { return on_periods_; }
  // Total length of on periods begun so far (the last may still be running).
  Time on_time() const { return on_time_; }

 private:
  void on_start();
  void on_message_due();
  // cbr: schedules the message due at `nominal`, later by the jitter's draw.
  void schedule_cbr(Time nominal);
  void begin_on_period();
  Time draw_period(Time mean);
  bool stopped(Time t) const { return stop_ && t >= *stop_; }

  Scheduler& scheduler_;
  Consumer& consumer_;
  TrafficConfig traffic_;
  std::uint32_t message_bytes_;
  std::optional<Time> stop_;
  RandomStream rng_;
  Time interval_;
  Time on_end_;  // on_off: end of the current on period
  Time nominal_;  // cbr with jitter: the nominal time of the message scheduled next
  EventId next_;
  std::uint64_t messages_ = 0;
  std::uint64_t on_periods_ = 0;
  Time on_time_;
};

}  // namespace wmnsim::transport
