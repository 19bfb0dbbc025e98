#include "link/wired_link.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace wmnsim {

WiredLink::WiredLink(Scheduler& scheduler, double rate_bps, Time delay, QueueLimit queue, PacketSink& far_end,
                     DropSink& drops)
    : scheduler_(scheduler), rate_bps_(rate_bps), delay_(delay), limit_(queue), far_end_(far_end), drops_(drops) {
  if (!(rate_bps_ > 0.0) || !std::isfinite(rate_bps_)) {
    throw std::invalid_argument("wired link rate must be positive, got " + std::to_string(rate_bps_));
  }
  if (delay_ < Time::zero()) throw std::invalid_argument("wired link delay must not be negative");
  if (limit_.capacity < 1) {
    throw std::invalid_argument("wired link queue capacity must be at least 1, got " +
                                std::to_string(limit_.capacity));
  }
}

WiredLink::~WiredLink() {
  // The scheduler may outlive the link: its events must not call into freed memory.
  scheduler_.cancel(transmission_end_);
  scheduler_.cancel(next_arrival_);
}

Time WiredLink::serialization_time(std::uint32_t size_bytes) const {
  const double bits = static_cast<double>(size_bytes) * 8.0;
  return Time::ps(std::llround(bits * 1e12 / rate_bps_));
}

bool WiredLink::fits(const Packet& packet) const {
  if (limit_.unit == QueueLimit::Unit::packets) {
    return static_cast<std::int64_t>(queue_.size()) < limit_.capacity;
  }
  return queue_bytes_ + static_cast<std::int64_t>(packet.size_bytes) <= limit_.capacity;
}

void WiredLink::receive(PacketPtr packet) {
  ++counters_.received_packets;
  if (!serializing_) {
    start_transmission(std::move(packet));
    return;
  }
  if (!fits(*packet)) {
    ++counters_.dropped_packets;
    counters_.dropped_bytes += packet->size_bytes;
    drops_.on_drop(std::move(packet), DropCause::queue_overflow, scheduler_.now());
    return;
  }
  queue_bytes_ += packet->size_bytes;
  queue_.push_back(std::move(packet));
  if (queue_.size() > counters_.peak_queue_packets) counters_.peak_queue_packets = queue_.size();
}

void WiredLink::start_transmission(PacketPtr packet) {
  const Time duration = serialization_time(packet->size_bytes);
  counters_.busy_time += duration;
  serializing_ = std::move(packet);
  transmission_end_ = scheduler_.schedule_in(duration, [this] { on_transmission_end(); });
}

void WiredLink::on_transmission_end() {
  const Time now = scheduler_.now();
  ++counters_.transmitted_packets;
  counters_.transmitted_bytes += serializing_->size_bytes;
  // A copy for the listener, told last: it may hand the link a packet at once.
  const std::optional<Packet> departed = departures_ != nullptr ? std::optional<Packet>(*serializing_) : std::nullopt;
  on_wire_.push_back(Propagating{std::move(serializing_), now + delay_});
  // Only the oldest packet on the wire has an arrival event; later ones are
  // scheduled as it arrives.
  if (on_wire_.size() == 1) next_arrival_ = scheduler_.schedule_at(now + delay_, [this] { on_arrival(); });
  if (!queue_.empty()) {
    PacketPtr next = queue_.pop_front();
    queue_bytes_ -= next->size_bytes;
    start_transmission(std::move(next));
  }
  if (departed) departures_->on_departure(*departed);
}

void WiredLink::on_arrival() {
  PacketPtr packet = std::move(on_wire_.front().packet);
  on_wire_.pop_front();
  if (!on_wire_.empty()) next_arrival_ = scheduler_.schedule_at(on_wire_.front().arrival, [this] { on_arrival(); });
  ++counters_.delivered_packets;
  counters_.delivered_bytes += packet->size_bytes;
  // Last: the far end may send straight back through another link (an ACK).
  far_end_.receive(std::move(packet));
}

}  // namespace wmnsim
