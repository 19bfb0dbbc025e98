#include "transport/tcp_sender.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "transport/header_sizes.hpp"
#include "core/sim_log.hpp"

namespace wmnsim::transport {

namespace {
ReliableSenderConfig tcp_reliable_config(const TcpSenderConfig& c) {
  ReliableSenderConfig r;
  r.protocol = "TCP";
  r.address = c.address;
  r.mss = c.mss;
  r.window_packets = c.window_packets;
  r.rto = c.rto;
  r.backoff = RtoBackoff::every_timeout;
  r.timestamps = c.timestamps;
  r.sack = c.sack;
  r.application = c.application;
  r.finite_bytes = c.finite_bytes;
  r.start = c.start;
  r.stop = c.stop;
  r.trace_rtt = c.trace_rtt;
  r.user_priority = c.user_priority;
  r.handshake = c.handshake;
  return r;
}
}  // namespace

TcpSender::TcpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, TcpSenderConfig config)
    : scheduler_(scheduler),
      config_(std::move(config)),
      cwnd_trace_(config_.trace_cwnd),
      core_(scheduler, pool, network, *this, tcp_reliable_config(config_), stats_) {
  const std::uint64_t mss = config_.mss;
  max_cwnd_ = mss * config_.window_packets;
  // RFC 5681 3.1: ssthresh starts "arbitrarily high"; the receiver's window caps
  // the sending window anyway.
  ssthresh_ = kUnboundedBytes;
  if (fixed()) {
    cwnd_ = max_cwnd_;
  } else if (config_.initial_window_segments > 0) {
    cwnd_ = mss * config_.initial_window_segments;
  } else {
    // RFC 5681 3.1, eq. (1): IW = min(4*SMSS, max(2*SMSS, 4380 bytes)).
    cwnd_ = std::min<std::uint64_t>(4 * mss, std::max<std::uint64_t>(2 * mss, 4380));
  }
}

TcpSender::~TcpSender() = default;

void TcpSender::receive(PacketPtr packet) { core_.receive(packet->transport); }

void TcpSender::write(std::uint64_t bytes) { core_.write(bytes); }

void TcpSender::on_open() {
  // RFC 5681 3.1: "if the SYN or SYN/ACK is lost, the initial window used by a sender
  // after a correctly transmitted SYN MUST be one segment" (a resent SYN tells either).
  if (core_.syn_resent() && !fixed()) cwnd_ = config_.mss;
  cwnd_trace_.record(scheduler_.now(), static_cast<double>(cwnd_));
}

std::uint64_t TcpSender::usable_window() const {
  // RFC 5681 2: the sender may not send data beyond min(cwnd, rwnd) past SND.UNA.
  return std::min(cwnd_, core_.rwnd());
}

void TcpSender::transmit() {
  if (!core_.is_open()) return;
  if (config_.sack && in_recovery_) {
    sack_transmit();
    return;
  }
  // After a timeout SND.NXT is back at SND.UNA (go-back-N) and this resends.
  while (core_.snd_nxt() < core_.data_end()) {
    const std::uint64_t nxt = core_.snd_nxt();
    std::uint32_t length = segment_length(nxt);
    if (config_.sack && nxt < core_.snd_max()) {
      // RFC 6675 5.1: after a timeout, SACK information that arrives since is
      // used to fill in only the holes, not to resend what the receiver holds.
      const std::uint64_t next = core_.scoreboard().first_unsacked(nxt);
      if (next != nxt) {
        core_.set_snd_nxt(std::min(next, core_.snd_max()));
        continue;
      }
      length = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(length, core_.scoreboard().hole_end(nxt, core_.snd_max()) - nxt));
    }
    if (nxt + length > core_.snd_una() + usable_window()) break;
    send_segment(nxt, length);
  }
}

