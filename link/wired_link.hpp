#pragma once
// One direction of a wired point-to-point link (a gateway's uplink to an Internet
// host in all five papers; the test bed of the TCP tests).
//
// A packet handed to receive() waits in a drop-tail FIFO, is serialized at
// rate_bps (size_bytes * 8 / rate_bps), propagates for `delay`, and is then handed
// to the far end's PacketSink. The FIFO's capacity counts packets (or bytes)
// waiting for the wire, not the one being serialized (as ns-2's and ns-3's
// interface queues count). A packet that does not fit is dropped with
// DropCause::queue_overflow and handed to the DropSink.
//
// Cost: O(1) per packet; at most two pending events per direction (the end of the
// current serialization and the arrival of the oldest packet on the wire), as
// htsim's pipe schedules only its head packet (STYLE.md 5).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/node.hpp"  // NetInterface, DepartureListener
#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "link/queue_limit.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"

namespace wmnsim {

namespace detail {
// A FIFO on a ring buffer that grows (doubling) to the largest length seen and
// then never allocates again; std::deque would keep allocating as it slides.
template <typename T>
class Ring {
 public:
  void push_back(T value) {
    if (size_ == ring_.size()) grow();
    ring_[(head_ + size_) & (ring_.size() - 1)] = std::move(value);
    ++size_;
  }
  T pop_front() {
    T value = std::move(ring_[head_]);
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
    return value;
  }
  T& front() { return ring_[head_]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void grow() {
    std::vector<T> bigger(ring_.empty() ? 8 : ring_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(ring_[(head_ + i) & (ring_.size() - 1)]);
    ring_ = std::move(bigger);
    head_ = 0;
  }
  std::vector<T> ring_;  // size is 0 or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};
}  // namespace detail

struct WiredLinkCounters {
  std::uint64_t received_packets = 0;   // offered to receive()
  std::uint64_t dropped_packets = 0;    // queue_overflow
  std::uint64_t dropped_bytes = 0;
  std::uint64_t transmitted_packets = 0;  // serialization finished
  std::uint64_t transmitted_bytes = 0;
  std::uint64_t delivered_packets = 0;  // handed to the far end
  std::uint64_t delivered_bytes = 0;
  std::size_t peak_queue_packets = 0;
  Time busy_time;  // total serialization time, for utilisation
};

class WiredLink final : public PacketSink {
 public:
  // Receives every packet the link drops, with ownership (core/packet_sink.hpp).
  using DropSink = wmnsim::DropSink;

  // Throws std::invalid_argument for a non-positive rate, a negative delay or a
  // queue capacity below 1 (a capacity of 0 is not allowed: the packet on the wire
  // is not counted, so one waiting slot is the smallest useful queue).
  WiredLink(Scheduler& scheduler, double rate_bps, Time delay, QueueLimit queue, PacketSink& far_end,
            DropSink& drops);
  ~WiredLink() override;
  WiredLink(const WiredLink&) = delete;
  WiredLink& operator=(const WiredLink&) = delete;

  // Told when a packet has been serialized (it left the queue for the wire): a
  // saturated source behind the link refills here. Called last, when the link's
  // state is consistent, so the listener may hand the link a packet at once.
  using DepartureListener = wmnsim::DepartureListener;  // core/node.hpp
  void set_departure_listener(DepartureListener* listener) { departures_ = listener; }

  // Takes the packet onto the link: onto the wire at once if idle, else queued.
  void receive(PacketPtr packet) override;

  // Exact to the picosecond: round(size_bytes * 8 * 1e12 / rate_bps).
  Time serialization_time(std::uint32_t size_bytes) const;

  double rate_bps() const { return rate_bps_; }
  Time delay() const { return delay_; }
  std::size_t queue_packets() const { return queue_.size(); }  // waiting, not on the wire
  std::int64_t queue_bytes() const { return queue_bytes_; }
  // Packets serializing or propagating (every packet is delivered, dropped, queued
  // or here).
  std::size_t in_flight_packets() const { return (serializing_ ? 1 : 0) + on_wire_.size(); }
  const WiredLinkCounters& counters() const { return counters_; }

 private:
  struct Propagating {
    PacketPtr packet;
    Time arrival;
  };

  bool fits(const Packet& packet) const;
  void start_transmission(PacketPtr packet);
  void on_transmission_end();
  void on_arrival();

  Scheduler& scheduler_;
  double rate_bps_;
  Time delay_;
  QueueLimit limit_;
  PacketSink& far_end_;
  DropSink& drops_;
  DepartureListener* departures_ = nullptr;

  detail::Ring<PacketPtr> queue_;
  std::int64_t queue_bytes_ = 0;
  PacketPtr serializing_;
  EventId transmission_end_;
  detail::Ring<Propagating> on_wire_;  // arrival times increase along the ring
  EventId next_arrival_;
  WiredLinkCounters counters_;
};

// One end of a wired link as a node interface.
class WiredInterface final : public NetInterface {
 public:
  explicit WiredInterface(WiredLink& link) : link_(link) {}
  void send(PacketPtr packet, std::uint32_t /*address*/) override { link_.receive(std::move(packet)); }
  WiredLink& link() { return link_; }

 private:
  WiredLink& link_;
};

}  // namespace wmnsim
