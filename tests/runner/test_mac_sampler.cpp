// Per-interval MAC statistics into Results.

#include "runner/mac_sampler.hpp"

#include <gtest/gtest.h>

#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac {
namespace {
using namespace time_literals;
using testing::MacWorld;

TEST(MacSampler, IntervalSeriesAndTotals) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.params().queue = QueueLimit{QueueLimit::Unit::packets, 5};
  w.build();
  w.taps[a]->saturate(b, 1500);
  // C offers 20 packets at once into a 5-packet queue: 15 overflow drops at t = 0.
  for (int i = 0; i < 20; ++i) w.send(c, b, 1500);
  MacSampler sampler(w.sim,
                     {{w.macs[a].get(), "A", "A", 0}, {w.macs[b].get(), "B", "B", 0}, {w.macs[c].get(), "C", "C", 0}},
                     1_s, {"channel_busyness", "queue_length", "contention_window", "drops", "flow_goodput"});
  sampler.start();
  w.run(3_s);
  Results r;
  sampler.write(r);
  ASSERT_EQ(r.timeseries.count("channel_busyness"), 1u);
  EXPECT_EQ(r.timeseries.count("flow_goodput"), 0u);  // not the MAC's to write
  const TimeSeries& busy = r.timeseries.at("channel_busyness");
  EXPECT_EQ(busy.unit, "ratio");
  ASSERT_EQ(busy.samples.size(), 9u);  // 3 intervals x 3 radios
  EXPECT_DOUBLE_EQ(busy.samples[0].time_s, 1.0);
  EXPECT_EQ(busy.samples[0].id, "A");
  for (const auto& s : busy.samples) {
    EXPECT_GT(s.value, 0.75) << s.id << " at " << s.time_s;  // one saturated link: ~0.82
    EXPECT_LE(s.value, 1.0);
  }
  const TimeSeries& drops = r.timeseries.at("drops");
  EXPECT_DOUBLE_EQ(drops.samples[2].value, 15.0);  // C, first interval
  EXPECT_DOUBLE_EQ(drops.samples[5].value, 0.0);   // C, second interval
  const TimeSeries& queue = r.timeseries.at("queue_length");
  EXPECT_GE(queue.samples[0].value, 1.0);  // A is backlogged
  const TimeSeries& cw = r.timeseries.at("contention_window");
  EXPECT_DOUBLE_EQ(cw.samples[1].value, 32.0);  // B never sends data
  ASSERT_EQ(r.nodes.size(), 3u);
  EXPECT_EQ(r.nodes[2]["node"], "C");
  EXPECT_EQ(r.nodes[2]["drops_queue"], 15u);
  EXPECT_EQ(r.nodes[2]["tx_success"], 5u);
  EXPECT_EQ(r.nodes[0]["tx_success"], w.macs[a]->stats().tx_success);
}

}  // namespace
}  // namespace wmnsim::mac
