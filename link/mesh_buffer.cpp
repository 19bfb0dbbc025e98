#include "link/mesh_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace wmnsim::link {

MeshBuffer::MeshBuffer(const MeshBufferParams& params, PreviousHop previous_hop, DropSink& drops,
                       QueueObserver* observer)
    : QueueDiscipline(drops, observer), params_(params), previous_hop_(std::move(previous_hop)) {
  if (params_.capacity_bytes < 1) {
    throw std::invalid_argument("mesh buffer capacity must be at least 1 byte, got " +
                                std::to_string(params_.capacity_bytes));
  }
  if (!(params_.forward_share > 0.0 && params_.forward_share < 1.0)) {
    throw std::invalid_argument("mesh buffer forward_share must lie strictly between 0 and 1, got " +
                                std::to_string(params_.forward_share));
  }
  if (!(params_.blocked_local_limit > 0.0 && params_.blocked_local_limit <= 1.0)) {
    throw std::invalid_argument("mesh buffer blocked_local_limit must lie in (0, 1], got " +
                                std::to_string(params_.blocked_local_limit));
  }
  if (!previous_hop_) throw std::invalid_argument("mesh buffer needs a previous-hop function");
  forward_capacity_ = static_cast<std::int64_t>(std::floor(params_.forward_share * static_cast<double>(params_.capacity_bytes)));
}

MeshBuffer::Colour& MeshBuffer::colour_of(std::uint32_t next_hop) {
  // Without link selection there is one FIFO: plain arrival order (TCC, Sec. 3.2).
  if (!params_.link_selective) next_hop = kBroadcastRadio;
  for (Colour& c : colours_) {
    if (c.next_hop == next_hop) return c;
  }
  colours_.push_back(Colour{next_hop, {}, 0});
  return colours_.back();
}

Time MeshBuffer::block_end(std::uint32_t neighbour) const {
  for (const Block& b : blocks_) {
    if (b.neighbour == neighbour) return b.until;
  }
  return Time::zero();  // never blocked: no simulated time is before zero
}

bool MeshBuffer::any_block(Time now) const {
  return std::any_of(blocks_.begin(), blocks_.end(), [now](const Block& b) { return b.until > now; });
}

bool MeshBuffer::blocked(std::uint32_t neighbour, Time now) const {
  return params_.link_selective ? block_end(neighbour) > now : any_block(now);
}

void MeshBuffer::block(std::uint32_t neighbour, Time until, Time now) {
  const Time release_before = ready_at(now);
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [neighbour](const Block& b) { return b.neighbour == neighbour; });
  if (it == blocks_.end()) {
    blocks_.push_back(Block{neighbour, until});
  } else {
    it->until = until;
  }
  // A block lifted early (a notification with timer 0) or shortened moves the
  // release earlier than the owner dated it: tell it (it asks ready_at() again).
  if (ready_at(now) < release_before) notify_ready();
}

std::size_t MeshBuffer::next_colour(Time now) const {
  if (!params_.link_selective && any_block(now)) return kNone;
  std::size_t best = kNone;
  for (std::size_t i = 0; i < colours_.size(); ++i) {
    const Colour& c = colours_[i];
    if (c.fifo.empty()) continue;
    if (params_.link_selective && block_end(c.next_hop) > now) continue;
    if (best == kNone || c.fifo.front().order < colours_[best].fifo.front().order) best = i;
  }
  return best;
}

Time MeshBuffer::ready_at(Time now) const {
  if (packets_ == 0) return Time::max();
  if (next_colour(now) != kNone) return now;
  // Everything held is blocked: sendable when the earliest block over it ends.
  Time at = Time::max();
  if (!params_.link_selective) {
    for (const Block& b : blocks_) {
      if (b.until > now) at = at == Time::max() ? b.until : std::max(at, b.until);
    }
    return at;
  }
  for (const Colour& c : colours_) {
    if (!c.fifo.empty()) at = std::min(at, block_end(c.next_hop));
  }
  return at;
}

