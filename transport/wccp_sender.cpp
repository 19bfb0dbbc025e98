#include "transport/wccp_sender.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/sim_log.hpp"
#include "transport/header_sizes.hpp"

namespace wmnsim::transport {

namespace {
// A bulk application's data never ends; far below 2^64 so that sums cannot wrap.
constexpr std::uint64_t kUnbounded = std::uint64_t{1} << 62;
// A permit counts as there when the bucket is this close to one: the timer rounds
// its delay up to the picosecond, the bucket's arithmetic is in doubles.
constexpr double kPermitSlack = 1e-9;
}  // namespace

WccpSender::WccpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, WccpSenderConfig config)
    : scheduler_(scheduler),
      pool_(pool),
      network_(network),
      config_(std::move(config)),
      rtt_(config_.rto),
      rate_trace_(config_.trace_rate) {
  if (config_.mss == 0) throw std::invalid_argument("WCCP MSS must be at least one byte");
  if (config_.window_packets == 0) throw std::invalid_argument("WCCP window must be at least one segment");
  if (!(config_.beta > 0.0)) throw std::invalid_argument("WCCP beta must be positive");
  if (config_.application == TcpApplication::finite && config_.finite_bytes == 0) {
    throw std::invalid_argument("a finite WCCP transfer needs at least one byte");
  }
  rwnd_ = std::uint64_t{config_.mss} * config_.window_packets;
  if (!config_.stop || *config_.stop > config_.start) {
    start_event_ = scheduler_.schedule_at(config_.start, [this] { open(); });
  }
  if (config_.stop) {
    stop_event_ = scheduler_.schedule_at(std::max(*config_.stop, config_.start), [this] { close_application(); });
  }
}

WccpSender::~WccpSender() {
  scheduler_.cancel(permit_timer_);
  scheduler_.cancel(timer_);
  scheduler_.cancel(start_event_);
  scheduler_.cancel(stop_event_);
}

void WccpSender::open() {
  open_ = true;
  if (config_.application == TcpApplication::bulk) data_end_ = kUnbounded;
  if (config_.application == TcpApplication::finite) data_end_ = config_.finite_bytes;
  permits_at_ = scheduler_.now();
  try_send();
}

void WccpSender::close_application() {
  // As TcpSender: what was not handed to the network is withdrawn, what was sent
  // is still delivered reliably.
  application_closed_ = true;
  data_end_ = std::min(data_end_, snd_max_);
  open_ = true;
  check_completion();
}

void WccpSender::write(std::uint64_t bytes) {
  if (application_closed_ || config_.application != TcpApplication::written) return;
  data_end_ += bytes;
  try_send();
}

std::uint32_t WccpSender::segment_length(std::uint64_t seq) const {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(config_.mss, data_end_ - seq));
}

bool WccpSender::can_send_new() const {
  return snd_nxt_ < data_end_ && snd_nxt_ + segment_length(snd_nxt_) <= snd_una_ + rwnd_;
}

Time WccpSender::control_interval() const {
  if (!(rate_ > 0.0)) return Time::zero();  // Sec. III-E: T_c = 0 until the first ACK
  // Eq. 15: T_c = max(srtt, beta / r_p).
  const Time paced = Time::from_seconds(config_.beta / rate_);
  return rtt_.has_sample() ? std::max(rtt_.srtt(), paced) : paced;
}

double WccpSender::rate_floor() const { return 1.0 / rtt_.rto().to_seconds(); }

void WccpSender::refill_permits() {
  const Time now = scheduler_.now();
  if (rate_ > 0.0) permits_ = std::min(1.0, permits_ + rate_ * (now - permits_at_).to_seconds());
  permits_at_ = now;
}

