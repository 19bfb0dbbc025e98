#pragma once
// The network-layer packet: a small struct whose headers are typed fields, not bytes
// (DESIGN.md). Only size_bytes reaches the air: it drives the airtime.
//
// Ownership moves. A PacketPtr owns one packet and hands its storage back to the
// PacketPool it came from when it dies, so a packet is never in two queues at once
// and the steady state allocates nothing (htsim's per-type free lists, STYLE.md 9).
// A pool belongs to one Simulation (no global state) and is single-threaded.

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "core/time.hpp"

namespace wmnsim {

using PacketId = std::uint64_t;

// The broadcast MAC address as a radio index (mac/frame.hpp MacAddress::broadcast()).
inline constexpr std::uint32_t kBroadcastRadio = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t kNoFlow = std::numeric_limits<std::uint32_t>::max();
// RFC 1700's recommended default IP TTL.
inline constexpr std::uint8_t kDefaultTtl = 64;
// IPv4 header without options (RFC 791).
inline constexpr std::uint32_t kIpv4HeaderBytes = 20;

// Why a packet left the network without being delivered. Shared by every layer
// that drops (queues, MAC, forwarding), so that metrics count drops one way.
enum class DropCause : std::uint8_t {
  queue_overflow,    // no room in the queue (drop-tail, or a push-out discipline)
  queue_early_drop,  // an active queue discipline chose to drop (RED/FRED family)
  rate_limit,        // a policer (token bucket) refused it
  retry_limit,       // the MAC gave up after its short or long retry limit
  no_route,          // forwarding found no next hop
  ttl_expired,       // TTL reached zero
  lifetime_expired,  // waited in a MAC queue longer than its queue_lifetime_s
  false_duplicate,   // a new frame the receiver's MAC took for a retransmission (mac/duplicate_filter.hpp)
};
inline constexpr std::size_t kDropCauseCount = 8;

constexpr std::string_view to_string(DropCause c) {
  constexpr std::array<std::string_view, kDropCauseCount> names{
      "queue_overflow", "queue_early_drop", "rate_limit", "retry_limit", "no_route", "ttl_expired",
      "lifetime_expired", "false_duplicate"};
  return names[static_cast<std::size_t>(c)];
}

// At most 4 SACK blocks fit TCP's 40 bytes of options (RFC 2018 3: 2 + 8 * 4 =
// 34 bytes; with the 12 bytes of timestamps only 3 fit, 26 of the remaining 28).
inline constexpr std::size_t kMaxSackBlocks = 4;

// One RFC 2018 SACK block, [left, right) as offsets from the ACK number: the
// receiver reports only data it holds beyond RCV.NXT and inside its window, so 32
// bits are enough (as on the wire) while sequence numbers here are 64-bit.
struct SackBlock {
  std::uint32_t left = 0;
  std::uint32_t right = 0;
};

// WCCP's congestion header (003 Sec. III-E), on every WCCP data packet and copied
// by the receiver into the ACK of that packet. The sender fills rate_pps and
// control_interval and never changes them; every node on the path may lower
// feedback_pps. On the wire it is three 32-bit fields (003 gives no size; ours:
// transport/header_sizes.hpp kCongestionHeaderBytes); sent_at is bookkeeping the
// sender could keep per sequence number, for 003's rule on feedback from before a
// timeout, and costs no bytes.
struct CongestionHeader {
  double rate_pps = 0.0;     // r_p: the sender's permit rate, packets/s (0: no RTT estimate yet)
  Time control_interval;     // T_c = max(srtt, beta / r_p) (zero with r_p = 0)
  double feedback_pps = 0.0;  // fb: the change of r_p the path allows, packets/s
  Time sent_at;              // when the sender handed the data packet to its node
};

// Transport header as plain fields: UDP, TCP (NewReno, Reno, fixed window, SACK)
// and WCCP (TCP's fields plus the congestion header).
struct TransportHeader {
  std::uint64_t seq = 0;  // TCP: sequence number of the first payload byte; UDP: datagram number
  std::uint64_t ack = 0;  // TCP: next byte expected, valid when ack_valid (see against_data)
  std::uint32_t payload_bytes = 0;  // application bytes carried
  std::uint32_t window_bytes = 0;   // TCP: advertised receiver window
  bool syn = false;
  bool fin = false;
  bool ack_valid = false;
  bool retransmitted = false;  // the sender has sent these bytes before (metrics, Karn's rule)
  // TCP timestamps option (RFC 7323 3): TSval (the sender's clock when it sent the
  // segment) and TSecr (the TSval echoed), valid when `timestamps`.
  bool timestamps = false;
  // TCP SACK option (RFC 2018 3): how many of sack_blocks are valid (0: no option).
  std::uint8_t sack_count = 0;
  bool has_congestion = false;  // carries WCCP's congestion header (in `options`, in place of SACK blocks)
  // A routing protocol's control message (core/aodv_message.hpp: its type, 0 for
  // none), carried in `options` as bytes; such a packet has no transport above it.
  // It fills what was padding, so a Packet stays 128 bytes.
  std::uint8_t routing_message = 0;
  Time ts_val;
  Time ts_ecr;
  // SACK blocks, WCCP's congestion header and a routing message never travel
  // together (WCCP has no SACK; a routing message has no transport), so they share
  // storage and a Packet stays 128 bytes (two cache lines).
  union Options {
    constexpr Options() : sack_blocks{} {}
    std::array<SackBlock, kMaxSackBlocks> sack_blocks;
    CongestionHeader congestion;
    std::array<std::uint8_t, 32> routing;  // the routing protocol's message, as it encodes it
  };
  Options options;

