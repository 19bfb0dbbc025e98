#include "transport/tcp_sender.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "transport/header_sizes.hpp"
#include "core/sim_log.hpp"

namespace wmnsim::transport {

namespace {
// A bulk application's data never ends; far below 2^64 so that sums cannot wrap.
constexpr std::uint64_t kUnbounded = std::uint64_t{1} << 62;
}  // namespace

TcpSender::TcpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, TcpSenderConfig config)
    : scheduler_(scheduler),
      pool_(pool),
      network_(network),
      config_(std::move(config)),
      rtt_(config_.rto),
      cwnd_trace_(config_.trace_cwnd),
      rtt_trace_(config_.trace_rtt) {
  if (config_.mss == 0) throw std::invalid_argument("TCP MSS must be at least one byte");
  if (config_.window_packets == 0) throw std::invalid_argument("TCP window must be at least one segment");
  if (config_.application == TcpApplication::finite && config_.finite_bytes == 0) {
    throw std::invalid_argument("a finite TCP transfer needs at least one byte");
  }
  const std::uint64_t mss = config_.mss;
  rwnd_ = mss * config_.window_packets;
  max_cwnd_ = rwnd_;
  // RFC 5681 3.1: ssthresh starts "arbitrarily high"; the receiver's window caps
  // the sending window anyway.
  ssthresh_ = kUnbounded;
  if (fixed()) {
    cwnd_ = rwnd_;
  } else if (config_.initial_window_segments > 0) {
    cwnd_ = mss * config_.initial_window_segments;
  } else {
    // RFC 5681 3.1, eq. (1): IW = min(4*SMSS, max(2*SMSS, 4380 bytes)).
    cwnd_ = std::min<std::uint64_t>(4 * mss, std::max<std::uint64_t>(2 * mss, 4380));
  }
  if (!config_.stop || *config_.stop > config_.start) {
    start_event_ = scheduler_.schedule_at(config_.start, [this] { open(); });
  }
  if (config_.stop) {
    stop_event_ = scheduler_.schedule_at(std::max(*config_.stop, config_.start), [this] { close_application(); });
  }
}

TcpSender::~TcpSender() {
  scheduler_.cancel(timer_);
  scheduler_.cancel(start_event_);
  scheduler_.cancel(stop_event_);
}

void TcpSender::open() {
  open_ = true;
  if (config_.application == TcpApplication::bulk) data_end_ = kUnbounded;
  if (config_.application == TcpApplication::finite) data_end_ = config_.finite_bytes;
  cwnd_trace_.record(scheduler_.now(), static_cast<double>(cwnd_));
  send_available();
}

void TcpSender::close_application() {
  // The application stops offering data: what has not been handed to the network
  // yet is withdrawn; what has been sent is still delivered reliably.
  application_closed_ = true;
  data_end_ = std::min(data_end_, snd_max_);
  open_ = true;  // a flow stopped before it started has nothing to send either
  check_completion();
}

void TcpSender::write(std::uint64_t bytes) {
  if (application_closed_ || config_.application != TcpApplication::written) return;
  data_end_ += bytes;
  send_available();
}

std::uint32_t TcpSender::segment_length(std::uint64_t seq) const {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(config_.mss, data_end_ - seq));
}

std::uint64_t TcpSender::usable_window() const {
  // RFC 5681 2: the sender may not send data beyond min(cwnd, rwnd) past SND.UNA.
  return std::min(cwnd_, rwnd_);
}

void TcpSender::send_available() {
  if (!open_) return;
  if (config_.sack && in_recovery_) {
    sack_transmit();
    return;
  }
  // After a timeout snd_nxt_ is back at snd_una_ (go-back-N) and this resends.
  while (snd_nxt_ < data_end_) {
    std::uint32_t length = segment_length(snd_nxt_);
    if (config_.sack && snd_nxt_ < snd_max_) {
      // RFC 6675 5.1: after a timeout, SACK information that arrives since is
      // used to fill in only the holes, not to resend what the receiver holds.
      const std::uint64_t next = scoreboard_.first_unsacked(snd_nxt_);
      if (next != snd_nxt_) {
        snd_nxt_ = std::min(next, snd_max_);
        continue;
      }
      length = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(length, scoreboard_.hole_end(snd_nxt_, snd_max_) - snd_nxt_));
    }
    if (snd_nxt_ + length > snd_una_ + usable_window()) break;
    send_segment(snd_nxt_, length);
  }
}

void TcpSender::send_segment(std::uint64_t seq, std::uint32_t length) {
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
  network_.receive(std::move(p));
}

void TcpSender::restart_timer() {
  scheduler_.cancel(timer_);
  timer_ = scheduler_.schedule_in(rtt_.rto(), [this] { on_timeout(); });
}

