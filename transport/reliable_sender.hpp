#pragma once
// Reliable delivery, the part TCP and WCCP senders share, without any congestion
// control: the byte sequence space (SND.UNA, SND.NXT and the highest byte sent,
// RFC 9293 3.3.1) over the application's send buffer, segments built and handed to
// the network, cumulative and duplicate ACKs (RFC 5681 2), RTT samples by Karn's
// algorithm or RFC 7323 timestamps, the retransmission timer of RFC 6298 with its
// back-off, the SACK scoreboard (RFC 2018 blocks, RFC 6675 Update()), and the end
// of a transfer.
//
// What a sender adds is its Policy: when to send and what to resend. TcpSender's
// is its congestion window (RFC 5681, RFC 6582, RFC 6675), WccpSender's the permit
// rate of 003 Sec. III-E. Composition: the sender owns a ReliableSender<Sender>
// and is its policy. The core calls the policy at the few points where the two
// differ (as htsim's DCTCP source overrides a handful of its TCP source's
// methods), and the policy drives the core through send_segment() and the
// sequence-space accessors. The core sends on its own only the RFC 6298 5.4
// retransmission at a timeout. The policy is a template parameter, not a virtual
// interface: the hooks run on every ACK and segment, and this way they cost what
// the code in them costs (no indirect call, empty hooks vanish), so sharing the
// core made neither sender slower. A Policy has these members (the core is their
// only caller; they may be private if the policy befriends ReliableSender<Policy>):
//   void on_open();         the application opened the connection; transmit() follows
//   void transmit();        send what the window or the rate allows now (after open,
//                           write, every ACK and every timeout)
//   void on_ack(const TransportHeader& ack);   every ACK of bytes sent, after its
//                           RTT sample and before it is classified
//   bool on_new_ack(std::uint64_t newly_acked);   SND.UNA advanced; returns whether
//                           the timer restarts (RFC 6298 5.3) if data is outstanding
//   void on_duplicate_ack();   duplicate_acks() already counts it
//   void on_timeout(Time rto_before, bool backed_off);   the timer ran out with data
//                           outstanding; rto_before: the RTO before this timeout,
//                           backed_off: whether rtt().rto() is now its double
//   void on_segment(Packet& segment);   a data segment about to leave: the sender's
//                           own header fields and bytes
//   void on_finished();     every byte offered is acknowledged and no more will come
// A policy reads the core, never the other way round, so each side can be tested
// alone (tests/transport/test_reliable_sender.cpp drives the core under a stub).
//
// One ACK, in this order (the order is part of the event trace, so it is fixed):
//  1. not an ACK: ignored; an ACK of bytes never sent: counted, ignored;
//  2. its advertised window is taken (0 means no news: there is no persist timer,
//     and TcpReceiver always advertises its whole buffer);
//  3. with SACK, its blocks go to the scoreboard (RFC 6675 5: Update() on every ACK);
//  4. if it advances SND.UNA, an RTT sample: now - TSecr with timestamps (RFC 7323
//     4.1 RTTM), else the timed segment's if it covers it (RFC 6298 3, Karn: a
//     retransmitted segment is never timed); a sample ends the back-off;
//  5. Policy::on_ack, for every ACK that got this far;
//  6. new data acknowledged: SND.UNA advances, the duplicate count and the
//     back-off episode end, Policy::on_new_ack, then the timer stops if nothing is
//     outstanding (RFC 6298 5.2) or restarts (5.3) unless the policy says not to;
//     or a duplicate ACK (RFC 5681 2; RFC 6675 2 adds that SACK blocks, if any,
//     SACK new data): counted, Policy::on_duplicate_ack;
//  7. Policy::transmit.
// A timeout with data outstanding, in this order: the duplicate count and the timed
// segment are dropped (Karn), the SACK information is forgotten (RFC 2018 8: the
// receiver may have reneged), the RTO backs off (RFC 6298 5.5; under
// RtoBackoff::first_of_back_to_back only the first of timeouts without a new ACK
// between them, 003 Sec. III-E), Policy::on_timeout, the oldest unacknowledged
// segment is resent (5.4), the timer restarts with the new RTO (5.6),
// Policy::transmit.
//
// With config.handshake the connection opens and closes on the wire (RFC 9293
// 3.5-3.6; docs/transport.md "Connection set-up and end"): at the start a SYN,
// answered by the receiver's SYN-ACK, then the sender's ACK, then the data
// (Policy::on_open; is_open() is false until then); a SYN that times out is sent
// again with the RTO backed off (RFC 6298 5.5), an RTT sample is taken from a SYN
// sent once (Karn), and after a SYN timeout data starts with RFC 6298 5.7's 3-s RTO
// (and, TcpSender's part, RFC 5681 3.1's one-segment initial window). When a finite or stopped transfer is complete (every
// byte acknowledged), a FIN, answered by the receiver's FIN-ACK, then the sender's
// ACK; a FIN that times out is sent again. The sequence numbers are the wire's with
// both initial sequence numbers 2^32 - 1: the SYN takes that number, so data starts
// at 0 as without a handshake; the FIN takes data_end. Without it the connection
// starts established and nothing but data and ACKs is sent (ns-2's one-way TCP).
//
// Cost: O(1) per ACK and per segment without SACK, O(SACKed ranges) with it; one
// pending retransmission timer, plus the start and stop events.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_endpoint.hpp"  // FlowStatistic
#include "transport/header_sizes.hpp"
#include "transport/flow_address.hpp"
#include "transport/rtt_estimator.hpp"
#include "transport/sack_scoreboard.hpp"
#include "transport/tcp_config.hpp"  // TcpApplication
#include "transport/time_series.hpp"

