#pragma once
// A TCP connection over two wired link directions, with a lossy pipe in front of
// the forward link that drops chosen data segments (by the order in which the
// sender offered them, or by a predicate), can hold the others back for a scripted
// extra delay, and logs every segment offered (with a handshake: the SYN, FIN and
// the sender's ACKs of the receiver's SYN and FIN too).
//
//   sender -> LossyPipe -> forward WiredLink -> receiver
//   sender <- reverse WiredLink <- receiver

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "link/wired_link.hpp"
#include "transport/tcp_receiver.hpp"
#include "transport/tcp_sender.hpp"

namespace wmnsim::transport::testing {

struct SegmentRecord {
  Time at;
  std::uint64_t seq;
  std::uint32_t payload_bytes;
  std::uint32_t size_bytes;
  bool retransmitted;
  bool dropped;
  std::uint64_t flight_bytes;  // the sender's FlightSize right after it sent this
  bool syn = false;
  bool fin = false;
  std::uint64_t ack = 0;  // the sender's ACK number (with a handshake: 1 once it acknowledges the receiver's FIN)
};

class LossyPipe final : public PacketSink {
 public:
  LossyPipe(Scheduler& scheduler, PacketSink& next) : scheduler_(scheduler), next_(next) {}
  ~LossyPipe() override {
    for (const EventId& e : pending_) scheduler_.cancel(e);
  }
  LossyPipe(const LossyPipe&) = delete;
  LossyPipe& operator=(const LossyPipe&) = delete;

  void receive(PacketPtr packet) override {
    const std::size_t index = log.size();
    const bool drop = drop_indices.count(index) > 0 || (drop_if && drop_if(*packet, index));
    log.push_back({scheduler_.now(), packet->transport.seq, packet->transport.payload_bytes, packet->size_bytes,
                   packet->transport.retransmitted, drop, flight ? flight() : 0, packet->transport.syn,
                   packet->transport.fin, packet->transport.ack});
    if (drop) return;
    const Time extra = extra_delay ? extra_delay(scheduler_.now()) : Time::zero();
    if (extra == Time::zero() && held_.empty()) {
      next_.receive(std::move(packet));
      return;
    }
    // Held back: first in, first out (a delay that falls with time cannot reorder).
    held_.push_back(std::move(packet));
    pending_.push_back(scheduler_.schedule_in(extra, [this] {
      pending_.pop_front();
      PacketPtr p = std::move(held_.front());
      held_.pop_front();
      next_.receive(std::move(p));
    }));
  }

  // Data segments with these indices (0: the first one offered) are dropped.
  std::set<std::size_t> drop_indices;
  std::function<bool(const Packet&, std::size_t index)> drop_if;
  std::function<std::uint64_t()> flight;  // sampled into the log
  // Extra one-way delay for a segment offered at `now` (none when unset).
  std::function<Time(Time now)> extra_delay;
  std::vector<SegmentRecord> log;

  std::vector<Time> times_of(std::uint64_t seq) const {
    std::vector<Time> out;
    for (const SegmentRecord& r : log) {
      if (r.seq == seq) out.push_back(r.at);
    }
    return out;
  }

 private:
  Scheduler& scheduler_;
  PacketSink& next_;
  std::deque<PacketPtr> held_;
  std::deque<EventId> pending_;
};

// Breaks the construction cycle sender -> ... -> reverse link -> sender.
class Forwarder final : public PacketSink {
 public:
  void receive(PacketPtr packet) override { target->receive(std::move(packet)); }
  PacketSink* target = nullptr;
};

class IgnoreDrops final : public link::WiredLink::DropSink {
 public:
  void on_drop(PacketPtr, DropCause, Time) override { ++count; }
  std::uint64_t count = 0;
};

struct LinkParams {
  double rate_bps = 10e6;
  Time delay = Time::ms(10);
  link::QueueLimit queue{link::QueueLimit::Unit::packets, 100};
};

inline TcpSenderConfig bulk_sender(TcpVariant variant = TcpVariant::newreno) {
  TcpSenderConfig c;
  c.address = FlowAddress{0, 1, 2};
  c.variant = variant;
  return c;
}

inline TcpSenderConfig finite_sender(std::uint64_t bytes, TcpVariant variant = TcpVariant::newreno) {
  TcpSenderConfig c = bulk_sender(variant);
  c.application = TcpApplication::finite;
  c.finite_bytes = bytes;
  return c;
}

inline TcpReceiverConfig receiver_for(const TcpSenderConfig& s) {
  TcpReceiverConfig c;
  c.address = s.address;
  c.mss = s.mss;
  c.window_packets = s.window_packets;
  return c;
}

struct TcpTestBed {
  TcpTestBed(TcpSenderConfig sender_config, TcpReceiverConfig receiver_config, LinkParams link = {})
      : reverse(scheduler, link.rate_bps, link.delay, link.queue, to_sender, link_drops),
        receiver(scheduler, pool, reverse, std::move(receiver_config)),
        forward(scheduler, link.rate_bps, link.delay, link.queue, receiver, link_drops),
        pipe(scheduler, forward),
        sender(scheduler, pool, pipe, std::move(sender_config)) {
    to_sender.target = &sender;
    pipe.flight = [this] { return sender.flight_size_bytes(); };
  }
  explicit TcpTestBed(TcpSenderConfig sender_config, LinkParams link = {})
      : TcpTestBed(sender_config, receiver_for(sender_config), link) {}

  PacketPool pool;  // first: outlives every packet
  Scheduler scheduler;
  IgnoreDrops link_drops;
  Forwarder to_sender;
  link::WiredLink reverse;
  TcpReceiver receiver;
  link::WiredLink forward;
  LossyPipe pipe;
  TcpSender sender;
};

}  // namespace wmnsim::transport::testing
