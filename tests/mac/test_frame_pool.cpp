// The MAC's frames come from its medium's BlockPool: held there while on the air
// (the sender keeps no handle), the ACK from another block while the DATA it
// answers is still held, every block back in the pool when the network falls
// silent, and a saturated run that reuses a handful of blocks for thousands of
// frames.

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "mac/frame.hpp"
#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1500;

MacWorld dot11b_world() { return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6); }

TEST(FramePool, FramesLiveInTheMediumsPoolWhileOnTheAirOnly) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  const BlockPool& frames = w.medium.payload_pool();
  w.send(a, b, kBytes);
  const MacTiming t = w.timing();
  const Time data = w.airtime_data(kBytes);
  const Time ack = w.airtime_control(kAckBytes);
  // Samples taken mid-DATA, mid-SIFS (the ACK waits in B's MAC) and mid-ACK.
  std::vector<std::size_t> live;
  for (const Time at : {t.difs + data / 2, t.difs + data + t.sifs / 2, t.difs + data + t.sifs + ack / 2,
                        t.difs + data + t.sifs + ack + 1_us}) {
    w.sim.scheduler().schedule_at(at, [&] { live.push_back(frames.live()); });
  }
  w.run(10_ms);
  // The DATA frame on the air; the ACK waiting (the DATA released at its end);
  // the ACK on the air; nothing.
  EXPECT_EQ(live, (std::vector<std::size_t>{1, 1, 1, 0}));
  ASSERT_EQ(w.taps[b]->delivered.size(), 1u);
  EXPECT_EQ(w.taps[b]->sent_of(FrameKind::ack).size(), 1u);
  EXPECT_EQ(frames.live(), 0u);
  EXPECT_EQ(frames.capacity(), 64u);  // one chunk
}

// Receives every frame and checks that what arrives is what was sent: a block
// reused while a receiver still held its frame would show another frame's fields.
class FrameCheck final : public MacObserver {
 public:
  void on_frame_sent(std::uint32_t radio, const Frame& f, Time) override {
    last_sent[radio] = Sent{f.kind, f.sequence};
    ++sent;
  }
  void on_frame_received(std::uint32_t, const Frame& f) override {
    ++received;
    const Sent& s = last_sent.at(f.transmitter.radio());
    if (f.kind != s.kind || (is_data(f.kind) && f.sequence != s.sequence)) ++mismatches;
    if (is_data(f.kind) && f.packet == nullptr) ++mismatches;
  }
  struct Sent {
    FrameKind kind = FrameKind::data;
    std::uint16_t sequence = 0;
  };
  std::vector<Sent> last_sent = std::vector<Sent>(3);
  std::size_t sent = 0;
  std::size_t received = 0;
  std::size_t mismatches = 0;
};

TEST(FramePool, SaturatedRunReusesAFewBlocksAndReturnsThemAll) {
  // Three stations in range of each other, all saturated towards the next: DATA,
  // ACK, collisions and retries, overlapping frames at a receiver.
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add(), c = w.add();
  w.build();
  FrameCheck check;
  // A second observer beside each MAC's tap (mac_world.hpp): both see every frame.
  for (auto& m : w.macs) m->subscribe(check);
  w.taps[a]->saturate(b, kBytes);
  w.taps[b]->saturate(c, kBytes);
  w.taps[c]->saturate(a, kBytes);
  w.run(2_s);
  std::uint64_t attempts = 0;
  for (auto& m : w.macs) attempts += m->stats().data_attempts + m->stats().acks_sent;
  const BlockPool& frames = w.medium.payload_pool();
  EXPECT_GT(attempts, 1000u);
  EXPECT_GT(check.received, 1000u);
  EXPECT_EQ(check.mismatches, 0u);
  std::size_t tapped = 0;
  for (auto& tap : w.taps) tapped += tap->sent.size();
  EXPECT_EQ(check.sent, tapped);
  EXPECT_EQ(frames.capacity(), 64u);
  EXPECT_LE(frames.live(), 3u);  // at most one frame per station outstanding
  // Let the queues drain: once the network is silent every block is back.
  for (auto& tap : w.taps) tap->saturate_to.reset();
  w.run(4_s);
  EXPECT_EQ(frames.live(), 0u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