void WccpSender::set_rate(double rate) {
  refill_permits();  // the permits so far accrued at the old rate
  const double floor = rate_floor();
  if (rate < floor) {
    rate = floor;
    ++stats_.rate_floor_hits;
  }
  if (rate == rate_) return;
  rate_ = rate;
  rate_trace_.record(scheduler_.now(), rate_);
  if (scheduler_.is_pending(permit_timer_)) schedule_permit();
}

void WccpSender::schedule_permit() {
  scheduler_.cancel(permit_timer_);
  // The next permit, rounded up to the picosecond.
  const double wait_ps = std::ceil((1.0 - permits_) / rate_ * 1e12);
  const Time wait = Time::ps(std::max<std::int64_t>(1, static_cast<std::int64_t>(wait_ps)));
  permit_timer_ = scheduler_.schedule_in(wait, [this] { try_send(); });
}

void WccpSender::try_send() {
  if (!open_) return;
  if (!(rate_ > 0.0)) {
    // Sec. III-E start-up: the first packet goes at once, the rest wait for the
    // first ACK (or a timeout) to give the bucket a rate.
    if (snd_max_ == 0 && can_send_new()) send_segment(snd_nxt_);
    return;
  }
  refill_permits();
  if (snd_una_ == snd_max_) retransmit_ = false;
  while (permits_ + kPermitSlack >= 1.0) {
    if (retransmit_) {
      // Sec. III-E: "the retransmitted packets will be transmitted when the next
      // permit arrives, no matter whether there are any other packets in the window".
      retransmit_ = false;
      send_segment(snd_una_);
    } else if (can_send_new()) {
      send_segment(snd_nxt_);
    } else {
      break;
    }
    permits_ = std::max(0.0, permits_ - 1.0);
  }
  if (retransmit_ || can_send_new()) {
    if (permits_ + kPermitSlack < 1.0) schedule_permit();
  } else {
    scheduler_.cancel(permit_timer_);
  }
}

void WccpSender::send_segment(std::uint64_t seq) {
  const Time now = scheduler_.now();
  const std::uint32_t length = segment_length(seq);
  const bool retransmission = seq < snd_max_;
  if (seq == snd_nxt_) snd_nxt_ += length;
  snd_max_ = std::max(snd_max_, seq + length);
  ++stats_.segments_sent;
  if (retransmission) {
    ++stats_.retransmissions;
    timing_ = false;  // Karn's rule (RFC 6298 3)
  } else if (!timing_) {
    timing_ = true;
    timed_end_ = seq + length;
    timed_sent_at_ = now;
  }
  if (!scheduler_.is_pending(timer_)) restart_timer();  // RFC 6298 5.1

  CongestionHeader h;
  h.rate_pps = rate_;
  h.control_interval = control_interval();
  // Sec. III-E: fb starts at what would take the sender to its desired rate after
  // one T_c, spread over the r_p T_c packets of that interval.
  const double tc = h.control_interval.to_seconds();
  h.feedback_pps = rate_ > 0.0 && tc > 0.0 && std::isfinite(config_.desired_rate_pps)
                       ? (config_.desired_rate_pps - rate_) / (rate_ * tc)
                       : std::numeric_limits<double>::infinity();
  h.sent_at = now;

  PacketPtr p = pool_.make(now);
  p->src = config_.address.src;
  p->dst = config_.address.dst;
  p->flow = config_.address.flow;
  p->size_bytes = kTcpIpHeaderBytes + kCongestionHeaderBytes + length;
  p->user_priority = config_.user_priority;
  p->transport.seq = seq;
  p->transport.payload_bytes = length;
  p->transport.retransmitted = retransmission;
  p->transport.set_congestion(h);
  network_.receive(std::move(p));
}

void WccpSender::restart_timer() {
  scheduler_.cancel(timer_);
  timer_ = scheduler_.schedule_in(rtt_.rto(), [this] { on_timeout(); });
}

