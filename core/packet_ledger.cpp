#include "core/packet_ledger.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wmnsim {

void DropCounters::add(const Packet& p, DropCause cause, bool in_window) {
  by_cause[static_cast<std::size_t>(cause)].add(p);
  total.add(p);
  if (p.hops == 0) {
    local.add(p);
  } else {
    intra_mesh.add(p);
    intra_mesh_by_cause[static_cast<std::size_t>(cause)].add(p);
  }
  if (in_window) window_total.add(p);
}

const DropCounters PacketLedger::kNoDrops{};

PacketLedger::PacketLedger(std::size_t nodes, std::size_t flows, Time window_begin, Time window_end)
    : node_drops_(nodes), flow_drops_(flows), flow_deliveries_(flows), flow_sent_(flows), window_begin_(window_begin), window_end_(window_end) {}

PacketLedger::Entry* PacketLedger::entry(PacketId id) {
  if (id >= entries_.size()) return nullptr;
  return &entries_[id];
}

void PacketLedger::originated(const Packet& p) {
  if (p.id >= entries_.size()) entries_.resize(std::max<std::size_t>(p.id + 1, entries_.size() * 2));
  Entry& e = entries_[p.id];
  if (e.fate != untracked) throw std::logic_error("PacketLedger: packet originated twice");
  e.fate = in_flight;
  ++originated_;
  if (p.flow < flow_sent_.size() && p.transport.carries_data()) {
    ++flow_sent_[p.flow].tx_packets;
    flow_sent_[p.flow].tx_bytes += p.size_bytes;
  }
}

void PacketLedger::arrived(const Packet& p) {
  Entry* e = entry(p.id);
  if (e == nullptr || e->fate == untracked) return;
  if (p.hops > e->progress) e->progress = p.hops;
}

void PacketLedger::delivered(const Packet& p, Time now) {
  Entry* e = entry(p.id);
  if (e == nullptr || e->fate == untracked) throw std::logic_error("PacketLedger: delivery of a packet never originated");
  if (e->fate == delivered_fate) {
    ++duplicate_deliveries_;
    return;
  }
  // A counted drop is the furthest copy's (a drop below the packet's progress is
  // stale), so no copy can still be on its way: delivering one now is a bug.
  if (e->fate == dropped_fate) {
    throw std::logic_error("PacketLedger: packet " + std::to_string(p.id) + " (flow " + std::to_string(p.flow) +
                           ") delivered after " + std::to_string(p.hops) + " hops, but dropped after " +
                           std::to_string(e->progress));
  }
  e->fate = delivered_fate;
  ++delivered_;
  // Data only: a TCP ACK is the flow's packet too, but travels the other way; a
  // handshake's SYN, FIN and their ACKs carry no data (FlowMonitor would count them).
  if (p.flow < flow_deliveries_.size() && p.transport.carries_data()) {
    FlowDeliveries& d = flow_deliveries_[p.flow];
    ++d.packets;
    d.bytes += p.size_bytes;
    if (window_begin_ <= now && now < window_end_) {
      d.window_delays.add(now - p.created);
      d.window_jitter.add(now - p.created);
      const double delay = (now - p.created).to_seconds();
      ++d.window_packets;
      d.window_delay_sum_s += delay;
      if (delay > d.window_delay_max_s) d.window_delay_max_s = delay;
    }
  }
}

bool PacketLedger::dropped(const Packet& p, std::uint32_t node, DropCause cause, Time now) {
  Entry* e = entry(p.id);
  if (e == nullptr || e->fate == untracked) throw std::logic_error("PacketLedger: drop of a packet never originated");
  if (e->fate != in_flight || p.hops < e->progress) {
    ++stale_copy_drops_;
    return false;
  }
  e->fate = dropped_fate;
  ++dropped_;
  const bool in_window = window_begin_ <= now && now < window_end_;
  std::unique_ptr<DropCounters>& counters = node_drops_.at(node);
  if (!counters) counters = std::make_unique<DropCounters>();
  counters->add(p, cause, in_window);
  if (p.flow != kNoFlow && p.flow < flow_drops_.size()) {
    flow_drops_[p.flow].add(p, cause, in_window);
    if (p.transport.carries_data()) {
      ++flow_sent_[p.flow].lost_packets;
      flow_sent_[p.flow].lost_bytes += p.size_bytes;
    }
  }
  all_drops_.add(p, cause, in_window);
  return true;
}

std::vector<std::uint64_t> PacketLedger::flow_in_network(const PacketPool& pool) const {
  std::vector<std::uint64_t> counts(flow_sent_.size(), 0);
  std::vector<bool> counted(entries_.size(), false);  // one packet, however many copies
  pool.for_each_live([&](const Packet& p) {
    if (p.id >= entries_.size() || counted[p.id] || entries_[p.id].fate != in_flight) return;
    if (p.flow >= counts.size() || !p.transport.carries_data()) return;
    counted[p.id] = true;
    ++counts[p.flow];
  });
  return counts;
}

Conservation PacketLedger::balance(const PacketPool& pool) const {
  Conservation c;
  c.originated = originated_;
  c.delivered = delivered_;
  c.dropped = dropped_;
  c.stale_copy_drops = stale_copy_drops_;
  c.duplicate_deliveries = duplicate_deliveries_;
  std::vector<bool> live(entries_.size(), false);
  pool.for_each_live([&](const Packet& p) {
    if (p.id < live.size()) live[p.id] = true;
  });
  for (std::size_t id = 0; id < entries_.size(); ++id) {
    if (entries_[id].fate != in_flight) continue;
    if (live[id]) {
      ++c.in_network;
    } else {
      if (c.unaccounted++ == 0) {
        c.first_unaccounted = id;
        c.first_unaccounted_hops = entries_[id].progress;
      }
    }
  }
  return c;
}

}  // namespace wmnsim