void TcpSender::set_cwnd(std::uint64_t bytes) {
  if (bytes == cwnd_) return;
  cwnd_ = bytes;
  cwnd_trace_.record(scheduler_.now(), static_cast<double>(cwnd_));
}

void TcpSender::receive(PacketPtr packet) {
  const TransportHeader& t = packet->transport;
  if (!t.ack_valid) return;
  ++stats_.acks_received;
  const std::uint64_t ack = t.ack;
  if (ack > snd_max_) return;  // acknowledges bytes never sent: not for this connection
  const std::uint64_t old_rwnd = rwnd_;
  // A zero window would stall the sender for good: there is no persist timer
  // (our receiver always advertises its whole buffer), so 0 means "no news".
  if (t.window_bytes > 0) rwnd_ = t.window_bytes;
  // RFC 6675 5: every ACK's SACK blocks go to the scoreboard (Update()).
  bool new_sack = false;
  if (config_.sack) new_sack = scoreboard_.update(t, std::max(ack, snd_una_), snd_max_);
  if (ack > snd_una_) {
    on_new_ack(ack, t);
  } else if (ack == snd_una_ && snd_max_ > snd_una_ && t.payload_bytes == 0 && rwnd_ == old_rwnd &&
             (!config_.sack || new_sack || t.sack_count == 0)) {
    // RFC 5681 2 (DUPLICATE ACKNOWLEDGMENT): outstanding data, no payload, the
    // same window, and the ACK number equal to the greatest acknowledged so far.
    // RFC 6675 2 adds, for an ACK with SACK blocks, that they SACK new data.
    on_duplicate_ack();
  }
  send_available();
}

void TcpSender::grow_cwnd(std::uint64_t newly_acked) {
  if (fixed()) return;
  const std::uint64_t mss = config_.mss;
  std::uint64_t next = cwnd_;
  if (cwnd_ < ssthresh_) {
    // RFC 5681 3.1, eq. (2): slow start, cwnd += min(N, SMSS).
    next += std::min(newly_acked, mss);
  } else {
    // RFC 5681 3.1, eq. (3): congestion avoidance, cwnd += SMSS*SMSS/cwnd, at least 1 byte.
    next += std::max<std::uint64_t>(1, mss * mss / cwnd_);
  }
  // More than the receiver's window could never be used (ns-2 caps cwnd the same
  // way); without the cap a bulk flow's cwnd would grow without bound.
  set_cwnd(std::max(cwnd_, std::min(next, max_cwnd_)));
}

void TcpSender::take_rtt_sample(Time sample) {
  rtt_.add_sample(sample);
  rtt_trace_.record(scheduler_.now(), sample.to_seconds());
}

