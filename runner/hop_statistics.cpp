#include "runner/hop_statistics.hpp"

#include <algorithm>
#include <tuple>

#include "results/result_columns.hpp"
#include "runner/network.hpp"

namespace wmnsim {

HopStatistics::HopStatistics(Network& net) : net_(net), flow_losses_seen_(net.scenario().flows.size(), 0) {
  for (std::size_t i = 0; i < net_.scenario().nodes.size(); ++i) net_.node(i).subscribe(*this);
}

HopStatistics::~HopStatistics() {
  for (std::size_t i = 0; i < net_.scenario().nodes.size(); ++i) net_.node(i).unsubscribe(*this);
}

std::uint64_t HopStatistics::key(std::uint32_t flow, bool ack, std::uint32_t node) {
  // Flows and nodes are bounded by the scenario's limits (docs/scenario.md): 31 bits each.
  return (static_cast<std::uint64_t>(flow) << 32) | (static_cast<std::uint64_t>(ack) << 31) | node;
}

HopStatistics::Counts* HopStatistics::counts(std::uint32_t node, const Packet& p) {
  if (p.flow == kNoFlow || p.flow >= flow_losses_seen_.size()) return nullptr;  // routing control traffic
  // The ledger's split (core/packet_ledger.hpp): the receiver's segments are the
  // flow's reverse direction.
  return &counts_[key(p.flow, p.transport.against_data(), node)];
}

void HopStatistics::passed(std::uint32_t node, const Packet& p) {
  Counts* c = counts(node, p);
  if (c == nullptr) return;
  c->bytes += p.size_bytes;
  c->min_hops = std::min(c->min_hops, p.hops);
}

void HopStatistics::on_originated(std::uint32_t node, Packet& packet) {
  if (Counts* c = counts(node, packet)) ++c->originated;
  passed(node, packet);
}

void HopStatistics::on_forwarded(std::uint32_t node, Packet& packet, const PrevHop&, const NextHop&) {
  if (Counts* c = counts(node, packet)) {
    ++c->forwarded;
    c->delay_sum_s += (net_.simulation().now() - packet.created).to_seconds();
  }
  passed(node, packet);
}

void HopStatistics::on_delivered(std::uint32_t node, Packet& packet, const PrevHop&) {
  if (Counts* c = counts(node, packet)) {
    ++c->delivered;
    c->delay_sum_s += (net_.simulation().now() - packet.created).to_seconds();
  }
  passed(node, packet);
}

void HopStatistics::on_dropped(std::uint32_t node, const Packet& packet, DropCause cause) {
  Counts* c = counts(node, packet);
  if (c == nullptr) return;
  // The node records a drop in the ledger just before it signals it (core/node.cpp),
  // so the flow's loss count has grown by one exactly when this drop was a loss.
  const std::uint64_t losses = net_.ledger().flow_drops(packet.flow).total.packets;
  if (losses > flow_losses_seen_[packet.flow]) {
    flow_losses_seen_[packet.flow] = losses;
    ++c->drops[static_cast<std::size_t>(cause)];
  } else {
    ++c->stale_copy_drops;
  }
}

std::vector<nlohmann::ordered_json> HopStatistics::rows() const {
  const Scenario& s = net_.scenario();
  struct Entry {
    std::uint32_t flow;
    bool ack;
    std::uint8_t hops;
    std::uint32_t node;
    const Counts* counts;
  };
  std::vector<Entry> entries;
  entries.reserve(counts_.size());
  for (const auto& [k, c] : counts_) {
    entries.push_back({static_cast<std::uint32_t>(k >> 32), ((k >> 31) & 1u) != 0, c.min_hops,
                       static_cast<std::uint32_t>(k & 0x7fffffffu), &c});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.flow, a.ack, a.hops, a.node) < std::tie(b.flow, b.ack, b.hops, b.node);
  });
  std::vector<nlohmann::ordered_json> out;
  out.reserve(entries.size());
  for (const Entry& e : entries) {
    const Counts& c = *e.counts;
    nlohmann::ordered_json row;
    hop_column::flow.set(row, s.flows[e.flow].id);
    hop_column::direction.set(row, std::string(e.ack ? "ack" : "data"));
    hop_column::node.set(row, s.nodes[e.node].id);
    const std::uint64_t passed = c.originated + c.forwarded + c.delivered;
    hop_column::hop.set(row, passed > 0 ? std::optional<std::uint64_t>(c.min_hops) : std::nullopt);
    hop_column::originated.set(row, c.originated);
    hop_column::forwarded.set(row, c.forwarded);
    hop_column::delivered.set(row, c.delivered);
    hop_column::bytes.set(row, c.bytes);
    const std::uint64_t timed = c.forwarded + c.delivered;
    hop_column::delay_mean_s.set(row, timed > 0 ? std::optional<double>(c.delay_sum_s / static_cast<double>(timed))
                                                : std::nullopt);
    std::uint64_t drops = 0;
    for (std::uint64_t d : c.drops) drops += d;
    hop_column::drops.set(row, drops);
    for (std::size_t cause = 0; cause < kDropCauseCount; ++cause) {
      node_drops(static_cast<DropCause>(cause)).set(row, c.drops[cause]);
    }
    hop_column::stale_copy_drops.set(row, c.stale_copy_drops);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace wmnsim
