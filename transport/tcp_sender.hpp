#pragma once
// The sending end of a TCP connection, without the network: it hands segments to
// a PacketSink and is one (the node gives it the flow's ACKs).
//
// Congestion control (docs/transport.md has the details and the RFC clauses):
//  - newreno: RFC 5681 slow start and congestion avoidance, fast retransmit on the
//    third duplicate ACK, RFC 6582 fast recovery with partial ACKs;
//  - reno: the same, but recovery ends on the first ACK of new data (RFC 5681 3.2);
//  - fixed_window: cwnd held at window_packets segments (000 Sec. 5.5); losses are
//    still repaired (fast retransmit, partial ACKs, timeouts) but never shrink it.
// Reliable delivery (sequence space, ACKs, RTT, the RFC 6298 timer with Karn's
// algorithm, timestamps, the SACK scoreboard) is the ReliableSender this sender
// owns and is the Policy of (reliable_sender.hpp); what is here is the window.
// Options, off by default: limited transmit (RFC 3042), timestamps (RFC 7323
// RTTM: a sample from every ACK that advances SND.UNA) and SACK (RFC 2018 blocks,
// RFC 6675 loss recovery in place of the variant's fast recovery;
// sack_scoreboard.hpp). No SYN handshake: the connection starts established at
// ISN 0 (byte 0 is the first payload byte) in slow start. No Nagle.
//
// Cost: O(1) per ACK and per segment without SACK, O(SACKed ranges) with it; one
// pending timer event (plus the start and stop events).

#include <cstdint>
#include <optional>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/reliable_sender.hpp"
#include "transport/rtt_estimator.hpp"
#include "transport/sack_scoreboard.hpp"
#include "transport/tcp_config.hpp"
#include "transport/time_series.hpp"
#include "transport/traffic_generator.hpp"

namespace wmnsim::transport {

struct TcpSenderStats : ReliableSenderStats {
  std::uint64_t fast_retransmits = 0;    // recovery episodes begun on the third duplicate ACK
  std::uint64_t partial_ack_retransmits = 0;  // RFC 6582 (newreno, fixed_window)
  std::uint64_t limited_transmits = 0;   // RFC 3042: new segments sent on the first two duplicate ACKs
  std::uint64_t rescue_retransmits = 0;  // SACK: RFC 6675 NextSeg rule 4
};

class TcpSender final : public PacketSink, public TrafficGenerator::Consumer {
 public:
  // Throws std::invalid_argument for mss 0, window_packets 0, or a finite
  // transfer of 0 bytes.
  TcpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, TcpSenderConfig config);
  ~TcpSender() override;
  TcpSender(const TcpSender&) = delete;
  TcpSender& operator=(const TcpSender&) = delete;

  // An ACK from the receiver (a packet without ack_valid is ignored).
  void receive(PacketPtr packet) override;
  // TcpApplication::written: the application appends bytes to the send buffer.
  void write(std::uint64_t bytes);
  void on_application_data(std::uint32_t bytes) override { write(bytes); }

  const TcpSenderConfig& config() const { return config_; }
  const TcpSenderStats& stats() const { return stats_; }
  const TimeSeries& cwnd_trace() const { return cwnd_trace_; }
  const TimeSeries& rtt_trace() const { return core_.rtt_trace(); }
  const RttEstimator& rtt() const { return core_.rtt(); }

  std::uint64_t cwnd_bytes() const { return cwnd_; }
  std::uint64_t ssthresh_bytes() const { return ssthresh_; }
  std::uint64_t snd_una() const { return core_.snd_una(); }  // oldest unacknowledged byte
  std::uint64_t snd_nxt() const { return core_.snd_nxt(); }  // next byte to send
  std::uint64_t snd_max() const { return core_.snd_max(); }  // one past the highest byte ever sent
  std::uint64_t flight_size_bytes() const { return core_.flight_size_bytes(); }  // RFC 5681 FlightSize
  bool in_recovery() const { return in_recovery_; }
  const SackScoreboard& scoreboard() const { return core_.scoreboard(); }
  // SACK recovery: RFC 6675 4 SetPipe as of the last ACK and the segments sent since.
  std::uint64_t pipe_bytes() const { return pipe_; }
  bool retransmission_timer_pending() const { return core_.retransmission_timer_pending(); }
  // Every byte the application offered is acknowledged and it offers no more.
  bool finished() const { return core_.finished(); }
  // With a handshake, where the connection stands (reliable_sender.hpp), and
  // whether data may flow yet.
  ReliableSender<TcpSender>::Connection connection() const { return core_.connection(); }
  // Data may flow: always without a handshake, after the SYN-ACK with one.
  bool is_open() const { return core_.is_open(); }
  // Called once, at the time the transfer completes (finished()), with one past its
  // last byte (the pcap trace's synthetic close, runner/run_scenario.cpp).
  void set_completion_listener(CompletionListener listener) { core_.set_completion_listener(std::move(listener)); }

 private:
  // The policy of the reliable-delivery core (reliable_sender.hpp): the window.
  friend class ReliableSender<TcpSender>;
  void on_open();
  void transmit();
  void on_ack(const TransportHeader& /*ack*/) {}  // the window reads ACKs once classified
  bool on_new_ack(std::uint64_t newly_acked);
  void on_duplicate_ack();
  void on_timeout(Time rto_before, bool backed_off);
  void on_segment(Packet& /*segment*/) {}  // the core adds the options (timestamps)
  void on_finished() {}

  std::uint64_t usable_window() const;
  void send_segment(std::uint64_t seq, std::uint32_t length) { core_.send_segment(seq, length); }
  std::uint32_t segment_length(std::uint64_t seq) const { return core_.segment_length(seq); }
  void limited_transmit();
  void enter_fast_recovery();
  void enter_sack_recovery();
  void sack_transmit();
  void grow_cwnd(std::uint64_t newly_acked);
  void set_cwnd(std::uint64_t bytes);
  bool fixed() const { return config_.variant == TcpVariant::fixed_window; }

  Scheduler& scheduler_;
  TcpSenderConfig config_;
  TimeSeries cwnd_trace_;
  TcpSenderStats stats_;
  ReliableSender<TcpSender> core_;

  std::uint64_t cwnd_ = 0;
  std::uint64_t ssthresh_ = 0;
  std::uint64_t max_cwnd_ = 0;      // growth stops at the receiver's window
  std::uint64_t limited_transmit_bytes_ = 0;  // sent by RFC 3042 since the last new ACK
  bool in_recovery_ = false;
  bool first_partial_ack_ = false;  // RFC 6582: only the first partial ACK resets the timer
  bool recover_valid_ = false;
  std::uint64_t recover_ = 0;       // RFC 6582 "recover": highest byte sent when recovery or a timeout began
  // SACK (RFC 6675): HighRxt + 1, RescueRxt + 1 (empty: undefined) and pipe,
  // while in recovery.
  std::uint64_t high_rxt_ = 0;
  std::optional<std::uint64_t> rescue_rxt_;
  std::uint64_t pipe_ = 0;
};

}  // namespace wmnsim::transport
