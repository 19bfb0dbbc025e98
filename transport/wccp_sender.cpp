#include "transport/wccp_sender.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/sim_log.hpp"
#include "transport/header_sizes.hpp"

namespace wmnsim::transport {

namespace {
// A permit counts as there when the bucket is this close to one: the timer rounds
// its delay up to the picosecond, the bucket's arithmetic is in doubles.
constexpr double kPermitSlack = 1e-9;

ReliableSenderConfig wccp_reliable_config(const WccpSenderConfig& c) {
  ReliableSenderConfig r;
  r.protocol = "WCCP";
  r.address = c.address;
  r.mss = c.mss;
  r.window_packets = c.window_packets;
  r.rto = c.rto;
  // 003 Sec. III-E: "back-to-back timeouts before a new ACK resend without doubling".
  r.backoff = RtoBackoff::first_of_back_to_back;
  r.application = c.application;
  r.finite_bytes = c.finite_bytes;
  r.start = c.start;
  r.stop = c.stop;
  r.user_priority = c.user_priority;
  r.handshake = c.handshake;
  // The shared checks first, then WCCP's own: the order of the messages before the split.
  check_reliable_sender_config(r);
  if (!(c.beta > 0.0)) throw std::invalid_argument("WCCP beta must be positive");
  return r;
}
}  // namespace

WccpSender::WccpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, WccpSenderConfig config)
    : scheduler_(scheduler),
      config_(std::move(config)),
      rate_trace_(config_.trace_rate),
      core_(scheduler, pool, network, *this, wccp_reliable_config(config_), stats_) {}

WccpSender::~WccpSender() { scheduler_.cancel(permit_timer_); }

void WccpSender::receive(PacketPtr packet) { core_.receive(packet->transport); }

void WccpSender::write(std::uint64_t bytes) { core_.write(bytes); }

void WccpSender::on_open() { permits_at_ = scheduler_.now(); }

void WccpSender::on_finished() { scheduler_.cancel(permit_timer_); }

bool WccpSender::can_send_new() const {
  const std::uint64_t nxt = core_.snd_nxt();
  return nxt < core_.data_end() && nxt + core_.segment_length(nxt) <= core_.window_end();
}

Time WccpSender::control_interval() const {
  if (!(rate_ > 0.0)) return Time::zero();  // Sec. III-E: T_c = 0 until the first ACK
  // Eq. 15: T_c = max(srtt, beta / r_p).
  const Time paced = Time::from_seconds(config_.beta / rate_);
  const RttEstimator& rtt = core_.rtt();
  return rtt.has_sample() ? std::max(rtt.srtt(), paced) : paced;
}

void WccpSender::refill_permits() {
  const Time now = scheduler_.now();
  if (rate_ > 0.0) permits_ = std::min(1.0, permits_ + rate_ * (now - permits_at_).to_seconds());
  permits_at_ = now;
}

void WccpSender::set_rate(double rate) {
  refill_permits();  // the permits so far accrued at the old rate
  const double floor = rto_rate();
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
  permit_timer_ = scheduler_.schedule_in(wait, [this] { transmit(); });
}

