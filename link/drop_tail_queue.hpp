#pragma once
// Drop-tail FIFO: the default queue discipline. An arriving packet that does not
// fit is dropped (queue_overflow); nothing already queued is ever dropped.
//
// Capacity in packets (default 50, the classic ns-2 interface queue) or in bytes
// (004 gives each mesh station 256 kB and each gateway 2 MB). In bytes, a packet
// fits if the queued bytes plus its own stay within the capacity.

#include <cstddef>
#include <cstdint>

#include "link/queue_limit.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_entry.hpp"

namespace wmnsim::link {

class DropTailQueue final : public QueueDiscipline {
 public:
  // Throws std::invalid_argument for a capacity below 1.
  DropTailQueue(QueueLimit limit, DropSink& drops, QueueObserver* observer = nullptr);

  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }
  QueueLimit limit() const {
    return QueueLimit{in_bytes_ ? QueueLimit::Unit::bytes : QueueLimit::Unit::packets, capacity_};
  }
  void hold_place(const Packet& in_service) override;
  void release_place(const Packet& in_service) override;
  // Places held by packets in service (hold_place), and their bytes.
  std::size_t held_packets() const { return held_packets_; }

 private:
  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override { return fifo_.front(); }

  bool fits(const Packet& packet) const;

  // The limit's two fields beside the held places, so that they share 16 bytes
  // (issue 43 §3, memory per node: a QueueLimit alone takes 16).
  PacketFifo fifo_;
  std::int64_t capacity_;
  std::uint32_t held_bytes_ = 0;     // an IP packet's size is far below 2^32
  std::uint16_t held_packets_ = 0;   // one frame in service per queue
  bool in_bytes_;                    // QueueLimit::Unit::bytes
};

// Its registry entry (link/queue_discipline_entry.hpp): no keys beyond the capacity.
QueueDisciplineEntry drop_tail_entry();

}  // namespace wmnsim::link
