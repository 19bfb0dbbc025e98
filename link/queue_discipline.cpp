#include "link/queue_discipline.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace wmnsim::link {


// Inlined into enqueue(), dequeue() and drop_expired() (its only callers, all here),
// which keep their operands live anyway: a queue nobody observes (nearly all of
// them) pays for its peaks and the test of an empty list, no call.
[[gnu::always_inline]] inline void QueueDiscipline::after_change(Time now, std::size_t packets_before,
                                                                 std::int64_t bytes_before, const Packet* departed) {
  const std::size_t packets = length_packets();
  const std::int64_t bytes = length_bytes();
  if (packets != 0 || bytes != 0) {  // an empty queue moves no peak: no counters needed
    QueueCounters& c = tally();
    c.peak_packets = std::max(c.peak_packets, packets);
    c.peak_bytes = std::max(c.peak_bytes, bytes);
  }
  if (!observers_.empty()) {
    tell_observers(now, packets, bytes, packets != packets_before || bytes != bytes_before, departed);
  }
}

// Out of line: only observed queues come here. One observer (004's controller on its
// mesh buffer) is told without the loops; several in the order they subscribed,
// every departure call before any length call, as one observer is.
void QueueDiscipline::tell_observers(Time now, std::size_t packets, std::int64_t bytes, bool changed,
                                     const Packet* departed) {
  if (departed != nullptr) observers_.tell([&](QueueObserver& o) { o.on_departure(now, *departed); });
  if (changed) observers_.tell([&](QueueObserver& o) { o.on_queue_length(now, packets, bytes); });
}

const QueueCounters& QueueDiscipline::no_counters() {
  static const QueueCounters zeros;
  return zeros;
}

std::uint64_t QueueCounters::dropped_total() const {
  return std::accumulate(dropped_packets.begin(), dropped_packets.end(), std::uint64_t{0});
}

EnqueueResult QueueDiscipline::enqueue(PacketPtr packet, Time now) {
  if (!packet) throw std::logic_error("QueueDiscipline::enqueue: null packet");
  const std::size_t packets_before = length_packets();
  const std::int64_t bytes_before = length_bytes();
  const std::uint32_t size = packet->size_bytes;

  const EnqueueResult result = do_enqueue(packet, now);
  if (result.is_accepted()) {
    if (packet) throw std::logic_error("queue discipline accepted a packet but did not take it");
    QueueCounters& c = tally();
    ++c.enqueued_packets;
    c.enqueued_bytes += size;
  } else {
    if (!packet) throw std::logic_error("queue discipline dropped a packet it no longer holds");
    drop(std::move(packet), result.cause(), now);
  }
  after_change(now, packets_before, bytes_before);
  return result;
}

PacketPtr QueueDiscipline::dequeue(Time now) {
  const std::size_t packets_before = length_packets();
  const std::int64_t bytes_before = length_bytes();
  PacketPtr packet = do_dequeue(now);
  if (packet) {
    QueueCounters& c = tally();
    ++c.dequeued_packets;
    c.dequeued_bytes += packet->size_bytes;
  }
  after_change(now, packets_before, bytes_before, packet.get());
  return packet;
}

std::size_t QueueDiscipline::drop_expired(Time now, Time lifetime) {
  std::size_t dropped = 0;
  for (const Packet* head = peek_at(now); head != nullptr && now - head->queued_at > lifetime; head = peek_at(now)) {
    const std::size_t packets_before = length_packets();
    const std::int64_t bytes_before = length_bytes();
    PacketPtr packet = do_dequeue(now);
    if (!packet) break;  // a shaping discipline holds it back: not taken, not dropped
    after_change(now, packets_before, bytes_before);
    drop(std::move(packet), DropCause::lifetime_expired, now);
    ++dropped;
  }
  return dropped;
}

void QueueDiscipline::drop(PacketPtr packet, DropCause cause, Time now) {
  QueueCounters& c = tally();
  ++c.dropped_packets[static_cast<std::size_t>(cause)];
  c.dropped_bytes += packet->size_bytes;
  drops_.on_drop(std::move(packet), cause, now);
}

}  // namespace wmnsim::link
