#pragma once
// Per-class FIFOs served by deficit round robin (M. Shreedhar, G. Varghese,
// "Efficient fair queueing using deficit round robin", SIGCOMM 1995): the store
// behind the `fq` discipline and the aggregate shaper with fair queueing inside
// (001 Sec. 4.3.2, Fig. 2b). Each backlogged class, in turn, adds `quantum` bytes
// to its deficit and sends head packets while they fit in it; a class that empties
// leaves the round with its deficit cleared. With a quantum of at least the largest
// packet every turn sends at least one packet, so a dequeue costs O(1).
//
// front() and pop() agree: choosing the next class (adding quanta, rotating) is
// what pop() would do anyway, so front() does it once and remembers the choice; an
// arrival never changes a choice already made (a new class joins at the tail).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "core/packet.hpp"
#include "link/packet_fifo.hpp"

namespace wmnsim::link {

class DeficitRoundRobin {
 public:
  // Throws std::invalid_argument for a quantum or class capacity below 1.
  DeficitRoundRobin(std::int64_t quantum_bytes, std::size_t class_capacity_packets);

  // Appends `packet` (moving it out) to class `cls`'s FIFO, or returns false and
  // leaves it in place when that FIFO holds class_capacity_packets already.
  bool push(PacketPtr& packet, std::uint32_t cls);
  // The packet pop() returns next, or null when empty.
  const Packet* front() const;
  // The class of front()'s packet (only when not empty).
  std::uint32_t front_class() const;
  PacketPtr pop();

  std::size_t size() const { return packets_; }
  bool empty() const { return packets_ == 0; }
  std::int64_t bytes() const { return bytes_; }
  std::size_t class_length(std::uint32_t cls) const;

 private:
  struct Class {
    std::uint32_t id;
    PacketFifo fifo;
    std::int64_t deficit = 0;
    bool in_round = false;  // backlogged: in active_
    bool has_turn = false;  // its quantum for the current turn is added
  };
  Class& class_for(std::uint32_t cls);
  void choose() const;  // makes active_.front() a class whose head fits its deficit

  std::int64_t quantum_;
  std::size_t class_capacity_;
  mutable std::vector<Class> classes_;
  std::unordered_map<std::uint32_t, std::uint32_t> slot_of_;  // class id -> index in classes_
  mutable std::deque<std::uint32_t> active_;                  // backlogged classes, in round order
  mutable bool chosen_ = false;
  std::size_t packets_ = 0;
  std::int64_t bytes_ = 0;
};

}  // namespace wmnsim::link
