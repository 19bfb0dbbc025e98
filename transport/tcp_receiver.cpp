#include "transport/tcp_receiver.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <stdexcept>

#include "transport/byte_ranges.hpp"
#include "transport/header_sizes.hpp"

namespace wmnsim::transport {

TcpReceiver::TcpReceiver(Scheduler& scheduler, PacketPool& pool, PacketSink& network, TcpReceiverConfig config)
    : scheduler_(scheduler), pool_(pool), network_(network), config_(std::move(config)) {
  if (config_.mss == 0) throw std::invalid_argument("TCP MSS must be at least one byte");
  if (config_.window_packets == 0) throw std::invalid_argument("TCP window must be at least one segment");
  out_of_order_.reserve(config_.window_packets);
  if (config_.sack) sack_blocks_.reserve(kMaxSackBlocks);
}

TcpReceiver::~TcpReceiver() { scheduler_.cancel(delayed_ack_); }

void TcpReceiver::deliver_up_to(std::uint64_t end) {
  const std::uint64_t bytes = end - rcv_nxt_;
  rcv_nxt_ = end;
  stats_.delivered_bytes += bytes;
  if (config_.window.contains(scheduler_.now())) stats_.window_delivered_bytes += bytes;
}

void TcpReceiver::store_out_of_order(std::uint64_t begin, std::uint64_t end) {
  insert_merged(out_of_order_, begin, end);
}

void TcpReceiver::receive(PacketPtr packet) {
  const TransportHeader& t = packet->transport;
  if (t.syn) {
    // RFC 9293 3.5: LISTEN -> SYN-RECEIVED, answered with a SYN-ACK; a SYN again
    // (our SYN-ACK was lost) gets it again.
    if (config_.timestamps && t.timestamps) ts_recent_ = t.ts_val;
    send_control(/*syn=*/true, /*fin=*/false, t.seq);
    return;
  }
  if (t.fin) {
    // RFC 9293 3.6: the sender closes once every byte is acknowledged, so the FIN is
    // next in order; the application closes too, so one segment acknowledges the
    // FIN and carries ours (CLOSE-WAIT -> LAST-ACK). Out of order (cannot happen with
    // this sender): a duplicate ACK.
    if (t.seq != rcv_nxt_) {
      send_ack();
      return;
    }
    if (config_.timestamps && t.timestamps) ts_recent_ = t.ts_val;
    send_control(/*syn=*/false, /*fin=*/true, t.seq);
    return;
  }
  if (t.payload_bytes == 0) return;  // the sender's ACK of our SYN or FIN
  ++stats_.segments_received;
  const std::uint64_t begin = t.seq;
  const std::uint64_t end = t.seq + t.payload_bytes;
  bool ack_now = !config_.delayed_ack;
  if (config_.timestamps && t.timestamps && begin <= last_ack_sent_ && t.ts_val >= ts_recent_) {
    // RFC 7323 4.3 (2): keep the TSval of a segment at or before the last ACK
    // sent. So a delayed ACK echoes the earlier of its two segments, a duplicate
    // ACK for a segment beyond a hole echoes the last one in order, and the
    // segment that fills the hole gives its own: the sender's samples err long.
    ts_recent_ = t.ts_val;
  }

  if (end <= rcv_nxt_) {
    // Old data: our ACK was probably lost or the sender went back N. Tell it at
    // once where we are (RFC 5681 4.2, RFC 793 3.9).
    ++stats_.duplicate_segments;
    ack_now = true;
  } else if (begin > rcv_nxt_) {
    // RFC 5681 4.2: an out-of-order segment is acknowledged at once (a duplicate ACK).
    ++stats_.out_of_order_segments;
    store_out_of_order(begin, end);
    ack_now = true;
  } else {
    const bool filled_gap = !out_of_order_.empty();
    deliver_up_to(end);
    while (!out_of_order_.empty() && out_of_order_.front().first <= rcv_nxt_) {
      if (out_of_order_.front().second > rcv_nxt_) deliver_up_to(out_of_order_.front().second);
      out_of_order_.erase(out_of_order_.begin());
    }
    // RFC 5681 4.2: a segment that fills all or part of a gap is acknowledged at once.
    if (filled_gap) ack_now = true;
    // RFC 1122 4.2.3.2 / RFC 5681 4.2: with delayed ACKs, acknowledge at least
    // every second segment.
    if (!ack_now && ++unacked_segments_ >= 2) ack_now = true;
  }

  if (config_.sack) update_sack_blocks(begin);
  // 003 Sec. III-E: "when acknowledging a packet, it copies the congestion header
  // from the data packet to its ACK" (a delayed ACK: the later segment's).
  if (t.has_congestion) echo_ = t.congestion();

  if (ack_now) {
    send_ack();
  } else if (!scheduler_.is_pending(delayed_ack_)) {
    // RFC 1122 4.2.3.2: the delay must stay below 0.5 s.
    delayed_ack_ = scheduler_.schedule_in(config_.delayed_ack_timeout, [this] { send_ack(); });
  }
}

void TcpReceiver::update_sack_blocks(std::uint64_t segment_begin) {
  using Range = std::pair<std::uint64_t, std::uint64_t>;
  // The held block containing seq (blocks start beyond rcv_nxt_, so a block
  // reported before and since delivered is not found).
  const auto block_of = [this](std::uint64_t seq) -> const Range* {
    auto it = std::upper_bound(out_of_order_.begin(), out_of_order_.end(), seq,
                               [](std::uint64_t s, const Range& r) { return s < r.first; });
    if (it == out_of_order_.begin() || std::prev(it)->second <= seq) return nullptr;
    return &*std::prev(it);
  };
  const std::size_t max_blocks = max_sack_blocks(config_.timestamps);
  std::array<Range, kMaxSackBlocks> next{};
  std::size_t n = 0;
  const auto add = [&](const Range& b) {
    if (n < max_blocks && std::find(next.begin(), next.begin() + n, b) == next.begin() + n) next[n++] = b;
  };
  // RFC 2018 4: "The first SACK block ... MUST specify the contiguous block of
  // data containing the segment which triggered this ACK", unless that segment
  // advanced RCV.NXT (then it is acknowledged cumulatively).
  if (const Range* b = block_of(segment_begin)) add(*b);
  // RFC 2018 4: the other blocks repeat the most recently reported ones, as they
  // are now (a block may have grown by merging), without duplicates.
  for (const Range& r : sack_blocks_) {
    if (const Range* b = block_of(r.first)) add(*b);
  }
  // "As many distinct SACK blocks as possible": holes beyond the blocks recently
  // reported (more holes than fit) are reported from the lowest up.
  for (const Range& b : out_of_order_) add(b);
  sack_blocks_.assign(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(n));
}

PacketPtr TcpReceiver::make_segment(std::uint64_t ack) {
  PacketPtr p = pool_.make(scheduler_.now());
  p->src = config_.address.dst;
  p->dst = config_.address.src;
  p->flow = config_.address.flow;
  p->size_bytes = kTcpIpHeaderBytes;
  p->user_priority = config_.ack_user_priority;
  p->transport.ack_valid = true;
  p->transport.ack = ack;
  p->transport.window_bytes = advertised_window_bytes();
  if (config_.timestamps) {
    // RFC 7323 4.3 (3): TSecr = TS.Recent.
    p->size_bytes += kTcpTimestampOptionBytes;
    p->transport.timestamps = true;
    p->transport.ts_val = scheduler_.now();
    p->transport.ts_ecr = ts_recent_;
  }
  return p;
}

void TcpReceiver::send_control(bool syn, bool fin, std::uint64_t seq) {
  ++stats_.control_segments_sent;
  // Data starts at the SYN's seq; the FIN takes one number.
  PacketPtr p = make_segment(syn ? seq : seq + 1);
  p->transport.syn = syn;
  p->transport.fin = fin;
  // Our own sequence number stays 0: the SYN takes the initial one (written as
  // 2^32 - 1 by the trace, as the sender's), the FIN the next (0: we send no data).
  network_.receive(std::move(p));
}

void TcpReceiver::send_ack() {
  scheduler_.cancel(delayed_ack_);
  unacked_segments_ = 0;
  ++stats_.acks_sent;
  PacketPtr p = make_segment(rcv_nxt_);
  if (config_.timestamps) last_ack_sent_ = rcv_nxt_;  // RFC 7323 4.3 (3): Last.ACK.sent = RCV.NXT
  if (config_.sack) {
    // RFC 2018 3-4: the blocks after the ACK number, 2 + 8 bytes each (+2 NOPs).
    for (const auto& [left, right] : sack_blocks_) p->transport.add_sack(left, right);
    p->size_bytes += sack_option_bytes(sack_blocks_.size());
  }
  if (echo_) {
    p->transport.set_congestion(*echo_);
    p->size_bytes += kCongestionHeaderBytes;
    echo_.reset();
  }
  network_.receive(std::move(p));
}

}  // namespace wmnsim::transport