namespace wmnsim::transport {

// When a timeout doubles the RTO.
enum class RtoBackoff {
  every_timeout,          // RFC 6298 5.5
  first_of_back_to_back,  // 003 Sec. III-E: a timeout with no new ACK since the last one keeps the RTO
};

struct ReliableSenderConfig {
  std::string_view protocol = "TCP";  // names the sender in configuration errors
  FlowAddress address;
  std::uint32_t mss = 1460;           // payload bytes per full segment
  std::uint32_t window_packets = kDefaultWindowPackets;  // the receiver's window, in segments, until an ACK advertises one
  RtoLimits rto;
  RtoBackoff backoff = RtoBackoff::every_timeout;
  // RFC 7323: TSval on every segment, an RTT sample from every ACK that advances
  // SND.UNA (the receiver must echo: TcpReceiverConfig::timestamps).
  bool timestamps = false;
  // RFC 2018 blocks read into the scoreboard (the receiver must send them).
  bool sack = false;
  TcpApplication application = TcpApplication::bulk;
  std::uint64_t finite_bytes = 0;  // finite only
  Time start;                      // the application opens the connection
  std::optional<Time> stop;        // the application stops offering data
  bool trace_rtt = false;          // record (time, RTT sample seconds)
  std::optional<std::uint8_t> user_priority;  // copied into every data segment (802.1D UP)
  bool handshake = false;  // SYN and FIN exchanges on the wire (above)
};

// What reliable delivery counts; a sender's statistics extend it.
struct ReliableSenderStats {
  std::uint64_t segments_sent = 0;       // data segments, retransmissions included
  std::uint64_t payload_bytes_sent = 0;  // retransmissions included
  std::uint64_t retransmissions = 0;     // segments carrying bytes sent before
  std::uint64_t timeouts = 0;            // RTO expiries
  std::uint64_t acks_received = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t bytes_acked = 0;
  std::optional<Time> completed_at;  // when every byte offered was acknowledged (finite, or stopped)
  // With a handshake: SYNs and FINs sent again after a timeout, and when the
  // SYN-ACK and the FIN-ACK arrived.
  std::uint64_t syn_retransmissions = 0;
  std::uint64_t fin_retransmissions = 0;
  std::optional<Time> established_at;
  std::optional<Time> closed_at;
};

// The results' columns of a flow with a handshake (docs/results.md): SYNs and FINs
// sent again, and the seconds from the start to the SYN-ACK (none: never opened).
void append_connection_statistics(std::vector<FlowStatistic>& out, const ReliableSenderStats& stats, Time start);

// Throws std::invalid_argument for mss 0, window_packets 0, or a finite transfer of
// 0 bytes, naming config.protocol.
void check_reliable_sender_config(const ReliableSenderConfig& config);

// Throws the std::logic_error of ReliableSender::set_snd_nxt.
[[noreturn]] void throw_snd_nxt_outside(std::uint64_t seq, std::uint64_t una, std::uint64_t max);

// A bulk application's data never ends, and a window that does not bound anything:
// far below 2^64, so that sums of sequence numbers cannot wrap.
inline constexpr std::uint64_t kUnboundedBytes = std::uint64_t{1} << 62;

template <class Policy>
class ReliableSender {
 public:
  static constexpr std::uint64_t kUnbounded = kUnboundedBytes;

