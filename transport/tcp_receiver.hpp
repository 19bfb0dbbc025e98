#pragma once
// The receiving end of a TCP connection, without the network: the node hands it
// the flow's data segments, it hands ACKs (40-byte pure ACKs) to a PacketSink.
//
// In-order data goes to the application at once (so the advertised window is
// always window_packets * MSS); out-of-order data waits in a reassembly list.
// ACK policy (RFC 5681 4.2, RFC 1122 4.2.3.2):
//  - without delayed ACKs, every segment is acknowledged at once;
//  - with them, an in-order segment is acknowledged when a second one arrives or
//    delayed_ack_timeout after the first, whichever comes first;
//  - out-of-order segments, duplicates, and segments that fill (part of) a gap
//    are acknowledged at once (the duplicate ACKs fast retransmit relies on).
// With the timestamps option (RFC 7323), every ACK echoes TS.Recent.
// With the SACK option (RFC 2018), every ACK sent while data is held out of order
// carries up to 4 blocks (3 with timestamps): the first one holds the segment
// that triggered the ACK, the others repeat the most recently reported blocks
// (RFC 2018 4). No D-SACK (RFC 2883), no reneging.
// A segment with WCCP's congestion header (003 Sec. III-E) has it copied into the
// ACK it triggers (12 more bytes): the receiver of a wccp flow is this one.
// With a handshake (the sender's config), every SYN is answered by a SYN-ACK and
// the FIN by a FIN-ACK (the receiving application closes at once); the receiver
// needs no setting of its own: a sender without one sends neither.
// Cost: O(1) per in-order segment; O(holes) per out-of-order one (and per
// segment with SACK while holes remain).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/tcp_config.hpp"

namespace wmnsim::transport {

struct TcpReceiverStats {
  std::uint64_t segments_received = 0;
  std::uint64_t duplicate_segments = 0;     // carried only bytes already received
  std::uint64_t out_of_order_segments = 0;  // arrived beyond a hole
  std::uint64_t acks_sent = 0;
  std::uint64_t control_segments_sent = 0;  // with a handshake: SYN-ACKs and FIN-ACKs
  std::uint64_t delivered_bytes = 0;         // in order, to the application
  std::uint64_t window_delivered_bytes = 0;  // the same, inside the measurement window
};

class TcpReceiver final : public PacketSink {
 public:
  // Throws std::invalid_argument for mss 0 or window_packets 0.
  TcpReceiver(Scheduler& scheduler, PacketPool& pool, PacketSink& network, TcpReceiverConfig config);
  ~TcpReceiver() override;
  TcpReceiver(const TcpReceiver&) = delete;
  TcpReceiver& operator=(const TcpReceiver&) = delete;

  // A data segment (one without payload is ignored).
  void receive(PacketPtr packet) override;

  const TcpReceiverConfig& config() const { return config_; }
  // The window every segment of ours advertises (in-order data leaves at once).
  std::uint32_t advertised_window_bytes() const {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{config_.mss} * config_.window_packets, 0xffffffffu));
  }
  const TcpReceiverStats& stats() const { return stats_; }
  std::uint64_t rcv_nxt() const { return rcv_nxt_; }  // next byte expected in order
  // Application bytes delivered in order inside the measurement window, in bit/s.
  double goodput_bps() const { return config_.window.rate_bps(stats_.window_delivered_bytes); }
  bool delayed_ack_pending() const { return scheduler_.is_pending(delayed_ack_); }
  // The blocks the next ACK will carry (RFC 2018 4's order), empty without SACK.
  const std::vector<std::pair<std::uint64_t, std::uint64_t>>& sack_blocks() const { return sack_blocks_; }

 private:
  void deliver_up_to(std::uint64_t end);
  void store_out_of_order(std::uint64_t begin, std::uint64_t end);
  void update_sack_blocks(std::uint64_t segment_begin);
  void send_ack();
  // A segment of ours: 40 bytes (+ the timestamps option), acknowledging `ack`,
  // advertising the whole window.
  PacketPtr make_segment(std::uint64_t ack);
  // With a handshake: the SYN-ACK of the sender's SYN at `seq`, or the FIN-ACK of
  // its FIN at `seq` (RFC 9293 3.5-3.6).
  void send_control(bool syn, bool fin, std::uint64_t seq);

  Scheduler& scheduler_;
  PacketPool& pool_;
  PacketSink& network_;
  TcpReceiverConfig config_;
  TcpReceiverStats stats_;
  std::uint64_t rcv_nxt_ = 0;
  // Disjoint [begin, end) ranges beyond rcv_nxt_, sorted by begin.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out_of_order_;
  // SACK (RFC 2018 4): the blocks to report, most recent first.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> sack_blocks_;
  std::uint32_t unacked_segments_ = 0;  // in-order segments waiting for a delayed ACK
  // RFC 7323 4.3: the TSval to echo and the ACK number last sent.
  Time ts_recent_;
  std::optional<CongestionHeader> echo_;  // WCCP: the header the next ACK copies
  std::uint64_t last_ack_sent_ = 0;
  EventId delayed_ack_;
};

}  // namespace wmnsim::transport