void TcpSender::on_new_ack(std::uint64_t ack, const TransportHeader& header) {
  const Time now = scheduler_.now();
  const std::uint64_t mss = config_.mss;
  const std::uint64_t newly_acked = ack - snd_una_;
  stats_.bytes_acked += newly_acked;
  snd_una_ = ack;
  // After a go-back-N the receiver may already hold what we were about to resend.
  snd_nxt_ = std::max(snd_nxt_, snd_una_);
  dupacks_ = 0;
  limited_transmit_bytes_ = 0;

  if (config_.timestamps && header.timestamps) {
    // RFC 7323 4.1-4.2 (RTTM): a sample from every ACK that advances SND.UNA,
    // now - TSecr. The echoed TSval is that of the transmission which filled the
    // receiver's window edge, so retransmitted segments are timed without Karn's
    // ambiguity (RFC 6298 3), and each sample ends the back-off (5.7). The
    // per-sample gains of RFC 7323 Appendix G are not applied (ns-2 and Linux
    // use RFC 6298's 1/8 and 1/4 too).
    take_rtt_sample(now - header.ts_ecr);
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

  bool restart = true;
  if (in_recovery_) {
    if (config_.sack) {
      // RFC 6675 5 (A): a cumulative ACK beyond RecoveryPoint ends recovery; cwnd
      // stays at the ssthresh set on entry. The scoreboard above SND.UNA is kept.
      // (B): otherwise SetPipe and NextSeg run once the ACK is processed.
      if (ack > recover_) in_recovery_ = false;
    } else if (config_.variant == TcpVariant::reno) {
      // RFC 5681 3.2 step 6: the first ACK of new data ends recovery, cwnd = ssthresh.
      in_recovery_ = false;
      set_cwnd(ssthresh_);
    } else if (ack > recover_) {
      // RFC 6582 3.2 step 3, full acknowledgment: option (1),
      // cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS), which avoids a burst.
      in_recovery_ = false;
      if (!fixed()) set_cwnd(std::min(ssthresh_, std::max(flight_size_bytes(), mss) + mss));
    } else {
      // RFC 6582 3.2 step 3, partial acknowledgment: retransmit the first
      // unacknowledged segment, deflate cwnd by the newly acknowledged bytes and
      // add back one SMSS if at least one SMSS was acknowledged.
      ++stats_.partial_ack_retransmits;
      send_segment(snd_una_, segment_length(snd_una_));
      if (!fixed()) {
        std::uint64_t deflated = cwnd_ > newly_acked ? cwnd_ - newly_acked : 0;
        if (newly_acked >= mss) deflated += mss;
        set_cwnd(std::max(deflated, mss));
      }
      // Only the first partial ACK resets the timer (RFC 6582 3.2 step 3, the
      // "Impatient" variant): a long train of holes ends in a timeout, not in
      // one hole repaired per RTT for ever.
      restart = first_partial_ack_;
      first_partial_ack_ = false;
    }
  } else {
    grow_cwnd(newly_acked);
  }

  if (snd_una_ == snd_max_) {
    scheduler_.cancel(timer_);  // RFC 6298 5.2: all outstanding data acknowledged
  } else if (restart) {
    restart_timer();  // RFC 6298 5.3
  }
  check_completion();
}

void TcpSender::on_duplicate_ack() {
  ++stats_.duplicate_acks;
  if (in_recovery_) {
    // RFC 6675: no cwnd inflation; SetPipe counts what the SACK says has left.
    if (config_.sack) return;
    // RFC 5681 3.2 step 4 / RFC 6582 3.2 step 4: each further duplicate ACK means
    // a segment left the network: inflate cwnd by one SMSS.
    if (!fixed()) set_cwnd(cwnd_ + config_.mss);
    return;
  }
  ++dupacks_;
  if (config_.sack) {
    // RFC 6675 5 (1.a) DupAcks >= DupThresh, or (1.b) IsLost(HighACK + 1): three
    // segments' worth SACKed above SND.UNA.
    if (dupacks_ >= SackScoreboard::kDupThresh || scoreboard_.is_lost(snd_una_, config_.mss)) {
      enter_sack_recovery();
    } else if (config_.limited_transmit) {
      limited_transmit();  // (1.c), as RFC 3042 (FlightSize, not pipe)
    }
    return;
  }
  if (dupacks_ == 3) {
    enter_fast_recovery();
  } else if (dupacks_ < 3 && config_.limited_transmit) {
    limited_transmit();
  }
}

void TcpSender::limited_transmit() {
  // RFC 3042 2 (RFC 5681 3.2 step 1): on each of the first two duplicate ACKs,
  // one segment of previously unsent data, if the receiver's window allows it and
  // FlightSize stays at most cwnd + 2 SMSS; cwnd itself is not changed.
  if (snd_nxt_ != snd_max_ || snd_nxt_ >= data_end_) return;  // new data only
  const std::uint32_t length = segment_length(snd_nxt_);
  if (snd_nxt_ + length > snd_una_ + rwnd_) return;
  if (flight_size_bytes() + length > cwnd_ + 2 * std::uint64_t{config_.mss}) return;
  ++stats_.limited_transmits;
  limited_transmit_bytes_ += length;
  send_segment(snd_nxt_, length);
}

void TcpSender::enter_fast_recovery() {
  // RFC 6582 3.2 step 1 (newreno, fixed_window): after a timeout or a recovery,
  // duplicate ACKs that do not cover more than `recover` may come from segments
  // sent twice; they must not start another recovery.
  if (config_.variant != TcpVariant::reno && recover_valid_ && snd_una_ <= recover_ + 1) return;
  const std::uint64_t mss = config_.mss;
  ++stats_.fast_retransmits;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: fast retransmit of byte {} (third duplicate ACK), flight {} B", config_.address.flow, snd_una_,
             flight_size_bytes());
  in_recovery_ = true;
  first_partial_ack_ = true;
  recover_ = snd_max_ - 1;  // RFC 6582 3.2 step 2
  recover_valid_ = true;
  if (!fixed()) {
    // RFC 5681 3.2 step 2, eq. (4): ssthresh = max(FlightSize/2, 2*SMSS), where
    // FlightSize leaves out what limited transmit sent ("MUST NOT be included").
    ssthresh_ = std::max((flight_size_bytes() - limited_transmit_bytes_) / 2, 2 * mss);
  }
  // RFC 5681 3.2 step 3: retransmit the lost segment, cwnd = ssthresh + 3*SMSS.
  send_segment(snd_una_, segment_length(snd_una_));
  if (!fixed()) set_cwnd(ssthresh_ + 3 * mss);
}

