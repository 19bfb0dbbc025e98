// A token-bucket shaper under a real MAC (001 Sec. 4.3): the MAC sends a held head
// exactly when its tokens are complete, not at some later unrelated event, and a
// higher rate set while the head waits brings the send forward. Times are exact on
// an otherwise idle medium (9.3.4.2: a frame for an idle function on a medium idle
// for DIFS goes at once).

#include <gtest/gtest.h>

#include <memory>

#include "link/shaping_queue.hpp"
#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr std::uint32_t kBytes = 1000;

MacWorld dot11b_world() { return MacWorld(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::dcf); }

link::AggregateShaper& install_shaper(MacWorld& w, std::uint32_t a, double rate_bps) {
  link::TokenBucketParams params;
  params.rate_bps = rate_bps;
  params.burst_bytes = 1;  // empty after any packet: each waits for its own tokens
  auto q = std::make_unique<link::AggregateShaper>(link::QueueLimit{link::QueueLimit::Unit::packets, 50}, params, link::PacketClassifier(),
                                             *w.taps[a]);
  link::AggregateShaper& ref = *q;
  w.macs[a]->set_queue(AccessCategory::ac_be, std::move(q));
  return ref;
}

// A packet of flow 0 (packets of no flow are not shaped).
void send_flow(MacWorld& w, std::uint32_t from, std::uint32_t to) {
  PacketPtr p = w.taps[from]->make(to, kBytes);
  p->flow = 0;
  w.macs[from]->enqueue(std::move(p));
}

TEST(MacShaper, EachPacketGoesTheInstantItsTokensAreComplete) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  // 80 kbit/s: a 1000-byte packet (IP size) costs 100 ms of tokens.
  install_shaper(w, a, 80000);
  for (int i = 0; i < 3; ++i) send_flow(w, a, b);
  w.run(1_s);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 3u);
  // The medium has been idle since 0: the first goes after DIFS, taken from the
  // queue then (the bucket's one byte lets it go and leaves 999 bytes of debt).
  const Time difs = w.timing().difs;
  EXPECT_EQ(data[0].at, difs);
  // The debt plus the next packet's byte: 100 ms after each dequeue, to the picosecond.
  EXPECT_EQ(data[1].at, difs + 100_ms);
  EXPECT_EQ(data[2].at, difs + 200_ms);
  EXPECT_EQ(w.taps[b]->delivered.size(), 3u);
}

TEST(MacShaper, AHigherRateSetWhileTheHeadWaitsBringsItForward) {
  MacWorld w = dot11b_world();
  const auto a = w.add(), b = w.add();
  w.build();
  link::AggregateShaper& q = install_shaper(w, a, 8000);  // 1 s per packet
  send_flow(w, a, b);
  send_flow(w, a, b);
  // The first leaves at DIFS (50 us) with 999 bytes of debt; by 100 ms 99.95 are
  // back; at 800 kbit/s (100 bytes/ms) the missing 900.05 take 9.0005 ms.
  w.sim.scheduler().schedule_at(100_ms, [&] { q.set_rate(w.sim.scheduler().now(), 800000); });
  w.run(2_s);
  const auto data = w.taps[a]->sent_of(FrameKind::data);
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(w.timing().difs, 50_us);
  EXPECT_EQ(data[1].at, 109_ms + 500_ns);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