void TcpSender::set_cwnd(std::uint64_t bytes) {
  if (bytes == cwnd_) return;
  cwnd_ = bytes;
  cwnd_trace_.record(scheduler_.now(), static_cast<double>(cwnd_));
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

bool TcpSender::on_new_ack(std::uint64_t newly_acked) {
  const std::uint64_t mss = config_.mss;
  const std::uint64_t ack = core_.snd_una();
  limited_transmit_bytes_ = 0;

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
      send_segment(ack, segment_length(ack));
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
  return restart;
}

void TcpSender::on_duplicate_ack() {
  if (in_recovery_) {
    // RFC 6675: no cwnd inflation; SetPipe counts what the SACK says has left.
    if (config_.sack) return;
    // RFC 5681 3.2 step 4 / RFC 6582 3.2 step 4: each further duplicate ACK means
    // a segment left the network: inflate cwnd by one SMSS.
    if (!fixed()) set_cwnd(cwnd_ + config_.mss);
    return;
  }
  // Outside recovery; recovery ends only with a new ACK or a timeout, which both
  // reset the count, so it counts exactly the duplicates since.
  const std::uint32_t dupacks = core_.duplicate_acks();
  if (config_.sack) {
    // RFC 6675 5 (1.a) DupAcks >= DupThresh, or (1.b) IsLost(HighACK + 1): three
    // segments' worth SACKed above SND.UNA.
    if (dupacks >= SackScoreboard::kDupThresh || core_.scoreboard().is_lost(core_.snd_una(), config_.mss)) {
      enter_sack_recovery();
    } else if (config_.limited_transmit) {
      limited_transmit();  // (1.c), as RFC 3042 (FlightSize, not pipe)
    }
    return;
  }
  if (dupacks == 3) {
    enter_fast_recovery();
  } else if (dupacks < 3 && config_.limited_transmit) {
    limited_transmit();
  }
}

void TcpSender::limited_transmit() {
  // RFC 3042 2 (RFC 5681 3.2 step 1): on each of the first two duplicate ACKs,
  // one segment of previously unsent data, if the receiver's window allows it and
  // FlightSize stays at most cwnd + 2 SMSS; cwnd itself is not changed.
  const std::uint64_t nxt = core_.snd_nxt();
  if (nxt != core_.snd_max() || nxt >= core_.data_end()) return;  // new data only
  const std::uint32_t length = segment_length(nxt);
  if (nxt + length > core_.window_end()) return;
  if (flight_size_bytes() + length > cwnd_ + 2 * std::uint64_t{config_.mss}) return;
  ++stats_.limited_transmits;
  limited_transmit_bytes_ += length;
  send_segment(nxt, length);
}

void TcpSender::enter_fast_recovery() {
  // RFC 6582 3.2 step 1 (newreno, fixed_window): after a timeout or a recovery,
  // duplicate ACKs that do not cover more than `recover` may come from segments
  // sent twice; they must not start another recovery.
  const std::uint64_t una = core_.snd_una();
  const std::uint64_t high_data = core_.snd_max();
  if (config_.variant != TcpVariant::reno && recover_valid_ && una <= recover_ + 1) return;
  const std::uint64_t mss = config_.mss;
  ++stats_.fast_retransmits;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: fast retransmit of byte {} (third duplicate ACK), flight {} B", config_.address.flow, una,
             flight_size_bytes());
  in_recovery_ = true;
  first_partial_ack_ = true;
  recover_ = high_data - 1;  // RFC 6582 3.2 step 2
  recover_valid_ = true;
  if (!fixed()) {
    // RFC 5681 3.2 step 2, eq. (4): ssthresh = max(FlightSize/2, 2*SMSS), where
    // FlightSize leaves out what limited transmit sent ("MUST NOT be included").
    ssthresh_ = std::max((flight_size_bytes() - limited_transmit_bytes_) / 2, 2 * mss);
  }
  // RFC 5681 3.2 step 3: retransmit the lost segment, cwnd = ssthresh + 3*SMSS.
  send_segment(una, segment_length(una));
  if (!fixed()) set_cwnd(ssthresh_ + 3 * mss);
}