const Packet* MeshBuffer::do_peek_at(Time now) const {
  const std::size_t c = next_colour(now);
  return c == kNone ? nullptr : colours_[c].fifo.front().packet.get();
}

const Packet* MeshBuffer::do_peek() const {
  // Blocks aside: the earliest arrival held.
  const Colour* best = nullptr;
  for (const Colour& c : colours_) {
    if (!c.fifo.empty() && (best == nullptr || c.fifo.front().order < best->fifo.front().order)) best = &c;
  }
  return best == nullptr ? nullptr : best->fifo.front().packet.get();
}

void MeshBuffer::add_from(std::uint32_t from, std::int64_t bytes) {
  for (auto& [radio, b] : from_bytes_) {
    if (radio == from) {
      b += bytes;
      return;
    }
  }
  from_bytes_.emplace_back(from, bytes);
}

std::int64_t MeshBuffer::bytes_from(std::uint32_t radio) const {
  for (const auto& [r, b] : from_bytes_) {
    if (r == radio) return b;
  }
  return 0;
}

std::vector<std::pair<std::uint32_t, std::int64_t>> MeshBuffer::holders() const {
  std::vector<std::pair<std::uint32_t, std::int64_t>> out;
  for (const auto& e : from_bytes_) {
    if (e.second > 0) out.push_back(e);
  }
  return out;
}

std::int64_t MeshBuffer::bytes_for_blockers(Time now, bool forwarded_only) const {
  if (!params_.link_selective) return 0;
  std::int64_t bytes = 0;
  for (const Colour& c : colours_) {
    if (block_end(c.next_hop) > now) bytes += c.forward_bytes + (forwarded_only ? 0 : c.local_bytes);
  }
  return bytes;
}

EnqueueResult MeshBuffer::do_enqueue(PacketPtr& packet, Time now) {
  const std::uint32_t from = previous_hop_(*packet);
  const bool local = from == kLocal;
  const std::int64_t size = packet->size_bytes;
  // Sec. 3.1: the forwarding part and the local part are separate.
  if (local ? local_bytes_ + size > local_capacity() : forward_bytes_ + size > forward_capacity_) {
    return EnqueueResult::dropped(DropCause::queue_overflow);
  }
  const Time release_before = ready_at(now);
  Colour& colour = colour_of(packet->next_hop_radio);
  if (local && params_.link_selective && block_end(colour.next_hop) > now) {
    // Sec. 3.3: blocked local packets use at most half of the local part.
    std::int64_t blocked_local = 0;
    for (const Colour& c : colours_) {
      if (block_end(c.next_hop) > now) blocked_local += c.local_bytes;
    }
    const double limit = params_.blocked_local_limit * static_cast<double>(local_capacity());
    if (static_cast<double>(blocked_local + size) > limit) return EnqueueResult::dropped(DropCause::queue_overflow);
  }
  (local ? local_bytes_ : forward_bytes_) += size;
  if (local) {
    colour.local_bytes += size;
  } else {
    colour.forward_bytes += size;
    add_from(from, size);
  }
  ++packets_;
  colour.fifo.push_back(Held{std::move(packet), next_order_++, from});
  // LSCC: a packet for a colour whose block ends before the current release date
  // (or for an open colour) moves the release earlier.
  const Time release = ready_at(now);
  // (Into an empty buffer: the owner dates the release after the enqueue itself.)
  if (release_before != Time::max() && release < release_before && release > now) notify_ready();
  return EnqueueResult::accepted();
}

PacketPtr MeshBuffer::do_dequeue(Time now) {
  const std::size_t next = next_colour(now);
  if (next == kNone) return nullptr;
  Colour& c = colours_[next];
  Held h = std::move(c.fifo.front());
  c.fifo.pop_front();
  const std::int64_t size = h.packet->size_bytes;
  if (h.from == kLocal) {
    local_bytes_ -= size;
    c.local_bytes -= size;
  } else {
    forward_bytes_ -= size;
    c.forward_bytes -= size;
    add_from(h.from, -size);
  }
  --packets_;
  return std::move(h.packet);
}

}  // namespace wmnsim::link