  // See check_reliable_sender_config for what throws. Schedules the application's
  // start and stop. `policy` and `stats` (a sender's statistics, or their
  // ReliableSenderStats part) must outlive the core; no hook is called before the
  // start event.
  ReliableSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, Policy& policy,
                 ReliableSenderConfig config, ReliableSenderStats& stats);
  ~ReliableSender();
  ReliableSender(const ReliableSender&) = delete;
  ReliableSender& operator=(const ReliableSender&) = delete;

  // An ACK from the receiver (steps 1-7 above).
  void receive(const TransportHeader& ack);
  // The `written` application appends bytes to the send buffer (ignored for the
  // others and once the application stopped).
  void write(std::uint64_t bytes);

  // Hands the segment [seq, seq + length) to the network: retransmission if below
  // the highest byte sent, SND.NXT moves if seq is SND.NXT, the timer starts if it
  // is not running (RFC 6298 5.1).
  void send_segment(std::uint64_t seq, std::uint32_t length);
  // The length of the segment at seq: an MSS, or what the application offered.
  std::uint32_t segment_length(std::uint64_t seq) const {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(config_.mss, data_end_ - seq));
  }
  // Moves SND.NXT within [SND.UNA, highest byte sent] (a go-back-N after a
  // timeout, a jump over SACKed bytes); std::logic_error outside.
  void set_snd_nxt(std::uint64_t seq) {
    if (seq < snd_una_ || seq > snd_max_) throw_snd_nxt_outside(seq, snd_una_, snd_max_);  // std::logic_error
    snd_nxt_ = seq;
  }

  const ReliableSenderConfig& config() const { return config_; }
  const ReliableSenderStats& stats() const { return stats_; }
  const RttEstimator& rtt() const { return rtt_; }
  const TimeSeries& rtt_trace() const { return rtt_trace_; }
  const SackScoreboard& scoreboard() const { return scoreboard_; }

  bool is_open() const { return open_; }
  std::uint64_t snd_una() const { return snd_una_; }   // oldest unacknowledged byte
  std::uint64_t snd_nxt() const { return snd_nxt_; }   // next byte to send
  std::uint64_t snd_max() const { return snd_max_; }   // one past the highest byte ever sent
  std::uint64_t data_end() const { return data_end_; }  // one past the last byte the application offered
  std::uint64_t rwnd() const { return rwnd_; }         // the receiver's last advertised window
  std::uint64_t window_end() const { return snd_una_ + rwnd_; }  // new data must end at or before it
  std::uint64_t flight_size_bytes() const { return snd_max_ - snd_una_; }  // RFC 5681 FlightSize
  // Consecutive duplicate ACKs since the last new ACK or timeout.
  std::uint32_t duplicate_acks() const { return dupacks_; }
  bool retransmission_timer_pending() const { return scheduler_.is_pending(timer_); }
  bool finished() const { return stats_.completed_at.has_value(); }
  // Called once, when the transfer completes (finished() becomes true), with
  // data_end(); replaces any earlier listener.
  void set_completion_listener(CompletionListener listener) { completion_listener_ = std::move(listener); }

  // Where a connection with a handshake stands (`none` without one).
  enum class Connection : std::uint8_t { none, syn_sent, established, fin_sent, closed };
  Connection connection() const { return connection_; }
  // The SYN was sent more than once (so no RTT sample came from it).
  bool syn_resent() const { return syn_sent_again_; }

 private:
  // With a handshake: a segment of the receiver's that opens or closes (a SYN-ACK,
  // a FIN-ACK), or any segment while the data may not flow; returns whether it was
  // taken here.
  bool receive_connection_segment(const TransportHeader& t);
  // A segment without data: the SYN (seq 0, taken as the initial sequence number
  // by the trace), the FIN (at data_end), or an ACK of the receiver's SYN (`ack` 0)
  // or FIN (`ack` 1).
  void send_control(bool syn, bool fin, std::uint64_t seq, std::uint64_t ack);
  void on_control_timeout();
  void open();
  void close_application();
  void take_rtt_sample(Time sample);
  void on_timeout();
  // Flattened: the scheduler's inline schedule_at is this function's whole work,
  // and GCC would otherwise leave it a call of its own in this template.
  [[gnu::flatten]] void restart_timer();
  void check_completion();

  Scheduler& scheduler_;
  PacketPool& pool_;
  PacketSink& network_;
  Policy& policy_;
  ReliableSenderConfig config_;
  ReliableSenderStats& stats_;
  RttEstimator rtt_;
  TimeSeries rtt_trace_;
  SackScoreboard scoreboard_;

  CompletionListener completion_listener_;
  bool open_ = false;
  bool application_closed_ = false;
  std::uint64_t data_end_ = 0;
  std::uint64_t snd_una_ = 0;
  std::uint64_t snd_nxt_ = 0;
  std::uint64_t snd_max_ = 0;
  std::uint64_t rwnd_ = 0;
  std::uint32_t dupacks_ = 0;
  bool backed_off_ = false;  // a timeout since the last new ACK
  Connection connection_ = Connection::none;
  bool syn_sent_again_ = false;  // Karn: no RTT sample from the SYN-ACK
  Time syn_sent_at_;
  // RTT measurement of one segment at a time (RFC 6298 3: Karn's rule).
  bool timing_ = false;
  std::uint64_t timed_end_ = 0;
  Time timed_sent_at_;

  EventId timer_;
  EventId start_event_;
  EventId stop_event_;
};