void TcpSender::enter_sack_recovery() {
  // RFC 6675 5.1: after a timeout, no new recovery until HighACK >= RecoveryPoint.
  const std::uint64_t una = core_.snd_una();
  const std::uint64_t high_data = core_.snd_max();
  if (recover_valid_ && una <= recover_) return;
  const std::uint64_t mss = config_.mss;
  ++stats_.fast_retransmits;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: SACK loss recovery from byte {}, flight {} B, {} B SACKed", config_.address.flow, una,
             flight_size_bytes(), core_.scoreboard().sacked_bytes());
  in_recovery_ = true;
  recover_ = high_data - 1;  // (4.1) RecoveryPoint = HighData
  recover_valid_ = true;
  core_.set_snd_nxt(high_data);  // NextSeg chooses what to send from now on
  if (!fixed()) {
    // (4.2) ssthresh = cwnd = FlightSize / 2, at least 2 SMSS (RFC 5681 eq. 4,
    // without the limited-transmit segments as RFC 5681 3.2 step 2 says). ns-3
    // halves the pipe instead (SsthreshBasis::pipe): SetPipe before the
    // retransmission, nothing yet below HighRxt.
    const std::uint64_t basis = config_.ssthresh_from == SsthreshBasis::pipe
                                    ? core_.scoreboard().pipe(una, high_data, una, config_.mss)
                                    : flight_size_bytes() - limited_transmit_bytes_;
    ssthresh_ = std::max(basis / 2, 2 * mss);
    set_cwnd(ssthresh_);
  }
  // (4.3) Retransmit the segment at HighACK + 1 (up to the first SACKed byte);
  // HighRxt and RescueRxt = its last byte.
  const std::uint64_t end =
      std::min(una + segment_length(una), core_.scoreboard().hole_end(una, high_data));
  high_rxt_ = end;
  rescue_rxt_ = end;
  send_segment(una, static_cast<std::uint32_t>(end - una));
  // (4.4) SetPipe and (4.5) step (C): sack_transmit, when receive() ends.
}

void TcpSender::sack_transmit() {
  const std::uint32_t mss = config_.mss;
  const std::uint64_t una = core_.snd_una();
  // RFC 6675 5 (B.2) / (4.4): SetPipe.
  pipe_ = core_.scoreboard().pipe(una, core_.snd_max(), high_rxt_, mss);
  // (C): while cwnd - pipe >= 1 SMSS, send what NextSeg returns (C.1, C.5).
  while (cwnd_ >= pipe_ + mss) {
    const auto seg = core_.scoreboard().next_seg(
        {una, core_.snd_max(), high_rxt_, core_.data_end(), core_.window_end(), rescue_rxt_, mss});
    if (!seg) return;
    if (seg->rule == 4) {
      // NextSeg (4.a): RescueRxt = RecoveryPoint; HighRxt is not updated.
      ++stats_.rescue_retransmits;
      rescue_rxt_ = recover_ + 1;
    } else if (seg->seq < core_.snd_max()) {
      high_rxt_ = std::max(high_rxt_, seg->seq + seg->length);  // (C.2)
    }
    pipe_ += seg->length;  // (C.4)
    send_segment(seg->seq, seg->length);  // (C.3): new data moves HighData
  }
}

void TcpSender::on_timeout(Time rto_before, bool /*backed_off: always, RFC 6298 5.5*/) {
  const std::uint64_t mss = config_.mss;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "tcp flow {}: retransmission timeout (RTO {:.6f}s), resending from byte {}", config_.address.flow,
             rto_before.to_seconds(), core_.snd_una());
  if (!fixed()) {
    // RFC 5681 3.1: ssthresh = max(FlightSize/2, 2*SMSS) (eq. 4); cwnd = LW = 1 SMSS.
    ssthresh_ = std::max(flight_size_bytes() / 2, 2 * mss);
    set_cwnd(mss);
  }
  // RFC 6582 3.2 step 1 and Sec. 4: remember the highest byte sent, so that the
  // duplicate ACKs of the go-back-N resends do not trigger a fast retransmit.
  recover_ = core_.snd_max() - 1;
  recover_valid_ = true;
  in_recovery_ = false;
  limited_transmit_bytes_ = 0;
  if (config_.sack) {
    // The core dropped the scoreboard (RFC 2018 8); the resends fill in holes
    // reported since (RFC 6675 5.1).
    rescue_rxt_.reset();
    pipe_ = 0;
  }
  // Go-back-N: without SACK, everything after the hole is suspect. The core then
  // resends SND.UNA with the backed-off timer, and transmit() the rest.
  core_.set_snd_nxt(core_.snd_una());
}

}  // namespace wmnsim::transport
