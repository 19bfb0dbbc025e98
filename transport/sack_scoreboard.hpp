#pragma once
// The SACK sender's scoreboard (RFC 6675 2, 4): which bytes between SND.UNA and
// the highest byte sent the receiver reported holding out of order (RFC 2018
// blocks), and the routines of RFC 6675 4 that read it: IsLost, SetPipe and
// NextSeg. Plain bookkeeping, no timers: TcpSender drives it.
//
// Positions are byte sequence numbers with exclusive ends: `high_data` is one
// past the highest byte sent (RFC 6675's HighData + 1), `high_rxt` one past the
// highest byte retransmitted (HighRxt + 1), `una` is HighACK + 1.
//
// Cost: O(ranges) per call (ranges are disjoint holes' neighbours, at most about
// the window in segments), no allocation once the vector has grown.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/packet.hpp"

namespace wmnsim::transport {

class SackScoreboard {
 public:
  using Range = std::pair<std::uint64_t, std::uint64_t>;  // [first, second)
  // RFC 6675 2: DupThresh, the duplicate ACKs (or SACKed segments) that signal a loss.
  static constexpr std::uint32_t kDupThresh = 3;

  // What NextSeg needs from the sender.
  struct SenderState {
    std::uint64_t una = 0;         // HighACK + 1
    std::uint64_t high_data = 0;   // HighData + 1
    std::uint64_t high_rxt = 0;    // HighRxt + 1 (una when nothing was retransmitted)
    std::uint64_t data_end = 0;    // one past the last byte the application offered
    std::uint64_t window_end = 0;  // una + the receiver's window: new data must end before it
    std::optional<std::uint64_t> rescue_rxt;  // RescueRxt + 1; empty: undefined
    std::uint32_t mss = 0;
  };
  struct Segment {
    std::uint64_t seq = 0;
    std::uint32_t length = 0;
    int rule = 0;  // the NextSeg rule (1 to 4) that chose it
    bool operator==(const Segment&) const = default;
  };

  // RFC 6675 4 Update(): records the blocks of an ACK (clipped to [una, high_data):
  // what is cumulatively acknowledged or was never sent is no news) and forgets
  // what una now covers. True when a byte not SACKed before is SACKed: RFC 6675 2's
  // condition for a duplicate ACK.
  bool update(const TransportHeader& ack, std::uint64_t una, std::uint64_t high_data);
  // One block; true when it SACKs a byte not SACKed before.
  bool add(std::uint64_t first, std::uint64_t second);
  void discard_below(std::uint64_t una);
  // RFC 2018 8 / RFC 6675 5.1: after a timeout the receiver may have reneged.
  void clear() { ranges_.clear(); }

  bool empty() const { return ranges_.empty(); }
  const std::vector<Range>& ranges() const { return ranges_; }
  bool is_sacked(std::uint64_t seq) const;
  std::uint64_t sacked_bytes() const;
  // One past the highest SACKed byte; 0 when nothing is SACKed.
  std::uint64_t highest_sacked() const { return ranges_.empty() ? 0 : ranges_.back().second; }

  // RFC 6675 4 IsLost(seq): DupThresh discontiguous SACKed ranges lie above seq, or
  // more than (DupThresh - 1) * SMSS SACKed bytes do.
  bool is_lost(std::uint64_t seq, std::uint32_t mss) const;
  // IsLost is monotonic: every unSACKed byte below this is lost, none at or above
  // it (0 when none is).
  std::uint64_t lost_below(std::uint32_t mss) const;
  // RFC 6675 4 SetPipe(), in bytes: every unSACKed byte in [una, high_data) counts
  // once if not lost and once more if retransmitted (below high_rxt).
  std::uint64_t pipe(std::uint64_t una, std::uint64_t high_data, std::uint64_t high_rxt, std::uint32_t mss) const;
  // RFC 6675 4 NextSeg(): the next segment to send during loss recovery, or none.
  std::optional<Segment> next_seg(const SenderState& s) const;

  // The first byte at or after seq that is not SACKed.
  std::uint64_t first_unsacked(std::uint64_t seq) const;
  // Where the hole that holds unSACKed byte seq ends (the next SACKed byte), or limit.
  std::uint64_t hole_end(std::uint64_t seq, std::uint64_t limit) const;

 private:
  // SACKed bytes in [first, second).
  std::uint64_t sacked_between(std::uint64_t first, std::uint64_t second) const;

  std::vector<Range> ranges_;  // disjoint, not touching, sorted
};

}  // namespace wmnsim::transport