// ---- implementation ----------------------------------------------------------

template <class Policy>
ReliableSender<Policy>::ReliableSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, Policy& policy,
                                       ReliableSenderConfig config, ReliableSenderStats& stats)
    : scheduler_(scheduler),
      pool_(pool),
      network_(network),
      policy_(policy),
      config_(std::move(config)),
      stats_(stats),
      rtt_(config_.rto),
      rtt_trace_(config_.trace_rtt) {
  check_reliable_sender_config(config_);
  rwnd_ = std::uint64_t{config_.mss} * config_.window_packets;
  if (!config_.stop || *config_.stop > config_.start) {
    start_event_ = scheduler_.schedule_at(config_.start, [this] { open(); });
  }
  if (config_.stop) {
    stop_event_ = scheduler_.schedule_at(std::max(*config_.stop, config_.start), [this] { close_application(); });
  }
}

template <class Policy>
ReliableSender<Policy>::~ReliableSender() {
  scheduler_.cancel(timer_);
  scheduler_.cancel(start_event_);
  scheduler_.cancel(stop_event_);
}

template <class Policy>
void ReliableSender<Policy>::open() {
  if (config_.application == TcpApplication::bulk) data_end_ = kUnbounded;
  if (config_.application == TcpApplication::finite) data_end_ = config_.finite_bytes;
  if (config_.handshake) {
    // RFC 9293 3.5: SYN-SENT until the SYN-ACK (not open: the policies send nothing);
    // its timer is the RTO's (RFC 6298 2.1). State first, the hand-over last.
    connection_ = Connection::syn_sent;
    syn_sent_at_ = scheduler_.now();
    restart_timer();
    send_control(/*syn=*/true, /*fin=*/false, 0, 0);
    return;
  }
  open_ = true;
  policy_.on_open();
  policy_.transmit();
}