  // The congestion header; only when has_congestion.
  CongestionHeader& congestion() {
    assert(has_congestion);
    return options.congestion;
  }
  const CongestionHeader& congestion() const {
    assert(has_congestion);
    return options.congestion;
  }
  // Makes the congestion header the live member of `options`, with these fields.
  // They share storage with the SACK blocks: a packet carrying both is a wiring
  // error (a SACK receiver behind a WCCP sender), refused in every build.
  void set_congestion(const CongestionHeader& header) {
    if (sack_count != 0) throw std::logic_error("a packet cannot carry both SACK blocks and WCCP's congestion header");
    std::construct_at(&options.congestion, header);
    has_congestion = true;
  }

  // Block i as absolute sequence numbers [first, second).
  constexpr std::pair<std::uint64_t, std::uint64_t> sack(std::size_t i) const {
    return {ack + options.sack_blocks[i].left, ack + options.sack_blocks[i].right};
  }
  // Appends [left, right) (set `ack` first; left >= ack, and a block must fit
  // 32-bit offsets: the receiver's window bounds it).
  constexpr void add_sack(std::uint64_t left, std::uint64_t right) {
    if (has_congestion) throw std::logic_error("a packet cannot carry both WCCP's congestion header and SACK blocks");
    options.sack_blocks[sack_count++] = {static_cast<std::uint32_t>(left - ack), static_cast<std::uint32_t>(right - ack)};
  }

