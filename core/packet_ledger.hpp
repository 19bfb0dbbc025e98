#pragma once
// Where every packet ended: delivered, dropped (with cause, node and hop count), or
// still in the network (DESIGN.md: every packet is accounted for).
//
// Nodes report each packet they originate, each arrival over a link, each delivery
// to an endpoint and each drop. Counting is by logical packet (Packet::id), not by
// copy: the MAC keeps the sender's copy until the ACK comes back while the receiver
// forwards its own. When the ACKs are lost until the retry limit, the sender drops
// a copy the next hop already has; that drop is not a loss (the packet went on),
// so it is counted apart as a stale copy. A packet's progress (the most hops any
// copy has made) tells the two apart.
//
// Drops are tallied per node and cause, and per flow; 004 Sec. 4.2's weighted
// intra-mesh loss weights each dropped bit by the hops it had already travelled.
// Drops of packets still at their source (hops == 0) are local; the others are
// intra-mesh. Rates count drops inside the measurement window.
//
// Cost: O(1) per event; 2 bytes per packet id issued (a flat array by id). A node's
// drop counters (432 bytes) exist only once it drops something: most nodes of a
// large network never do, so the ledger holds 8 bytes per node (issue 43 §3).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/delay_distribution.hpp"
#include "core/delay_variation.hpp"
#include "core/packet.hpp"
#include "core/time.hpp"

namespace wmnsim {

struct DropTally {
  std::uint64_t packets = 0;
  std::uint64_t bytes = 0;              // IP bytes (Packet::size_bytes)
  std::uint64_t hop_weighted_bits = 0;  // 8 * bytes * hops travelled before the drop (004)
  void add(const Packet& p) {
    ++packets;
    bytes += p.size_bytes;
    hop_weighted_bits += 8ull * p.size_bytes * p.hops;
  }
};

// Drops of one node or one flow, by cause.
struct DropCounters {
  std::array<DropTally, kDropCauseCount> by_cause{};
  DropTally local;       // at the packet's source, before its first hop
  DropTally intra_mesh;  // after at least one hop
  std::array<DropTally, kDropCauseCount> intra_mesh_by_cause{};  // intra_mesh, by cause (004's loss is a buffer's)
  DropTally total;
  DropTally window_total;  // inside the measurement window
  void add(const Packet& p, DropCause cause, bool in_window);
};

// The end-of-run balance. Every originated packet is delivered, dropped or in the
// network; `unaccounted` counts those that vanished without a record (a bug).
struct Conservation {
  std::uint64_t originated = 0;
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;
  std::uint64_t in_network = 0;  // a copy is still queued, on a link or on the air
  std::uint64_t unaccounted = 0;
  PacketId first_unaccounted = 0;      // the lowest id of those (0: none), to follow in a debug log
  std::uint8_t first_unaccounted_hops = 0;  // the most hops a copy of it made
  std::uint64_t stale_copy_drops = 0;   // sender copies dropped after the next hop had the packet
  std::uint64_t duplicate_deliveries = 0;
  bool holds() const { return unaccounted == 0 && originated == delivered + dropped + in_network; }
};

// What reached one flow's far end (data and ACKs alike: every packet of the flow
// delivered to an endpoint), and the one-way delays of those delivered inside the
// measurement window.
struct FlowDeliveries {
  std::uint64_t packets = 0;
  std::uint64_t bytes = 0;  // IP bytes (Packet::size_bytes) of those packets
  std::uint64_t window_packets = 0;
  // The one-way delays (creation at the source to delivery) inside the window:
  // every one (percentiles, histogram) and their variation in arrival order (jitter).
  DelayDistribution window_delays;
  DelayVariation window_jitter;
  double window_delay_sum_s = 0.0;
  double window_delay_max_s = 0.0;
  double mean_delay_s() const { return window_packets == 0 ? 0.0 : window_delay_sum_s / static_cast<double>(window_packets); }
};

// What a flow's source sent and what of it was lost, data packets only (not the
// flow's TCP ACKs), as FlowMonitor counts per flow (txPackets, txBytes,
// lostPackets). Over the whole run. A packet is lost when it was dropped (its
// furthest copy, with a cause; stale copies are not losses), so at any time
// tx_packets = delivered + lost_packets + still in the network.
struct FlowSent {
  std::uint64_t tx_packets = 0;
  std::uint64_t tx_bytes = 0;  // IP bytes
  std::uint64_t lost_packets = 0;
  std::uint64_t lost_bytes = 0;
};

class PacketLedger {
 public:
  // Drops at or after window_begin and before window_end count towards the rates.
  PacketLedger(std::size_t nodes, std::size_t flows, Time window_begin, Time window_end);

  void originated(const Packet& p);
  void arrived(const Packet& p);  // crossed a link (hops already incremented)
  void delivered(const Packet& p, Time now);
  // Returns false for a stale copy (not a loss; not tallied as a drop).
  bool dropped(const Packet& p, std::uint32_t node, DropCause cause, Time now);

  // A node that never dropped anything reads all zeros.
  const DropCounters& node_drops(std::uint32_t node) const {
    const std::unique_ptr<DropCounters>& counters = node_drops_.at(node);
    return counters ? *counters : kNoDrops;
  }
  const DropCounters& flow_drops(std::uint32_t flow) const { return flow_drops_.at(flow); }
  const DropCounters& all_drops() const { return all_drops_; }
  // Data packets of the flow (not its ACKs) delivered at the flow's destination.
  const FlowDeliveries& flow_deliveries(std::uint32_t flow) const { return flow_deliveries_.at(flow); }
  // Data packets the flow's source originated, and those lost.
  const FlowSent& flow_sent(std::uint32_t flow) const { return flow_sent_.at(flow); }
  // Data packets of each flow with a copy still in `pool` (queued, on a link, on the air).
  std::vector<std::uint64_t> flow_in_network(const PacketPool& pool) const;
  std::uint64_t stale_copy_drops() const { return stale_copy_drops_; }

  // Live copies in `pool` are what is still in the network.
  Conservation balance(const PacketPool& pool) const;

 private:
  enum Fate : std::uint8_t { untracked = 0, in_flight = 1, delivered_fate = 2, dropped_fate = 3 };
  struct Entry {
    std::uint8_t fate = untracked;
    std::uint8_t progress = 0;  // most hops any copy has made
  };
  Entry* entry(PacketId id);

  std::vector<Entry> entries_;  // by packet id
  static const DropCounters kNoDrops;
  std::vector<std::unique_ptr<DropCounters>> node_drops_;  // by node; null until its first drop
  std::vector<DropCounters> flow_drops_;
  std::vector<FlowDeliveries> flow_deliveries_;
  std::vector<FlowSent> flow_sent_;
  DropCounters all_drops_;
  Time window_begin_, window_end_;
  std::uint64_t originated_ = 0, delivered_ = 0, dropped_ = 0;
  std::uint64_t stale_copy_drops_ = 0, duplicate_deliveries_ = 0;
};

}  // namespace wmnsim