template <class Policy>
void ReliableSender<Policy>::send_control(bool syn, bool fin, std::uint64_t seq, std::uint64_t ack) {
  PacketPtr p = pool_.make(scheduler_.now());
  p->src = config_.address.src;
  p->dst = config_.address.dst;
  p->flow = config_.address.flow;
  p->size_bytes = kTcpIpHeaderBytes;  // no MSS, SACK-permitted or window-scale option is modelled
  p->user_priority = config_.user_priority;
  p->transport.seq = seq;
  p->transport.ack = ack;  // without ack_valid: TransportHeader::against_data
  p->transport.syn = syn;
  p->transport.fin = fin;
  if (config_.timestamps) {
    p->size_bytes += kTcpTimestampOptionBytes;
    p->transport.timestamps = true;
    p->transport.ts_val = scheduler_.now();
  }
  network_.receive(std::move(p));
}

template <class Policy>
bool ReliableSender<Policy>::receive_connection_segment(const TransportHeader& t) {
  const Time now = scheduler_.now();
  switch (connection_) {
    case Connection::none:
      return false;
    case Connection::syn_sent:
      if (!(t.syn && t.ack_valid)) return true;  // nothing else can be for this connection yet
      scheduler_.cancel(timer_);
      if (syn_sent_again_) {
        rtt_.restart_after_syn_timeout();  // RFC 6298 5.7
      } else {
        take_rtt_sample(now - syn_sent_at_);  // RFC 6298 3: a segment sent once is timed
      }
      connection_ = Connection::established;
      stats_.established_at = now;
      open_ = true;
      send_control(false, false, 0, 0);  // RFC 9293 3.5: ESTABLISHED, the ACK of the SYN
      policy_.on_open();
      policy_.transmit();
      return true;
    case Connection::established:
      // A second SYN-ACK (the receiver answers every SYN, so a resent SYN that both
      // arrived brings two): acknowledged again (RFC 9293 3.10.7.4).
      if (t.syn) send_control(false, false, 0, 0);
      return t.syn;
    case Connection::fin_sent:
      if (!(t.fin && t.ack_valid && t.ack == data_end_ + 1)) return true;
      scheduler_.cancel(timer_);
      connection_ = Connection::closed;
      stats_.closed_at = now;
      send_control(false, false, data_end_ + 1, 1);  // the ACK of the receiver's FIN (TIME-WAIT)
      return true;
    case Connection::closed:
      // A second FIN-ACK (a resent FIN that both arrived): acknowledged again
      // (RFC 9293 3.10.7.4, TIME-WAIT).
      if (t.fin) send_control(false, false, data_end_ + 1, 1);
      return true;
  }
  return true;
}

template <class Policy>
void ReliableSender<Policy>::on_control_timeout() {
  // RFC 6298 5.5-5.6: back off and send the SYN or the FIN again (state first, the
  // hand-over last). Unbounded, as the data's retransmissions: RFC 1122 4.2.3.5's R2
  // is not modelled.
  rtt_.back_off();
  restart_timer();
  if (connection_ == Connection::syn_sent) {
    ++stats_.syn_retransmissions;
    syn_sent_again_ = true;
    send_control(true, false, 0, 0);
  } else {
    ++stats_.fin_retransmissions;
    send_control(false, true, data_end_, 0);
  }
}

template <class Policy>
void ReliableSender<Policy>::close_application() {
  // The application stops offering data: what has not been handed to the network
  // yet is withdrawn; what has been sent is still delivered reliably.
  application_closed_ = true;
  data_end_ = std::min(data_end_, snd_max_);
  open_ = true;  // a flow stopped before it started has nothing to send either
  check_completion();
}

