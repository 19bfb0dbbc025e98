#pragma once
// The MAC buffer of a mesh station under 004's intra-mesh congestion control
// (Fu, Staehle, Pries, Staehle, MSWiM 2010, Sec. 3.1 and 3.3), installed by the
// tcc and lscc controllers (control/mesh_congestion_control.hpp).
//
//  - One physical buffer in bytes, split (Sec. 3.1): `forward_share` (80 %) of it
//    for packets the station forwards, the rest for its own (local) packets. A
//    packet that does not fit its part is dropped (queue_overflow); the ledger
//    tells local from intra-mesh loss by the hops the packet has travelled.
//  - Blocks (the rate control, Sec. 3.2 and 3.3): a neighbour's congestion
//    notification blocks data towards it until a time. Without link selection
//    (TCC) any block stops every data packet ("no packets are transmitted any more
//    once a congestion control packet has arrived"); with it (LSCC) only the
//    packets whose next hop is the notifying neighbour.
//  - Virtual FIFOs (LSCC, Sec. 3.3): one per next hop (a "colour") inside the one
//    buffer, none with a limit of its own. Packets leave in arrival order; a
//    blocked colour is skipped. Blocked local packets may use at most
//    `blocked_local_limit` (50 %) of the local part: a local packet for a blocked
//    colour beyond it is dropped (queue_overflow).
//
// Management frames (the notifications themselves) never enter this buffer: the
// MAC sends them around the data queue (mac/mac.hpp, send_management).
//
// Cost: O(colours) per enqueue and dequeue (colours: the station's next hops, a
// handful).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <vector>

#include "core/time.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"

namespace wmnsim::link {

struct MeshBufferParams {
  std::int64_t capacity_bytes = 256000;  // 004 Sec. 4.1: 256 kB per station, 2 MB per gateway
  double forward_share = 0.8;            // Sec. 3.1
  bool link_selective = false;           // LSCC's virtual FIFOs and per-link blocks
  double blocked_local_limit = 0.5;      // LSCC: share of the local part blocked packets may use
};

class MeshBuffer final : public QueueDiscipline {
 public:
  // The neighbour a packet came from (its transmitting radio), or kLocal for a
  // packet this station originated. The controller knows it (node signals).
  using PreviousHop = std::function<std::uint32_t(const Packet&)>;
  static constexpr std::uint32_t kLocal = std::numeric_limits<std::uint32_t>::max();

  // Throws std::invalid_argument for a capacity below 1, a forward_share outside
  // (0, 1) or a blocked_local_limit outside (0, 1] (1: no limit).
  MeshBuffer(const MeshBufferParams& params, PreviousHop previous_hop, DropSink& drops,
             QueueObserver* observer = nullptr);

  std::size_t length_packets() const override { return packets_; }
  std::int64_t length_bytes() const override { return forward_bytes_ + local_bytes_; }
  Time ready_at(Time now) const override;

  const MeshBufferParams& params() const { return params_; }
  std::int64_t forward_bytes() const { return forward_bytes_; }
  std::int64_t local_bytes() const { return local_bytes_; }
  std::int64_t forward_capacity() const { return forward_capacity_; }
  std::int64_t local_capacity() const { return params_.capacity_bytes - forward_capacity_; }
  // Bytes held that came from neighbour `radio` (LSCC's look-ahead, Sec. 3.3).
  std::int64_t bytes_from(std::uint32_t radio) const;
  // The neighbours whose packets are held, with their bytes (those above zero).
  std::vector<std::pair<std::uint32_t, std::int64_t>> holders() const;

  // Blocks data towards `neighbour` (a radio) until `until`; a time at or before
  // `now` lifts the block. The latest call for a neighbour stands. Calls
  // notify_ready() when a lifted block makes a packet sendable.
  void block(std::uint32_t neighbour, Time until, Time now);
  // Whether data towards `neighbour` is blocked at `now` (TCC: any block blocks all).
  bool blocked(std::uint32_t neighbour, Time now) const;
  // Whether any block is in force at `now`.
  bool any_block(Time now) const;
  // LSCC: the bytes held for next hops that block this station at `now` (all, or
  // only the forwarded ones): what no notification of this station can drain.
  // 0 without link selection (one FIFO for every next hop).
  std::int64_t bytes_for_blockers(Time now, bool forwarded_only) const;

 private:
  struct Held {
    PacketPtr packet;
    std::uint64_t order;     // arrival order across colours
    std::uint32_t from;      // previous hop, or kLocal
  };
  struct Colour {
    std::uint32_t next_hop;  // the radio the packets go to
    std::deque<Held> fifo;
    std::int64_t local_bytes = 0;
    std::int64_t forward_bytes = 0;
  };
  struct Block {
    std::uint32_t neighbour;
    Time until;
  };

  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override;
  const Packet* do_peek_at(Time now) const override;

  Colour& colour_of(std::uint32_t next_hop);
  // The index of the colour whose head leaves next at `now` (earliest arrival
  // among the unblocked), or kNone.
  std::size_t next_colour(Time now) const;
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  Time block_end(std::uint32_t neighbour) const;
  void add_from(std::uint32_t from, std::int64_t bytes);

  MeshBufferParams params_;
  PreviousHop previous_hop_;
  std::int64_t forward_capacity_;
  std::deque<Colour> colours_;  // a deque: a colour's FIFO never moves  // without link selection: one colour for everything
  std::vector<Block> blocks_;
  std::vector<std::pair<std::uint32_t, std::int64_t>> from_bytes_;
  std::size_t packets_ = 0;
  std::int64_t forward_bytes_ = 0, local_bytes_ = 0;
  std::uint64_t next_order_ = 0;
};

}  // namespace wmnsim::link