  // A TCP segment that only acknowledges. 002 gives these their own access category,
  // and in 000 they are what contends against the data of the other direction.
  constexpr bool is_pure_ack() const { return ack_valid && payload_bytes == 0 && !syn && !fin; }
  // Sent by the flow's receiving end, against the data: its segments (ACKs, and with
  // a handshake its SYN-ACK and FIN-ACK) all acknowledge (ack_valid) and carry no
  // payload. The sending end's never set ack_valid: its ACK number is always the
  // receiver's initial sequence number + 1 (0), or + 2 (1) once it acknowledges the
  // receiver's FIN, and travels in `ack` alone (transport/reliable_sender.hpp).
  // Without a handshake, these are exactly the pure ACKs.
  constexpr bool against_data() const { return ack_valid && payload_bytes == 0; }
  // Application bytes: what a flow's packet counts are of (core/packet_ledger.hpp),
  // so a handshake's SYN, FIN and their ACKs, which carry none, are not counted there.
  constexpr bool carries_data() const { return payload_bytes > 0; }
};

struct Packet {
  PacketId id = 0;  // unique within a Simulation; clone() keeps it (same logical packet)
  // The whole IP datagram: IP header + transport header + payload. The MAC adds its
  // own header, LLC/SNAP and FCS (mac/frame.hpp).
  std::uint32_t size_bytes = 0;
  std::uint32_t src = 0;        // node index (Scenario::nodes)
  std::uint32_t dst = 0;        // node index
  std::uint32_t flow = kNoFlow;  // index into Scenario::flows; kNoFlow for control traffic
  std::uint8_t ttl = kDefaultTtl;
  std::uint8_t hops = 0;  // links crossed so far (004 weights intra-mesh loss by it)
  // The user priority (IEEE 802.1D UP 0..7) the transport tagged the packet with;
  // an EDCA MAC maps it to an access category (IEEE 802.11-2012 9.2.4.2, Table 9-1;
  // mac/mac_params.hpp). Empty lets the MAC's classifier decide (e.g. by is_pure_ack()).
  std::optional<std::uint8_t> user_priority;
  // The MAC address (radio index, mac/frame.hpp MacAddress) of the next hop, set by
  // the node when it hands the packet to a MAC; kBroadcastRadio for a broadcast.
  std::uint32_t next_hop_radio = kBroadcastRadio;
  Time created;  // when the source created it (one-way delay)
  Time queued_at;  // when it entered the MAC queue it is in (the queue lifetime counts from here)
  TransportHeader transport;
};
// Two cache lines: the pools' chunks and every queue move packets by pointer, but
// the MAC and the node read them on every hop.
static_assert(sizeof(Packet) <= 128, "Packet grew past two cache lines");

class PacketPool;

// The deleter of PacketPtr: gives the storage back to its pool.
struct PacketReturn {
  PacketPool* pool = nullptr;
  void operator()(Packet* p) const noexcept;
};

using PacketPtr = std::unique_ptr<Packet, PacketReturn>;

// Free-list storage for packets. Storage comes in chunks whose addresses never
// move; a returned packet is reset to its defaults and reused, newest first.
// Cost: make/clone/return are O(1) and allocate only when every slot is live.
// The pool must outlive every PacketPtr it handed out: destroying it with live
// packets is a bug and aborts (declare it before anything that holds packets).
class PacketPool {
 public:
  explicit PacketPool(std::size_t chunk_packets = 256);
  ~PacketPool();
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  // A packet with a fresh id, created at `now`, every other field at its default.
  PacketPtr make(Time now);
  // A second copy of the same logical packet (same id and fields). For the MAC: the
  // receiver takes its copy up the stack while the sender keeps the original until
  // the ACK arrives, and then releases it; that release is not a drop.
  PacketPtr clone(const Packet& p);

  std::size_t live() const { return live_; }           // handed out, not yet returned
  std::size_t capacity() const { return capacity_; }   // slots allocated (live + free)
  std::uint64_t ids_issued() const { return next_id_ - 1; }
  // Calls f(const Packet&) for every live packet (the conservation check at the end
  // of a run counts what is still queued or in flight). Free slots hold id 0.
  template <typename F>
  void for_each_live(F&& f) const {
    for (const auto& chunk : chunks_) {
      for (std::size_t i = 0; i < chunk_packets_; ++i) {
        if (chunk[i].id != 0) f(static_cast<const Packet&>(chunk[i]));
      }
    }
  }

 private:
  friend struct PacketReturn;
  Packet* acquire();
  void release(Packet* p) noexcept;

  std::size_t chunk_packets_;
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  std::vector<Packet*> free_;  // reserved to capacity_, so release never allocates
  std::size_t capacity_ = 0;
  std::size_t live_ = 0;
  PacketId next_id_ = 1;
};

}  // namespace wmnsim
