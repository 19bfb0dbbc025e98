#include "link/wired_link.hpp"

#include "link/drop_tail_queue.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace wmnsim::link {

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
  queue_ = std::make_unique<DropTailQueue>(limit_, drops_);
  queue_->set_ready_listener(this);
}

WiredLink::~WiredLink() {
  // The scheduler may outlive the link: its events must not call into freed memory.
  scheduler_.cancel(transmission_end_);
  scheduler_.cancel(next_arrival_);
  scheduler_.cancel(queue_wakeup_);
}

void WiredLink::set_queue(std::unique_ptr<QueueDiscipline> queue) {
  if (!queue) throw std::invalid_argument("WiredLink::set_queue: no queue discipline");
  if (in_queue_call_) throw std::logic_error("WiredLink::set_queue from inside its queue discipline");
  const Time now = scheduler_.now();
  queue_->set_ready_listener(nullptr);  // the old queue's drain must not serve the link
  while (PacketPtr p = queue_->dequeue(now)) queue->enqueue(std::move(p), now);
  queue_ = std::move(queue);
  queue_->set_ready_listener(this);
  // The fast path of receive() is drop tail's own behaviour; any other discipline
  // sees every packet (a shaper must, to hold it back).
  drop_tail_ = dynamic_cast<const DropTailQueue*>(queue_.get()) != nullptr;
  scheduler_.cancel(queue_wakeup_);
  serve_queue();
}

Time WiredLink::serialization_time(std::uint32_t size_bytes) const {
  const double bits = static_cast<double>(size_bytes) * 8.0;
  return Time::ps(std::llround(bits * 1e12 / rate_bps_));
}

void WiredLink::receive(PacketPtr packet) {
  ++counters_.received_packets;
  const Time now = scheduler_.now();
  if (drop_tail_ && !serializing_ && queue_->empty()) {
    start_transmission(std::move(packet));
    return;
  }
  const std::uint32_t bytes = packet->size_bytes;
  in_queue_call_ = true;
  const bool accepted = queue_->enqueue(std::move(packet), now).is_accepted();
  in_queue_call_ = false;
  if (!accepted) {
    ++counters_.dropped_packets;
    counters_.dropped_bytes += bytes;
    return;
  }
  counters_.peak_queue_packets = std::max(counters_.peak_queue_packets, queue_->length_packets());
  serve_queue();
}

void WiredLink::serve_queue() {
  if (serializing_ || queue_->empty()) return;
  const Time now = scheduler_.now();
  in_queue_call_ = true;
  PacketPtr next = queue_->dequeue(now);
  in_queue_call_ = false;
  if (next) {
    start_transmission(std::move(next));
    return;
  }
  const Time ready = std::max(queue_->ready_at(now), now);
  if (ready == Time::max()) return;
  // One wake-up, at the earliest time the discipline has named.
  if (scheduler_.is_pending(queue_wakeup_)) {
    if (queue_wakeup_at_ <= ready) return;
    scheduler_.cancel(queue_wakeup_);
  }
  queue_wakeup_at_ = ready;
  queue_wakeup_ = scheduler_.schedule_at(ready, [this] { serve_queue(); });
}

void WiredLink::start_transmission(PacketPtr packet) {
  if (wire_observer_ != nullptr) wire_observer_->on_serialization_start(*packet, scheduler_.now());
  const Time duration = serialization_time(packet->size_bytes);
  counters_.busy_time += duration;
  serializing_ = std::move(packet);
  transmission_end_ = scheduler_.schedule_in(duration, [this] { on_transmission_end(); });
}

void WiredLink::on_transmission_end() {
  const Time now = scheduler_.now();
  ++counters_.transmitted_packets;
  counters_.transmitted_bytes += serializing_->size_bytes;
  // A copy for the listeners, told last: they may hand the link a packet at once.
  const std::optional<Packet> departed = departures_.empty() ? std::nullopt : std::optional<Packet>(*serializing_);
  on_wire_.push_back(Propagating{std::move(serializing_), now + delay_});
  // Only the oldest packet on the wire has an arrival event; later ones are
  // scheduled as it arrives.
  if (on_wire_.size() == 1) next_arrival_ = scheduler_.schedule_at(now + delay_, [this] { on_arrival(); });
  serve_queue();
  if (departed) departures_.tell([&](DepartureListener& l) { l.on_departure(*departed); });
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

}  // namespace wmnsim::link