void WccpSender::receive(PacketPtr packet) {
  const TransportHeader& t = packet->transport;
  if (!t.ack_valid) return;
  ++stats_.acks_received;
  const std::uint64_t ack = t.ack;
  if (ack > snd_max_) return;  // acknowledges bytes never sent
  if (t.window_bytes > 0) rwnd_ = t.window_bytes;
  const bool new_ack = ack > snd_una_;
  if (new_ack && timing_ && ack >= timed_end_) {
    rtt_.add_sample(scheduler_.now() - timed_sent_at_);  // RFC 6298 with Karn's rule
    timing_ = false;
  }

  if (!(rate_ > 0.0)) {
    // Sec. III-E: "When the first ACK returns, the sender sets r_p = 1/srtt ... and
    // sends out the second data packet" (its feedback is not used).
    set_rate(rtt_.has_sample() ? 1.0 / rtt_.srtt().to_seconds() : rate_floor());
    permits_ = 1.0;
  } else if (t.has_congestion) {
    const CongestionHeader& h = t.congestion();
    if (last_timeout_ && h.sent_at < *last_timeout_) {
      // Sec. III-E: feedback computed before the timeout is outdated.
      ++stats_.feedback_ignored;
    } else if (std::isfinite(h.feedback_pps)) {
      ++stats_.feedback_applied;
      set_rate(rate_ + h.feedback_pps);  // Eq. 14
    }
  }

  if (new_ack) {
    snd_una_ = ack;
    snd_nxt_ = std::max(snd_nxt_, snd_una_);
    dupacks_ = 0;
    backed_off_ = false;
    if (recovering_) {
      if (ack >= recover_) {
        recovering_ = false;
      } else if (config_.fast_retransmit) {
        // RFC 6582 3.2 step 3's partial ACK: the next hole.
        retransmit_ = true;
        ++stats_.fast_retransmits;
      }
    }
    if (snd_una_ == snd_max_) {
      scheduler_.cancel(timer_);  // RFC 6298 5.2
      retransmit_ = false;
    } else {
      restart_timer();  // RFC 6298 5.3
    }
    check_completion();
  } else if (ack == snd_una_ && snd_max_ > snd_una_ && t.payload_bytes == 0) {
    // RFC 5681 3.2: the third duplicate ACK signals a loss.
    if (++dupacks_ == 3 && config_.fast_retransmit && !recovering_) {
      recovering_ = true;
      recover_ = snd_max_;
      retransmit_ = true;
      ++stats_.fast_retransmits;
    }
  }
  try_send();
}

void WccpSender::on_timeout() {
  if (snd_una_ == snd_max_) return;
  const Time now = scheduler_.now();
  ++stats_.timeouts;
  last_timeout_ = now;
  if (!backed_off_) {
    // Sec. III-E, first timeout: double the timer and reset r_p = 1/RTO.
    // Back-to-back ones before a new ACK do neither.
    backed_off_ = true;
    rtt_.back_off();
    set_rate(1.0 / rtt_.rto().to_seconds());
  }
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "wccp flow {}: retransmission timeout, RTO {:.6f}s, r_p {:.3f}/s, resending byte {}",
             config_.address.flow, rtt_.rto().to_seconds(), rate_, snd_una_);
  recovering_ = true;
  recover_ = snd_max_;
  dupacks_ = 0;
  timing_ = false;
  retransmit_ = false;
  // "the WCCP sender retransmits the corresponding packet": at once, with the
  // permit the timeout stands for; the bucket starts over empty.
  refill_permits();
  permits_ = 0.0;
  send_segment(snd_una_);
  restart_timer();
  try_send();
}

void WccpSender::check_completion() {
  if (stats_.completed_at) return;
  const bool no_more_data = application_closed_ || config_.application == TcpApplication::finite;
  if (open_ && no_more_data && snd_una_ >= data_end_) {
    stats_.completed_at = scheduler_.now();
    scheduler_.cancel(timer_);
    scheduler_.cancel(permit_timer_);
  }
}

}  // namespace wmnsim::transport
