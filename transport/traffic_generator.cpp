#include "transport/traffic_generator.hpp"

#include <stdexcept>
#include <utility>

namespace wmnsim::transport {

namespace {
Time interval_of(const TrafficConfig& traffic, std::uint32_t message_bytes) {
  if (traffic.packet_interval > Time::zero()) return traffic.packet_interval;
  if (traffic.rate_bps > 0.0) return Time::from_seconds(static_cast<double>(message_bytes) * 8.0 / traffic.rate_bps);
  throw std::invalid_argument("traffic needs a positive packet interval or rate");
}
}  // namespace

TrafficGenerator::TrafficGenerator(Scheduler& scheduler, Consumer& consumer, const TrafficConfig& traffic,
                                   std::uint32_t message_bytes, Time start, std::optional<Time> stop,
                                   RandomStream arrivals)
    : scheduler_(scheduler),
      consumer_(consumer),
      traffic_(traffic),
      message_bytes_(message_bytes),
      stop_(stop),
      rng_(std::move(arrivals)) {
  if (traffic_.type == TrafficType::saturated) {
    throw std::invalid_argument("saturated traffic has no arrival times: use UdpSource::pull or a bulk TCP transfer");
  }
  interval_ = interval_of(traffic_, message_bytes_);
  if (traffic_.type == TrafficType::on_off && (traffic_.on_mean <= Time::zero() || traffic_.off_mean <= Time::zero())) {
    throw std::invalid_argument("on-off traffic needs positive on and off periods");
  }
  if (traffic_.type == TrafficType::cbr && traffic_.phase > 0.0) {
    start += Time::from_seconds(interval_.to_seconds() * traffic_.phase);  // docs/scenario.md, traffic.phase
  }
  if (traffic_.jitter < Time::zero() || (traffic_.jitter > Time::zero() && traffic_.type != TrafficType::cbr)) {
    throw std::invalid_argument("a traffic jitter is for cbr traffic only, and not negative");
  }
  if (traffic_.jitter > Time::zero()) {
    if (!stopped(start)) schedule_cbr(start);
    return;
  }
  if (!stopped(start)) next_ = scheduler_.schedule_at(start, [this] { on_start(); });
}

void TrafficGenerator::schedule_cbr(Time nominal) {
  // Without a jitter this path is not taken: no draw, so the stream is as it was.
  nominal_ = nominal;
  const Time offset = Time::from_seconds(rng_.uniform01() * traffic_.jitter.to_seconds());
  next_ = scheduler_.schedule_at(nominal + offset, [this] { on_message_due(); });
}

TrafficGenerator::~TrafficGenerator() { scheduler_.cancel(next_); }

Time TrafficGenerator::draw_period(Time mean) {
  if (traffic_.periods == PeriodDistribution::constant) return mean;
  return Time::from_seconds(rng_.exponential(mean.to_seconds()));
}

void TrafficGenerator::on_start() {
  switch (traffic_.type) {
    case TrafficType::cbr:
      on_message_due();
      break;
    case TrafficType::poisson:
      next_ = scheduler_.schedule_in(Time::from_seconds(rng_.exponential(interval_.to_seconds())),
                                     [this] { on_message_due(); });
      break;
    case TrafficType::on_off:
      begin_on_period();
      break;
    case TrafficType::saturated:
      break;  // rejected in the constructor
  }
}

void TrafficGenerator::begin_on_period() {
  const Time now = scheduler_.now();
  if (stopped(now)) return;
  const Time length = draw_period(traffic_.on_mean);
  on_end_ = now + length;
  ++on_periods_;
  on_time_ += length;
  on_message_due();
}

void TrafficGenerator::on_message_due() {
  const Time now = scheduler_.now();
  if (stopped(now)) return;
  if (traffic_.type == TrafficType::on_off && now >= on_end_) {
    // The on period ended before this message: go quiet for an off period.
    next_ = scheduler_.schedule_at(on_end_ + draw_period(traffic_.off_mean), [this] { begin_on_period(); });
    return;
  }
  ++messages_;
  consumer_.on_application_data(message_bytes_);
  if (traffic_.jitter > Time::zero()) {
    // The next message's nominal time follows this one's, not its jittered time: no drift.
    if (!stopped(nominal_ + interval_)) schedule_cbr(nominal_ + interval_);
    return;
  }
  Time next = now + interval_;
  if (traffic_.type == TrafficType::poisson) next = now + Time::from_seconds(rng_.exponential(interval_.to_seconds()));
  if (traffic_.type == TrafficType::on_off && next >= on_end_) {
    // Wake at the period's end, not at the next message, so the off period starts on time.
    next_ = scheduler_.schedule_at(on_end_, [this] { on_message_due(); });
    return;
  }
  next_ = scheduler_.schedule_at(next, [this] { on_message_due(); });
}

}  // namespace wmnsim::transport