void TcpSender::enter_sack_recovery() {
  // RFC 6675 5.1: after a timeout, no new recovery until HighACK >= RecoveryPoint.
  if (recover_valid_ && snd_una_ <= recover_) return;
  const std::uint64_t mss = config_.mss;
  ++stats_.fast_retransmits;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: SACK loss recovery from byte {}, flight {} B, {} B SACKed", config_.address.flow, snd_una_,
             flight_size_bytes(), scoreboard_.sacked_bytes());
  in_recovery_ = true;
  recover_ = snd_max_ - 1;  // (4.1) RecoveryPoint = HighData
  recover_valid_ = true;
  snd_nxt_ = snd_max_;  // NextSeg chooses what to send from now on
  if (!fixed()) {
    // (4.2) ssthresh = cwnd = FlightSize / 2, at least 2 SMSS (RFC 5681 eq. 4,
    // without the limited-transmit segments as RFC 5681 3.2 step 2 says).
    ssthresh_ = std::max((flight_size_bytes() - limited_transmit_bytes_) / 2, 2 * mss);
    set_cwnd(ssthresh_);
  }
  // (4.3) Retransmit the segment at HighACK + 1 (up to the first SACKed byte);
  // HighRxt and RescueRxt = its last byte.
  const std::uint64_t end =
      std::min(snd_una_ + segment_length(snd_una_), scoreboard_.hole_end(snd_una_, snd_max_));
  high_rxt_ = end;
  rescue_rxt_ = end;
  send_segment(snd_una_, static_cast<std::uint32_t>(end - snd_una_));
  // (4.4) SetPipe and (4.5) step (C): sack_transmit, when receive() ends.
}

void TcpSender::sack_transmit() {
  const std::uint32_t mss = config_.mss;
  // RFC 6675 5 (B.2) / (4.4): SetPipe.
  pipe_ = scoreboard_.pipe(snd_una_, snd_max_, high_rxt_, mss);
  // (C): while cwnd - pipe >= 1 SMSS, send what NextSeg returns (C.1, C.5).
  while (cwnd_ >= pipe_ + mss) {
    const auto seg = scoreboard_.next_seg(
        {snd_una_, snd_max_, high_rxt_, data_end_, snd_una_ + rwnd_, rescue_rxt_, mss});
    if (!seg) return;
    if (seg->rule == 4) {
      // NextSeg (4.a): RescueRxt = RecoveryPoint; HighRxt is not updated.
      ++stats_.rescue_retransmits;
      rescue_rxt_ = recover_ + 1;
    } else if (seg->seq < snd_max_) {
      high_rxt_ = std::max(high_rxt_, seg->seq + seg->length);  // (C.2)
    }
    pipe_ += seg->length;  // (C.4)
    send_segment(seg->seq, seg->length);  // (C.3): new data moves HighData
  }
}

void TcpSender::on_timeout() {
  if (snd_una_ == snd_max_) return;  // nothing outstanding (cannot happen: the timer is stopped)
  const std::uint64_t mss = config_.mss;
  ++stats_.timeouts;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: retransmission timeout (RTO {:.6f}s), resending from byte {}", config_.address.flow,
             rtt_.rto().to_seconds(), snd_una_);
  if (!fixed()) {
    // RFC 5681 3.1: ssthresh = max(FlightSize/2, 2*SMSS) (eq. 4); cwnd = LW = 1 SMSS.
    ssthresh_ = std::max(flight_size_bytes() / 2, 2 * mss);
    set_cwnd(mss);
  }
  // RFC 6582 3.2 step 1 and Sec. 4: remember the highest byte sent, so that the
  // duplicate ACKs of the go-back-N resends do not trigger a fast retransmit.
  recover_ = snd_max_ - 1;
  recover_valid_ = true;
  in_recovery_ = false;
  dupacks_ = 0;
  limited_transmit_bytes_ = 0;
  timing_ = false;  // Karn's rule
  if (config_.sack) {
    // RFC 2018 8 and RFC 6675 5.1: the receiver may have reneged, so the SACK
    // information is dropped; the resends below fill in holes reported since.
    scoreboard_.clear();
    rescue_rxt_.reset();
    pipe_ = 0;
  }
  // RFC 6298 5.5: back off; 5.4: retransmit the earliest unacknowledged segment;
  // 5.6: restart the timer with the doubled RTO.
  rtt_.back_off();
  snd_nxt_ = snd_una_;  // go-back-N: without SACK, everything after the hole is suspect
  send_segment(snd_una_, segment_length(snd_una_));
  restart_timer();
  send_available();
}

void TcpSender::check_completion() {
  if (stats_.completed_at) return;
  const bool no_more_data = application_closed_ || config_.application == TcpApplication::finite;
  if (open_ && no_more_data && snd_una_ >= data_end_) {
    stats_.completed_at = scheduler_.now();
    scheduler_.cancel(timer_);
  }
}

}  // namespace wmnsim::transport
