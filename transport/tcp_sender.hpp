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
// Retransmission timer: RFC 6298 with Karn's algorithm (the backed-off RTO is
// kept until a valid RTT sample). Options, off by default: limited transmit
// (RFC 3042) and timestamps (RFC 7323 RTTM: a sample from every ACK that
// advances SND.UNA) and SACK (RFC 2018 blocks read into a scoreboard, RFC 6675
// loss recovery in place of the variant's fast recovery; sack_scoreboard.hpp).
// No SYN handshake: the connection starts established at ISN 0 (byte 0 is the
// first payload byte) in slow start. No Nagle.
//
// Cost: O(1) per ACK and per segment without SACK, O(SACKed ranges) with it; one
// pending timer event (plus the start and stop events).

#include <cstdint>
#include <optional>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/rtt_estimator.hpp"
#include "transport/sack_scoreboard.hpp"
#include "transport/tcp_config.hpp"
#include "transport/time_series.hpp"
#include "transport/traffic_generator.hpp"

namespace wmnsim::transport {

struct TcpSenderStats {
  std::uint64_t segments_sent = 0;       // data segments, retransmissions included
  std::uint64_t payload_bytes_sent = 0;  // retransmissions included
  std::uint64_t retransmissions = 0;     // segments carrying bytes sent before
  std::uint64_t timeouts = 0;            // RTO expiries
  std::uint64_t fast_retransmits = 0;    // recovery episodes begun on the third duplicate ACK
  std::uint64_t partial_ack_retransmits = 0;  // RFC 6582 (newreno, fixed_window)
  std::uint64_t limited_transmits = 0;   // RFC 3042: new segments sent on the first two duplicate ACKs
  std::uint64_t rescue_retransmits = 0;  // SACK: RFC 6675 NextSeg rule 4
  std::uint64_t acks_received = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t bytes_acked = 0;
  std::optional<Time> completed_at;  // when every byte offered was acknowledged (finite, or stopped)
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
  const TimeSeries& rtt_trace() const { return rtt_trace_; }
  const RttEstimator& rtt() const { return rtt_; }

  std::uint64_t cwnd_bytes() const { return cwnd_; }
  std::uint64_t ssthresh_bytes() const { return ssthresh_; }
  std::uint64_t snd_una() const { return snd_una_; }  // oldest unacknowledged byte
  std::uint64_t snd_nxt() const { return snd_nxt_; }  // next byte to send
  std::uint64_t snd_max() const { return snd_max_; }  // one past the highest byte ever sent
  std::uint64_t flight_size_bytes() const { return snd_max_ - snd_una_; }  // RFC 5681 FlightSize
  bool in_recovery() const { return in_recovery_; }
  const SackScoreboard& scoreboard() const { return scoreboard_; }
  // SACK recovery: RFC 6675 4 SetPipe as of the last ACK and the segments sent since.
  std::uint64_t pipe_bytes() const { return pipe_; }
  bool retransmission_timer_pending() const { return scheduler_.is_pending(timer_); }
  // Every byte the application offered is acknowledged and it offers no more.
  bool finished() const { return stats_.completed_at.has_value(); }

 private:
  void open();
  void close_application();
  void send_available();
  void send_segment(std::uint64_t seq, std::uint32_t length);
  std::uint32_t segment_length(std::uint64_t seq) const;
  std::uint64_t usable_window() const;
  void on_new_ack(std::uint64_t ack, const TransportHeader& header);
  void on_duplicate_ack();
  void limited_transmit();
  void take_rtt_sample(Time sample);
  void enter_fast_recovery();
  void enter_sack_recovery();
  void sack_transmit();
  void on_timeout();
  void restart_timer();
  void grow_cwnd(std::uint64_t newly_acked);
  void set_cwnd(std::uint64_t bytes);
  void check_completion();
  bool fixed() const { return config_.variant == TcpVariant::fixed_window; }

  Scheduler& scheduler_;
  PacketPool& pool_;
  PacketSink& network_;
  TcpSenderConfig config_;
  RttEstimator rtt_;
  TimeSeries cwnd_trace_;
  TimeSeries rtt_trace_;
  TcpSenderStats stats_;

  bool open_ = false;
  bool application_closed_ = false;
  std::uint64_t data_end_ = 0;  // one past the last byte the application offered
  std::uint64_t snd_una_ = 0;
  std::uint64_t snd_nxt_ = 0;
  std::uint64_t snd_max_ = 0;
  std::uint64_t cwnd_ = 0;
  std::uint64_t ssthresh_ = 0;
  std::uint64_t rwnd_ = 0;          // the receiver's last advertised window
  std::uint64_t max_cwnd_ = 0;      // growth stops at the receiver's window
  std::uint32_t dupacks_ = 0;
  std::uint64_t limited_transmit_bytes_ = 0;  // sent by RFC 3042 since the last new ACK
  bool in_recovery_ = false;
  bool first_partial_ack_ = false;  // RFC 6582: only the first partial ACK resets the timer
  bool recover_valid_ = false;
  std::uint64_t recover_ = 0;       // RFC 6582 "recover": highest byte sent when recovery or a timeout began
  // SACK (RFC 6675): the scoreboard, HighRxt + 1, RescueRxt + 1 (empty: undefined)
  // and pipe, while in recovery.
  SackScoreboard scoreboard_;
  std::uint64_t high_rxt_ = 0;
  std::optional<std::uint64_t> rescue_rxt_;
  std::uint64_t pipe_ = 0;
  // RTT measurement of one segment at a time (RFC 6298 3: Karn's rule).
  bool timing_ = false;
  std::uint64_t timed_end_ = 0;
  Time timed_sent_at_;

  EventId timer_;
  EventId start_event_;
  EventId stop_event_;
};

}  // namespace wmnsim::transport