template <class Policy>
void ReliableSender<Policy>::write(std::uint64_t bytes) {
  if (application_closed_ || config_.application != TcpApplication::written) return;
  data_end_ += bytes;
  if (connection_ == Connection::syn_sent) return;  // buffered until the connection is open
  policy_.transmit();
}

template <class Policy>
void ReliableSender<Policy>::send_segment(std::uint64_t seq, std::uint32_t length) {
  const Time now = scheduler_.now();
  const bool retransmission = seq < snd_max_;
  // State first, the hand-over last: the sink may be anything, even re-entrant.
  if (seq == snd_nxt_) snd_nxt_ += length;
  snd_max_ = std::max(snd_max_, seq + length);
  ++stats_.segments_sent;
  stats_.payload_bytes_sent += length;
  if (retransmission) {
    ++stats_.retransmissions;
    // Karn's rule (RFC 6298 3): a retransmission makes the sample in progress
    // ambiguous, so it is abandoned.
    timing_ = false;
  } else if (!timing_ && !config_.timestamps) {  // with timestamps every ACK is timed
    timing_ = true;
    timed_end_ = seq + length;
    timed_sent_at_ = now;
  }
  // RFC 6298 5.1: start the timer if it is not running.
  if (!scheduler_.is_pending(timer_)) restart_timer();

  PacketPtr p = pool_.make(now);
  p->src = config_.address.src;
  p->dst = config_.address.dst;
  p->flow = config_.address.flow;
  p->size_bytes = kTcpIpHeaderBytes + length;
  p->user_priority = config_.user_priority;
  p->transport.seq = seq;
  p->transport.payload_bytes = length;
  p->transport.retransmitted = retransmission;
  if (config_.timestamps) {
    // RFC 7323 3.2: every segment carries TSval, our clock when it is sent.
    p->size_bytes += kTcpTimestampOptionBytes;
    p->transport.timestamps = true;
    p->transport.ts_val = now;
  }
  policy_.on_segment(*p);
  network_.receive(std::move(p));
}

template <class Policy>
void ReliableSender<Policy>::restart_timer() {
  scheduler_.cancel(timer_);
  timer_ = scheduler_.schedule_in(rtt_.rto(), [this] { on_timeout(); });
}

template <class Policy>
void ReliableSender<Policy>::take_rtt_sample(Time sample) {
  rtt_.add_sample(sample);
  rtt_trace_.record(scheduler_.now(), sample.to_seconds());
}

