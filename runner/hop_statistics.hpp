#pragma once
// Per-hop statistics (outputs.hops; docs/results.md, `hops`): what each node did
// with each flow's packets, as ns-3 FlowMonitor's per-probe figures give them
// (FlowProbe: packets and bytes seen at a node, the delay from the source to it,
// drops by reason), for the data packets and the flow's TCP ACKs apart.
//
// A NodeSubscriber on every node, over the whole run (as the node rows and
// FlowMonitor's probes). Drops are the ledger's losses only: a sender copy given up
// after the next hop already had the packet (core/packet_ledger.hpp, stale copies)
// is counted apart, so each flow's drops over the nodes add up to its
// `dropped_packets`.
//
// Cost when asked: two hash-map lookups per packet event and node (the counts, then
// the bytes and hops); nothing when not (no subscriber).

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/node_signals.hpp"
#include "core/packet.hpp"
#include "core/time.hpp"

namespace wmnsim {

class Network;

class HopStatistics final : public NodeSubscriber {
 public:
  // Subscribes to every node of `net`; unsubscribes when destroyed.
  explicit HopStatistics(Network& net);
  ~HopStatistics() override;
  HopStatistics(const HopStatistics&) = delete;
  HopStatistics& operator=(const HopStatistics&) = delete;

  void on_originated(std::uint32_t node, Packet& packet) override;
  void on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) override;
  void on_delivered(std::uint32_t node, Packet& packet, const PrevHop& from) override;
  void on_dropped(std::uint32_t node, const Packet& packet, DropCause cause) override;

  // One row per (flow, direction, node) that saw a packet: by flow, data before
  // ACKs, then along the path (the fewest hops a packet had made there), then node.
  std::vector<nlohmann::ordered_json> rows() const;

 private:
  struct Counts {
    std::uint64_t originated = 0;
    std::uint64_t forwarded = 0;
    std::uint64_t delivered = 0;
    std::uint64_t bytes = 0;           // IP bytes of the packets originated, forwarded or delivered here
    double delay_sum_s = 0.0;          // creation to forwarding or delivery here
    std::uint64_t stale_copy_drops = 0;
    std::array<std::uint64_t, kDropCauseCount> drops{};
    std::uint8_t min_hops = 255;
  };
  // flow, then ack (0: data), then node, in one key.
  static std::uint64_t key(std::uint32_t flow, bool ack, std::uint32_t node);
  Counts* counts(std::uint32_t node, const Packet& p);
  void passed(std::uint32_t node, const Packet& p);

  Network& net_;
  std::unordered_map<std::uint64_t, Counts> counts_;
  std::vector<std::uint64_t> flow_losses_seen_;  // the ledger's drop count per flow at the last drop signal
};

}  // namespace wmnsim
