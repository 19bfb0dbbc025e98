// ns-3 3.44's departures from 802.11-2012 that wmnsim models as options, off by
// default (mac/mac_params.hpp; docs/validation.md), at exact times.
//
// mac.immediate_access: a frame queued at B the instant B gets
// A's DATA (as a TCP receiver's ACK or a relayed packet is), while B's own ACK is due
// a SIFS later. The standard (9.3.4.2, 9.3.4.3) sees a busy medium and backs off;
// ns-3 3.44 sees an idle one and sends DIFS after its ACK with no backoff. Exact
// times: co-located radios, backoff draws replayed from an identical stream.

#include <gtest/gtest.h>

#include <vector>

#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1500;
constexpr std::uint32_t kReplyBytes = 52;  // a TCP ACK with timestamps

struct Reply {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 2e6};
  std::uint32_t a = 0, b = 0;
  explicit Reply(ImmediateAccess mode) {
    w.params().immediate_access = mode;
    a = w.add();
    b = w.add();
    w.build();
    w.taps[b]->reply_on_delivery = std::pair{a, kReplyBytes};
    w.send(a, b, kBytes);
    w.run(20_ms);
  }
  Time ack_end() const {
    const auto acks = w.taps[b]->sent_of(FrameKind::ack);
    return acks.at(0).at + acks.at(0).airtime;
  }
  Time reply_at() const { return w.taps[b]->sent_of(FrameKind::data).at(0).at; }
};

TEST(ImmediateAccess, StandardBacksOffAfterItsOwnAck) {
  Reply r(ImmediateAccess::standard);
  const MacTiming t = r.w.timing();
  const Time data = r.w.airtime_data(kBytes);
  EXPECT_EQ(r.w.taps[r.b]->delivered.at(0).first, t.difs + data);
  EXPECT_EQ(r.ack_end(), t.difs + data + t.sifs + r.w.airtime_control(kAckBytes));
  // Queued while B's ACK was due: the medium is busy (9.3.4.3), the first draw counts.
  RandomStream draws = r.w.backoff_stream(r.b);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  EXPECT_EQ(r.reply_at(), r.ack_end() + t.difs + k * t.slot);
}

TEST(ImmediateAccess, Ns3SendsDifsAfterItsOwnAckWithoutBackoff) {
  Reply r(ImmediateAccess::ns3);
  const MacTiming t = r.w.timing();
  EXPECT_EQ(r.reply_at(), r.ack_end() + t.difs);
  EXPECT_EQ(r.w.macs[r.a]->stats().tx_success, 1u);
  EXPECT_EQ(r.w.macs[r.b]->stats().tx_success, 1u);
}

TEST(ImmediateAccess, Ns3StillBacksOffForAFrameQueuedWhileTheChannelIsBusy) {
  // C's frame queued at B while A's DATA is on the air: busy by the channel itself,
  // so ns-3 draws a backoff too (its IsBusy(): RX in progress).
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 2e6};
  w.params().immediate_access = ImmediateAccess::ns3;
  const auto a = w.add(), b = w.add();
  w.build();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  w.send_at(t.difs + 100_us, b, a, kReplyBytes);
  w.run(20_ms);
  const auto acks = w.taps[b]->sent_of(FrameKind::ack);
  const Time ack_end = acks.at(0).at + acks.at(0).airtime;
  RandomStream draws = w.backoff_stream(b);
  const auto k = static_cast<std::int64_t>(draws.uniform_int(32));
  EXPECT_EQ(w.taps[b]->sent_of(FrameKind::data).at(0).at, ack_end + t.difs + k * t.slot);
}

// mac.cw_after_drop: A sends two frames to a B that never answers. Each frame is
// given up at its 7th attempt. The standard resets CW after the drop (9.3.3), so the
// second frame's first backoff is drawn from 32 slots; ns-3 keeps the window of the
// last failure (1024), and the second frame's first failure, with the station count
// at the limit, resets it to 32.
std::vector<Time> two_dropped_frames(CwAfterDrop mode, std::vector<int> windows) {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6};
  w.params().cw_after_drop = mode;
  const auto a = w.add(), b = w.add();
  w.hide(a, b);
  w.build();
  w.send(a, b, kBytes);
  w.send(a, b, kBytes);
  w.run(2_s);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const auto& sa = w.taps[a]->sent;
  EXPECT_EQ(sa.size(), 14u);
  EXPECT_EQ(w.taps[a]->drops.size(), 2u);
  RandomStream draws = w.backoff_stream(a);
  std::vector<Time> expected{t.difs};
  for (std::size_t i = 0; i + 1 < 14; ++i) {
    const auto k = static_cast<std::int64_t>(draws.uniform_int(static_cast<std::uint64_t>(windows.at(i))));
    expected.push_back(expected.back() + data + t.ack_timeout + t.difs + k * t.slot);
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(sa.size(), 14); ++i) {
    EXPECT_EQ(sa[i].at, expected[i]) << "attempt " << i;
  }
  return expected;
}

TEST(CwAfterDrop, ResetDrawsTheNextFramesBackoffFromCwMin) {
  // After each failure of frame 1: 64 .. 1024; after its drop: 32; then frame 2 doubles again.
  two_dropped_frames(CwAfterDrop::reset, {64, 128, 256, 512, 1024, 1024, 32, 64, 128, 256, 512, 1024, 1024});
}

TEST(CwAfterDrop, Ns3KeepsTheWindowThroughTheDropAndResetsAtTheNextFailure) {
  // Station count 1..7 over frame 1 (the 7th failure, the drop, gives 32 x 2^7 capped:
  // 1024); frame 2's first failure finds it at the limit: 0 and 32; then 1..6.
  two_dropped_frames(CwAfterDrop::ns3, {64, 128, 256, 512, 1024, 1024, 1024, 32, 64, 128, 256, 512, 1024});
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