void WccpSender::transmit() {
  if (!core_.is_open()) return;
  if (!(rate_ > 0.0)) {
    // Sec. III-E start-up: the first packet goes at once, the rest wait for the
    // first ACK (or a timeout) to give the bucket a rate.
    if (core_.snd_max() == 0 && can_send_new()) send_segment(core_.snd_nxt());
    return;
  }
  refill_permits();
  if (core_.snd_una() == core_.snd_max()) retransmit_ = false;
  while (permits_ + kPermitSlack >= 1.0) {
    if (retransmit_) {
      // Sec. III-E: "the retransmitted packets will be transmitted when the next
      // permit arrives, no matter whether there are any other packets in the window".
      retransmit_ = false;
      send_segment(core_.snd_una());
    } else if (can_send_new()) {
      send_segment(core_.snd_nxt());
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

void WccpSender::on_segment(Packet& segment) {
  CongestionHeader h;
  h.rate_pps = rate_;
  h.control_interval = control_interval();
  // Sec. III-E: fb starts at what would take the sender to its desired rate after
  // one T_c, spread over the r_p T_c packets of that interval.
  const double tc = h.control_interval.to_seconds();
  h.feedback_pps = rate_ > 0.0 && tc > 0.0 && std::isfinite(config_.desired_rate_pps)
                       ? (config_.desired_rate_pps - rate_) / (rate_ * tc)
                       : std::numeric_limits<double>::infinity();
  h.sent_at = scheduler_.now();
  segment.size_bytes += kCongestionHeaderBytes;
  segment.transport.set_congestion(h);
}

void WccpSender::on_ack(const TransportHeader& t) {
  // The core took the RTT sample of this ACK already.
  if (!(rate_ > 0.0)) {
    // Sec. III-E: "When the first ACK returns, the sender sets r_p = 1/srtt ... and
    // sends out the second data packet" (its feedback is not used).
    const RttEstimator& rtt = core_.rtt();
    set_rate(rtt.has_sample() ? 1.0 / rtt.srtt().to_seconds() : rto_rate());
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
}

bool WccpSender::on_new_ack(std::uint64_t /*newly_acked*/) {
  if (recovering_) {
    if (core_.snd_una() >= recover_) {
      recovering_ = false;
    } else if (config_.fast_retransmit) {
      // RFC 6582 3.2 step 3's partial ACK: the next hole.
      retransmit_ = true;
      ++stats_.fast_retransmits;
    }
  }
  if (core_.snd_una() == core_.snd_max()) retransmit_ = false;
  return true;  // RFC 6298 5.3 on every new ACK
}

void WccpSender::on_duplicate_ack() {
  // RFC 5681 3.2: the third duplicate ACK signals a loss.
  if (core_.duplicate_acks() == 3 && config_.fast_retransmit && !recovering_) {
    recovering_ = true;
    recover_ = core_.snd_max();
    retransmit_ = true;
    ++stats_.fast_retransmits;
  }
}

double WccpSender::timeout_restart_rate() const {
  const RttEstimator& rtt = core_.rtt();
  if (config_.timeout_restart == WccpTimeoutRestart::srtt && rtt.has_sample()) {
    // Ours: restart from 003's start-up rate (r_p = 1/srtt at the first ACK), not
    // from the backed-off timer; a restart, so never above the rate before the
    // timeout (a flow the network throttled below 1/srtt keeps its r_p). set_rate
    // still holds r_p >= 1/RTO.
    return std::min(rate_, 1.0 / rtt.srtt().to_seconds());
  }
  // 003's rule, and "srtt" before any RTT sample (a timeout of the first packet).
  return rto_rate();  // 003 Sec. III-E: r_p = 1/RTO, the doubled RTO
}

void WccpSender::on_timeout(Time /*rto_before*/, bool backed_off) {
  last_timeout_ = scheduler_.now();
  // Sec. III-E, first timeout: the core doubled the timer; reset r_p = 1/RTO (or,
  // with timeout_restart "srtt", 1/srtt). Back-to-back ones before a new ACK do
  // neither.
  if (backed_off) set_rate(timeout_restart_rate());
  WMNSIM_LOG(scheduler_.log(), spdlog::level::debug, config_.address.src,
             "wccp flow {}: retransmission timeout, RTO {:.6f}s, r_p {:.3f}/s, resending byte {}",
             config_.address.flow, core_.rtt().rto().to_seconds(), rate_, core_.snd_una());
  recovering_ = true;
  recover_ = core_.snd_max();
  retransmit_ = false;
  // "the WCCP sender retransmits the corresponding packet": the core resends it at
  // once, with the permit the timeout stands for; the bucket starts over empty.
  refill_permits();
  permits_ = 0.0;
}

}  // namespace wmnsim::transport
