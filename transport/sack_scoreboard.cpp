#include "transport/sack_scoreboard.hpp"

#include <algorithm>
#include <iterator>

#include "transport/byte_ranges.hpp"

namespace wmnsim::transport {

bool SackScoreboard::update(const TransportHeader& ack, std::uint64_t una, std::uint64_t high_data) {
  discard_below(una);
  bool news = false;
  for (std::size_t i = 0; i < ack.sack_count; ++i) {
    const auto [first, second] = ack.sack(i);
    const std::uint64_t a = std::max(first, una);
    const std::uint64_t b = std::min(second, high_data);
    if (a < b && add(a, b)) news = true;
  }
  return news;
}

bool SackScoreboard::add(std::uint64_t first, std::uint64_t second) {
  if (first >= second) return false;
  const bool news = sacked_between(first, second) < second - first;
  insert_merged(ranges_, first, second);
  return news;
}

void SackScoreboard::discard_below(std::uint64_t una) {
  auto it = ranges_.begin();
  while (it != ranges_.end() && it->second <= una) ++it;
  ranges_.erase(ranges_.begin(), it);
  if (!ranges_.empty() && ranges_.front().first < una) ranges_.front().first = una;
}

bool SackScoreboard::is_sacked(std::uint64_t seq) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), seq,
                             [](std::uint64_t s, const Range& r) { return s < r.first; });
  return it != ranges_.begin() && std::prev(it)->second > seq;
}

std::uint64_t SackScoreboard::sacked_bytes() const {
  std::uint64_t total = 0;
  for (const Range& r : ranges_) total += r.second - r.first;
  return total;
}

std::uint64_t SackScoreboard::sacked_between(std::uint64_t first, std::uint64_t second) const {
  std::uint64_t total = 0;
  for (const Range& r : ranges_) {
    const std::uint64_t a = std::max(first, r.first);
    const std::uint64_t b = std::min(second, r.second);
    if (a < b) total += b - a;
  }
  return total;
}

std::uint64_t SackScoreboard::first_unsacked(std::uint64_t seq) const {
  // Ranges never touch, so the end of the range holding seq is not SACKed.
  for (const Range& r : ranges_) {
    if (r.first > seq) break;
    if (r.second > seq) return r.second;
  }
  return seq;
}

std::uint64_t SackScoreboard::hole_end(std::uint64_t seq, std::uint64_t limit) const {
  for (const Range& r : ranges_) {
    if (r.first > seq) return std::min(r.first, limit);
  }
  return limit;
}

bool SackScoreboard::is_lost(std::uint64_t seq, std::uint32_t mss) const {
  std::uint64_t ranges_above = 0;
  std::uint64_t bytes_above = 0;
  for (auto it = ranges_.rbegin(); it != ranges_.rend() && it->first > seq; ++it) {
    ++ranges_above;
    bytes_above += it->second - it->first;
  }
  // RFC 6675 4: "DupThresh discontiguous SACKed sequences" (ranges here: segment
  // boundaries are not kept) or "more than (DupThresh - 1) * SMSS bytes".
  return ranges_above >= kDupThresh || bytes_above > std::uint64_t{kDupThresh - 1} * mss;
}

std::uint64_t SackScoreboard::lost_below(std::uint32_t mss) const {
  // Walk down from the highest range: the first one at which IsLost's condition
  // holds for the bytes below it bounds the lost ones.
  std::uint64_t ranges_above = 0;
  std::uint64_t bytes_above = 0;
  for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
    ++ranges_above;
    bytes_above += it->second - it->first;
    if (ranges_above >= kDupThresh || bytes_above > std::uint64_t{kDupThresh - 1} * mss) return it->first;
  }
  return 0;
}

std::uint64_t SackScoreboard::pipe(std::uint64_t una, std::uint64_t high_data, std::uint64_t high_rxt,
                                   std::uint32_t mss) const {
  if (high_data <= una) return 0;
  const auto unsacked = [this](std::uint64_t a, std::uint64_t b) { return a < b ? (b - a) - sacked_between(a, b) : 0; };
  // RFC 6675 4 SetPipe (a): not lost, i.e. at or above lost_below.
  const std::uint64_t not_lost = unsacked(std::max(una, lost_below(mss)), high_data);
  // (b): "If S1 <= HighRxt", retransmitted.
  const std::uint64_t retransmitted = unsacked(una, std::min(high_rxt, high_data));
  return not_lost + retransmitted;
}

std::optional<SackScoreboard::Segment> SackScoreboard::next_seg(const SenderState& s) const {
  const std::uint64_t highest = highest_sacked();
  const std::uint64_t lost_limit = lost_below(s.mss);
  // (1.a) and (3.a): the smallest unSACKed byte above HighRxt.
  const std::uint64_t hole = first_unsacked(std::max(s.una, s.high_rxt));
  const auto hole_segment = [&](std::uint64_t seq, int rule) {
    const std::uint64_t end = std::min({seq + s.mss, hole_end(seq, s.high_data), s.data_end});
    return Segment{seq, static_cast<std::uint32_t>(end - seq), rule};
  };
  // Rule 1: it lies below the highest SACKed byte (1.b) and IsLost (1.c).
  if (hole < highest && hole < lost_limit && hole < s.data_end) return hole_segment(hole, 1);
  // Rule 2: new data, if the receiver's window allows.
  if (s.high_data < s.data_end) {
    const auto length = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.mss, s.data_end - s.high_data));
    if (s.high_data + length <= s.window_end) return Segment{s.high_data, length, 2};
  }
  // Rule 3: an unSACKed byte above HighRxt and below the highest SACKed, not lost.
  if (hole < highest && hole < s.data_end) return hole_segment(hole, 3);
  // Rule 4 (rescue retransmission): once per recovery (HighACK > RescueRxt), the
  // segment ending at the highest outstanding unSACKed byte.
  if (!s.rescue_rxt || s.una > *s.rescue_rxt) {
    std::uint64_t end = s.high_data;  // one past the highest unSACKed byte
    std::uint64_t begin_limit = s.una;
    if (!ranges_.empty() && ranges_.back().second >= s.high_data) {
      end = ranges_.back().first;
      if (ranges_.size() >= 2) begin_limit = std::max(begin_limit, ranges_[ranges_.size() - 2].second);
    } else if (!ranges_.empty()) {
      begin_limit = std::max(begin_limit, ranges_.back().second);
    }
    if (end > begin_limit) {
      const std::uint64_t begin = end - std::min<std::uint64_t>(s.mss, end - begin_limit);
      return Segment{begin, static_cast<std::uint32_t>(end - begin), 4};
    }
  }
  return std::nullopt;
}

}  // namespace wmnsim::transport
