#pragma once
// One direction of a wired point-to-point link (a gateway's uplink to an Internet
// host in all five papers; the test bed of the TCP tests).
//
// A packet handed to receive() waits in the link's queue discipline (drop-tail by
// default, link/queue_discipline.hpp; any other discipline with set_queue()), is
// serialized at rate_bps (size_bytes * 8 / rate_bps), propagates for `delay`, and
// is then handed to the far end's PacketSink. The queue holds packets waiting for
// the wire, not the one being serialized (as ns-2's and ns-3's interface queues
// count). A packet the queue drops goes to the DropSink with the queue's cause.
// Under the link's own drop-tail queue, a packet arriving at an idle link with an
// empty queue goes to the wire at once (a drop-tail FIFO would hand it straight
// back); any other discipline sees every packet. A shaping discipline that holds
// its head back is served again at its ready_at(), or earlier when it calls
// notify_ready().
//
// Cost: O(1) per packet; at most two pending events per direction (the end of the
// current serialization and the arrival of the oldest packet on the wire), as
// htsim's pipe schedules only its head packet (STYLE.md 5), and a third, the
// wake-up, while a shaping discipline holds its head.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/node.hpp"  // NetInterface, DepartureListener
#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_limit.hpp"
#include "link/ring.hpp"
#include "core/scheduler.hpp"
#include "core/subscriber_list.hpp"
#include "core/time.hpp"

namespace wmnsim::link {


struct WiredLinkCounters {
  std::uint64_t received_packets = 0;   // offered to receive()
  std::uint64_t dropped_packets = 0;    // arrivals the discipline refused (its own push-outs: queue().counters())
  std::uint64_t dropped_bytes = 0;
  std::uint64_t transmitted_packets = 0;  // serialization finished
  std::uint64_t transmitted_bytes = 0;
  std::uint64_t delivered_packets = 0;  // handed to the far end
  std::uint64_t delivered_bytes = 0;
  std::size_t peak_queue_packets = 0;
  Time busy_time;  // total serialization time, for utilisation
};

// Told as each packet starts its serialization, before anything else happens on
// the link; it only reads (the pcap trace's tap, runner/run_scenario.cpp).
class WireObserver {
 public:
  virtual ~WireObserver() = default;
  virtual void on_serialization_start(const Packet& packet, Time start) = 0;
};

class WiredLink final : public PacketSink, private QueueReadyListener {
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
  // state is consistent, so a listener may hand the link a packet at once. Any
  // number, told in the order they subscribed; not from inside a listener's call
  // (std::logic_error, core/subscriber_list.hpp).
  using DepartureListener = wmnsim::DepartureListener;  // core/node.hpp
  void subscribe_departures(DepartureListener& listener) { departures_.subscribe(listener); }
  void unsubscribe_departures(DepartureListener& listener) { departures_.unsubscribe(listener); }

  // Installs another queue discipline (its DropSink should be this link's); queued
  // packets move over in order (the new discipline may drop some).
  void set_queue(std::unique_ptr<QueueDiscipline> queue);
  const QueueDiscipline& queue() const { return *queue_; }

  // Takes the packet onto the link: onto the wire at once if idle, else queued.
  void receive(PacketPtr packet) override;

  // One observer at most (null: none): one null test per packet serialized.
  void set_wire_observer(WireObserver* observer) { wire_observer_ = observer; }

  // Exact to the picosecond: round(size_bytes * 8 * 1e12 / rate_bps).
  Time serialization_time(std::uint32_t size_bytes) const;

  double rate_bps() const { return rate_bps_; }
  Time delay() const { return delay_; }
  std::size_t queue_packets() const { return queue_->length_packets(); }  // waiting, not on the wire
  std::int64_t queue_bytes() const { return queue_->length_bytes(); }
  // Packets serializing or propagating (every packet is delivered, dropped, queued
  // or here).
  std::size_t in_flight_packets() const { return (serializing_ ? 1 : 0) + on_wire_.size(); }
  const WiredLinkCounters& counters() const { return counters_; }

 private:
  struct Propagating {
    PacketPtr packet;
    Time arrival;
  };

  void start_transmission(PacketPtr packet);
  // Sends the queue's next packet if the wire is free and the queue has one ready;
  // if the queue holds its head back, comes back at its ready_at().
  void serve_queue();
  // From the discipline's notify_ready(). Ignored while the link is inside one of
  // the discipline's own calls: receive() serves the queue after enqueue, and
  // serve_queue() asks ready_at() after a dequeue that gave nothing.
  void on_queue_ready(QueueDiscipline& /*queue*/) override {
    if (!in_queue_call_) serve_queue();
  }
  void on_transmission_end();
  void on_arrival();

  Scheduler& scheduler_;
  double rate_bps_;
  Time delay_;
  QueueLimit limit_;
  PacketSink& far_end_;
  DropSink& drops_;
  SubscriberList<DepartureListener> departures_;
  WireObserver* wire_observer_ = nullptr;

  std::unique_ptr<QueueDiscipline> queue_;
  // queue_ is a DropTailQueue: an arrival at an idle link with an empty queue skips
  // it (a drop-tail FIFO would hand it straight back; its observer, if any, does
  // not see it pass).
  bool drop_tail_ = true;
  bool in_queue_call_ = false;  // inside queue_->enqueue() or dequeue()
  EventId queue_wakeup_;
  Time queue_wakeup_at_;
  PacketPtr serializing_;
  EventId transmission_end_;
  Ring<Propagating> on_wire_;  // arrival times increase along the ring
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

}  // namespace wmnsim::link