template <class Policy>
void ReliableSender<Policy>::receive(const TransportHeader& t) {
  if (!t.ack_valid) return;
  if (connection_ != Connection::none && receive_connection_segment(t)) return;
  ++stats_.acks_received;
  const std::uint64_t ack = t.ack;
  if (ack > snd_max_) return;  // acknowledges bytes never sent: not for this connection
  const std::uint64_t old_rwnd = rwnd_;
  if (t.window_bytes > 0) rwnd_ = t.window_bytes;
  // RFC 6675 5: every ACK's SACK blocks go to the scoreboard (Update()).
  bool new_sack = false;
  if (config_.sack) new_sack = scoreboard_.update(t, std::max(ack, snd_una_), snd_max_);

  const bool advances = ack > snd_una_;
  if (advances) {
    const Time now = scheduler_.now();
    if (config_.timestamps && t.timestamps) {
      // RFC 7323 4.1-4.2 (RTTM): a sample from every ACK that advances SND.UNA,
      // now - TSecr. The echoed TSval is that of the transmission which filled the
      // receiver's window edge, so retransmitted segments are timed without Karn's
      // ambiguity (RFC 6298 3), and each sample ends the back-off (5.7). The
      // per-sample gains of RFC 7323 Appendix G are not applied (ns-2 and Linux
      // use RFC 6298's 1/8 and 1/4 too).
      take_rtt_sample(now - t.ts_ecr);
    } else if (timing_ && ack >= timed_end_) {
      // Karn's algorithm (RFC 6298 3 and 5.7): only a sample, i.e. the ACK of a
      // segment never retransmitted, recomputes the RTO and ends the back-off
      // (add_sample). An ACK covering resent bytes keeps the backed-off RTO, as
      // ns-2's TcpAgent::newack (t_backoff_ reset only with rtt_active_) and
      // Linux's tcp_ack_no_tstamp do: collapsing it to the stale SRTT's would let
      // a flow whose RTT grew past the RTO time out for ever without a sample.
      take_rtt_sample(now - timed_sent_at_);
      timing_ = false;
    }
  }
  policy_.on_ack(t);

  if (advances) {
    const std::uint64_t newly_acked = ack - snd_una_;
    stats_.bytes_acked += newly_acked;
    snd_una_ = ack;
    // After a go-back-N the receiver may already hold what we were about to resend.
    snd_nxt_ = std::max(snd_nxt_, snd_una_);
    dupacks_ = 0;
    backed_off_ = false;
    const bool restart = policy_.on_new_ack(newly_acked);
    if (snd_una_ == snd_max_) {
      scheduler_.cancel(timer_);  // RFC 6298 5.2: all outstanding data acknowledged
    } else if (restart) {
      restart_timer();  // RFC 6298 5.3
    }
    check_completion();
  } else if (ack == snd_una_ && snd_max_ > snd_una_ && t.payload_bytes == 0 && rwnd_ == old_rwnd &&
             (!config_.sack || new_sack || t.sack_count == 0)) {
    // RFC 5681 2 (DUPLICATE ACKNOWLEDGMENT): outstanding data, no payload, the
    // same window, and the ACK number equal to the greatest acknowledged so far.
    // RFC 6675 2 adds, for an ACK with SACK blocks, that they SACK new data.
    ++stats_.duplicate_acks;
    ++dupacks_;
    policy_.on_duplicate_ack();
  }
  policy_.transmit();
}

template <class Policy>
void ReliableSender<Policy>::on_timeout() {
  if (connection_ == Connection::syn_sent || connection_ == Connection::fin_sent) {
    on_control_timeout();
    return;
  }
  if (snd_una_ == snd_max_) return;  // nothing outstanding (cannot happen: the timer is stopped)
  ++stats_.timeouts;
  const Time rto_before = rtt_.rto();
  // RFC 6298 5.5: back off (the RttEstimator keeps the doubled RTO until a valid
  // sample, 5.7).
  const bool back_off = config_.backoff == RtoBackoff::every_timeout || !backed_off_;
  if (back_off) {
    rtt_.back_off();
    backed_off_ = true;
  }
  dupacks_ = 0;
  timing_ = false;  // Karn's rule
  // RFC 2018 8 and RFC 6675 5.1: the receiver may have reneged, so the SACK
  // information is dropped; blocks that arrive since fill it in again.
  if (config_.sack) scoreboard_.clear();
  policy_.on_timeout(rto_before, back_off);
  // RFC 6298 5.4: retransmit the earliest unacknowledged segment; 5.6: restart the
  // timer with the new RTO.
  send_segment(snd_una_, segment_length(snd_una_));
  restart_timer();
  policy_.transmit();
}

template <class Policy>
void ReliableSender<Policy>::check_completion() {
  if (stats_.completed_at) return;
  const bool no_more_data = application_closed_ || config_.application == TcpApplication::finite;
  if (open_ && no_more_data && snd_una_ >= data_end_) {
    stats_.completed_at = scheduler_.now();
    scheduler_.cancel(timer_);
    policy_.on_finished();
    if (completion_listener_) completion_listener_(data_end_);
    if (connection_ == Connection::established) {
      // RFC 9293 3.6: CLOSE once every byte is acknowledged (a stack may send the FIN
      // with its last data; waiting for the ACKs keeps the FIN out of the data's
      // retransmissions and costs the close at most one round trip).
      connection_ = Connection::fin_sent;
      restart_timer();
      send_control(false, true, data_end_, 0);
    } else if (connection_ == Connection::syn_sent) {
      connection_ = Connection::closed;  // RFC 9293 3.10.4: CLOSE in SYN-SENT deletes the connection
    }
  }
}

}  // namespace wmnsim::transport
