// The SACK sender's scoreboard alone (RFC 6675 4): Update, IsLost, SetPipe and
// NextSeg's four rules on hand-computed cases, MSS 1000.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/packet.hpp"
#include "transport/sack_scoreboard.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

constexpr std::uint32_t kMss = 1000;
using Range = SackScoreboard::Range;
using Segment = SackScoreboard::Segment;

TransportHeader ack_with(std::uint64_t ack, const std::vector<Range>& blocks) {
  TransportHeader h;
  h.ack_valid = true;
  h.ack = ack;
  for (const auto& [l, r] : blocks) h.add_sack(l, r);
  return h;
}

// SND.UNA 1000, 8 segments sent (up to 8000); 2, 4 and 6 SACKed: holes at 1, 3, 5, 7.
SackScoreboard three_sacked() {
  SackScoreboard b;
  EXPECT_TRUE(b.update(ack_with(1000, {{6000, 7000}, {4000, 5000}, {2000, 3000}}), 1000, 8000));
  return b;
}

TEST(SackScoreboard, UpdateMergesClipsAndTellsWhetherItLearnedSomething) {
  SackScoreboard b = three_sacked();
  EXPECT_EQ(b.ranges(), (std::vector<Range>{{2000, 3000}, {4000, 5000}, {6000, 7000}}));
  EXPECT_EQ(b.sacked_bytes(), 3000u);
  EXPECT_EQ(b.highest_sacked(), 7000u);
  // The same blocks again: no news (RFC 6675 2: not a duplicate ACK).
  EXPECT_FALSE(b.update(ack_with(1000, {{2000, 3000}, {6000, 7000}}), 1000, 8000));
  // A block touching two others merges them.
  EXPECT_TRUE(b.update(ack_with(1000, {{3000, 4000}}), 1000, 8000));
  EXPECT_EQ(b.ranges(), (std::vector<Range>{{2000, 5000}, {6000, 7000}}));
  // Beyond what was sent, or below SND.UNA: clipped.
  EXPECT_TRUE(b.update(ack_with(1000, {{7000, 9000}}), 1000, 8000));
  EXPECT_EQ(b.ranges().back(), (Range{6000, 8000}));
  // A cumulative ACK into a range trims it.
  EXPECT_FALSE(b.update(ack_with(3000, {}), 3000, 8000));
  EXPECT_EQ(b.ranges().front(), (Range{3000, 5000}));
  EXPECT_TRUE(b.is_sacked(3000));
  EXPECT_FALSE(b.is_sacked(5000));
  b.clear();
  EXPECT_TRUE(b.empty());
}

TEST(SackScoreboard, IsLostCountsRangesAndBytesAbove) {
  const SackScoreboard b = three_sacked();
  EXPECT_TRUE(b.is_lost(1000, kMss));   // three discontiguous ranges above
  EXPECT_FALSE(b.is_lost(3000, kMss));  // two ranges, 2000 bytes: not more than 2 MSS
  EXPECT_FALSE(b.is_lost(5000, kMss));
  EXPECT_EQ(b.lost_below(kMss), 2000u);

  // One range: lost only when more than (DupThresh - 1) * SMSS bytes lie above.
  SackScoreboard two;
  two.add(2000, 4000);
  EXPECT_FALSE(two.is_lost(1000, kMss));  // 2000 bytes
  EXPECT_EQ(two.lost_below(kMss), 0u);
  SackScoreboard more;
  more.add(2000, 4001);
  EXPECT_TRUE(more.is_lost(1000, kMss));  // 2001 bytes
  EXPECT_EQ(more.lost_below(kMss), 2000u);
}

TEST(SackScoreboard, SetPipeCountsUnlostAndRetransmittedBytes) {
  const SackScoreboard b = three_sacked();
  // Unsacked: [1000,2000) lost, [3000,4000), [5000,6000), [7000,8000) not lost.
  EXPECT_EQ(b.pipe(1000, 8000, 1000, kMss), 3000u);
  // Segment 1 retransmitted: counted once (lost, but below HighRxt).
  EXPECT_EQ(b.pipe(1000, 8000, 2000, kMss), 4000u);
  // Segment 3 retransmitted too (rule 3): not lost and retransmitted, twice.
  EXPECT_EQ(b.pipe(1000, 8000, 4000, kMss), 5000u);
  // Nothing SACKed: RFC 5681's FlightSize.
  EXPECT_EQ(SackScoreboard{}.pipe(1000, 8000, 1000, kMss), 7000u);
}

SackScoreboard::SenderState state(std::uint64_t high_rxt, std::uint64_t data_end) {
  SackScoreboard::SenderState s;
  s.una = 1000;
  s.high_data = 8000;
  s.high_rxt = high_rxt;
  s.data_end = data_end;
  s.window_end = 1000 + 64 * kMss;
  s.mss = kMss;
  return s;
}

TEST(SackScoreboard, NextSegFollowsRfc6675RulesInOrder) {
  const SackScoreboard b = three_sacked();
  // Rule 1: the first lost hole above HighRxt.
  EXPECT_EQ(b.next_seg(state(1000, 20000)), (Segment{1000, 1000, 1}));
  // Hole 1 retransmitted: hole 3 is not lost, so rule 2 sends new data.
  EXPECT_EQ(b.next_seg(state(2000, 20000)), (Segment{8000, 1000, 2}));
  // The last new bytes: a short segment.
  EXPECT_EQ(b.next_seg(state(2000, 8300)), (Segment{8000, 300, 2}));
  // No new data (or no window for it): rule 3 sends the unlost hole 3.
  EXPECT_EQ(b.next_seg(state(2000, 8000)), (Segment{3000, 1000, 3}));
  auto closed = state(2000, 20000);
  closed.window_end = 8500;
  EXPECT_EQ(b.next_seg(closed), (Segment{3000, 1000, 3}));
  // Every hole below the highest SACKed byte retransmitted: rule 4, the rescue
  // retransmission of the highest unSACKed segment, once (RescueRxt).
  EXPECT_EQ(b.next_seg(state(6000, 8000)), (Segment{7000, 1000, 4}));
  auto rescued = state(6000, 8000);
  rescued.rescue_rxt = 8000;
  EXPECT_EQ(b.next_seg(rescued), std::nullopt);
  // Rule 4 when the highest SACKed range reaches HighData: the hole below it.
  SackScoreboard top;
  top.add(3000, 8000);
  auto s = state(3000, 8000);
  EXPECT_EQ(top.next_seg(s), (Segment{2000, 1000, 4}));
}

TEST(SackScoreboard, NextSegStopsAHoleSegmentAtTheNextSackedByte) {
  SackScoreboard b;
  b.add(1500, 2000);
  b.add(2500, 3000);
  b.add(3500, 4000);
  // Lost: three ranges above 1000. The hole [1000, 1500) is half a segment.
  EXPECT_EQ(b.next_seg(state(1000, 20000)), (Segment{1000, 500, 1}));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
