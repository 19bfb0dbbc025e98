// Per-interval MAC statistics into Results.

#include "runner/mac_sampler.hpp"

#include <gtest/gtest.h>

#include <string>

#include "results/result_columns.hpp"
#include "tests/mac/mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

// A sampler's list of radios, counting how often it is asked for.
MacSampler::RadioList listing(std::vector<MacSampler::Radio> radios, int* asked = nullptr) {
  return [radios, asked] {
    if (asked != nullptr) ++*asked;
    return radios;
  };
}

TEST(MacSampler, ListsItsRadiosForTheRunOnlyWhenItSamples) {
  // Issue 43 §3: without a MAC time series nothing per radio is held during the
  // run; the radios table is written all the same.
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6);
  const auto a = w.add(), b = w.add();
  w.build();
  w.taps[a]->saturate(b, 1500);
  int asked = 0;
  MacSampler quiet(w.sim, listing({{w.macs[a].get(), "A", 0}, {w.macs[b].get(), "B", 0}}, &asked), 1_s,
                   {"flow_goodput"});
  quiet.start();
  EXPECT_EQ(asked, 0);
  int asked_sampling = 0;
  MacSampler sampling(w.sim, listing({{w.macs[a].get(), "A", 0}, {w.macs[b].get(), "B", 0}}, &asked_sampling),
                      1_s, {"queue_length"});
  sampling.start();
  EXPECT_EQ(asked_sampling, 1);
  w.run(2_s);
  Results quiet_results, sampling_results;
  quiet.write(quiet_results);
  sampling.write(sampling_results);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(asked_sampling, 1);  // the list it holds
  ASSERT_EQ(quiet_results.radios.size(), 2u);
  ASSERT_EQ(sampling_results.radios.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(quiet_results.radios[i].dump(), sampling_results.radios[i].dump());
}

TEST(MacSampler, IntervalSeriesAndTotals) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6);
  const auto a = w.add(), b = w.add(), c = w.add();
  w.params().queue = link::QueueLimit{link::QueueLimit::Unit::packets, 5};
  w.build();
  w.taps[a]->saturate(b, 1500);
  // C offers 20 packets at once into a 5-packet queue: 15 overflow drops at t = 0.
  for (int i = 0; i < 20; ++i) w.send(c, b, 1500);
  MacSampler sampler(w.sim,
                     listing({{w.macs[a].get(), "A", 0}, {w.macs[b].get(), "B", 0}, {w.macs[c].get(), "C", 0}}),
                     1_s, {"channel_busyness", "channel_busyness_ns2", "queue_length", "contention_window", "drops", "flow_goodput"});
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
  // ns-2's measure counts at least as much, in every interval (docs/mac.md).
  const TimeSeries& busy_ns2 = r.timeseries.at("channel_busyness_ns2");
  EXPECT_EQ(busy_ns2.unit, "ratio");
  ASSERT_EQ(busy_ns2.samples.size(), busy.samples.size());
  for (std::size_t i = 0; i < busy.samples.size(); ++i) {
    EXPECT_EQ(busy_ns2.samples[i].id, busy.samples[i].id);
    EXPECT_GE(busy_ns2.samples[i].value, busy.samples[i].value) << busy.samples[i].id << " at " << busy.samples[i].time_s;
    EXPECT_LE(busy_ns2.samples[i].value, 1.0);
  }
  const TimeSeries& drops = r.timeseries.at("drops");
  EXPECT_DOUBLE_EQ(drops.samples[2].value, 15.0);  // C, first interval
  EXPECT_DOUBLE_EQ(drops.samples[5].value, 0.0);   // C, second interval
  const TimeSeries& queue = r.timeseries.at("queue_length");
  EXPECT_GE(queue.samples[0].value, 1.0);  // A is backlogged
  const TimeSeries& cw = r.timeseries.at("contention_window");
  EXPECT_DOUBLE_EQ(cw.samples[1].value, 32.0);  // B never sends data
  EXPECT_TRUE(r.nodes.empty());  // the radios table has the per-radio rows
  ASSERT_EQ(r.radios.size(), 3u);
  EXPECT_EQ(radio_column::id.of(r.radios[2]), "C:0");
  EXPECT_EQ(radio_column::node.of(r.radios[2]), "C");
  EXPECT_EQ(radio_column::radio.of(r.radios[2]), 0u);
  EXPECT_EQ(radio_column::channel.of(r.radios[2]), 1);
  EXPECT_EQ(mac_column::drops_queue.of(r.radios[2]), 15u);
  EXPECT_EQ(mac_column::tx_success.of(r.radios[2]), 5u);
  EXPECT_EQ(mac_column::tx_success.of(r.radios[0]), w.macs[a]->stats().tx_success);
  // C's five frames waited behind one another: queueing delays 0 .. 4 services.
  EXPECT_EQ(kMacQueueingDelay.p50_s.of(r.radios[2]), *w.macs[c]->queueing_delays().summary().p50_s);
  EXPECT_GT(kMacQueueingDelay.mean_s.of(r.radios[2]), 0.0);
  EXPECT_FALSE(kMacServiceDelay.mean_s.value_in(r.radios[1]).has_value());  // B sent only ACKs
  EXPECT_EQ(radio_column::txop_limit_frames.of(r.radios[0]), 0);  // DCF: one frame per access
  EXPECT_EQ(radio_column::txop_limit_s.of(r.radios[0]), 0.0);
  EXPECT_EQ(radio_column::cw_min.of(r.radios[0]), 32);
}

double value_at(const TimeSeries& ts, double t, const std::string& id) {
  for (const auto& s : ts.samples) {
    if (s.time_s == t && s.id == id) return s.value;
  }
  ADD_FAILURE() << "no sample of " << id << " at " << t;
  return -1.0;
}

TEST(MacSampler, TxopLimitFollowsSetParamsPerAccessCategory) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, MacType::edca);
  const auto a = w.add(), b = w.add();
  w.build();
  w.taps[a]->saturate(b, 1500);
  MacSampler sampler(w.sim, listing({{w.macs[a].get(), "A", 0}, {w.macs[b].get(), "B", 1}}), 1_s, {"txop_limit"});
  sampler.start();
  w.run(1500_ms);
  // What a controller does (002's edca_txop): a TXOP of 4 frames for A's AC_BE.
  EdcaParams be = w.macs[a]->params(AccessCategory::ac_be);
  be.txop = TxopLimit{Time::zero(), 4};
  w.macs[a]->set_params(AccessCategory::ac_be, be);
  w.run(3_s);
  Results r;
  sampler.write(r);
  const TimeSeries& frames = r.timeseries.at("txop_limit");
  EXPECT_EQ(frames.unit, "frames");
  EXPECT_EQ(value_at(frames, 1.0, "A:ac_be"), 1.0);  // 802.11's default: one frame
  EXPECT_EQ(value_at(frames, 2.0, "A:ac_be"), 4.0);
  EXPECT_EQ(value_at(frames, 3.0, "A:ac_be"), 4.0);
  EXPECT_EQ(value_at(frames, 3.0, "B/1:ac_be"), 1.0);
  EXPECT_EQ(value_at(frames, 3.0, "A:ac_bk"), 1.0);
  // AC_VI and AC_VO default to time limits (802.11b: 6.016 and 3.264 ms): the other kind.
  const TimeSeries& time = r.timeseries.at("txop_limit_time");
  EXPECT_EQ(time.unit, "s");
  EXPECT_DOUBLE_EQ(value_at(time, 2.0, "A:ac_vi"), 6.016e-3);
  EXPECT_DOUBLE_EQ(value_at(time, 2.0, "B/1:ac_vo"), 3.264e-3);
  // One sample per radio, category and interval, across the two kinds.
  EXPECT_EQ(frames.samples.size() + time.samples.size(), 3u * 2u * 4u);
  // The radios table has the limit in force at the end, and A really bursts.
  EXPECT_EQ(radio_column::id.of(r.radios[0]), "A:0");
  EXPECT_EQ(radio_column::txop_limit_frames.of(r.radios[0]), 4);
  EXPECT_EQ(radio_column::id.of(r.radios[1]), "B:1");
  EXPECT_EQ(radio_column::txop_limit_frames.of(r.radios[1]), 0);
  EXPECT_GT(w.macs[a]->stats().txop_continuations, 0u);
}

TEST(MacSampler, TxopLimitUnderDcfIsOneSeriesPerRadio) {
  MacWorld w(phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6);
  const auto a = w.add(), b = w.add();
  w.build();
  MacSampler sampler(w.sim, listing({{w.macs[a].get(), "A", 0}, {w.macs[b].get(), "B", 0}}), 1_s, {"txop_limit"});
  sampler.start();
  w.run(2_s);
  Results r;
  sampler.write(r);
  const TimeSeries& frames = r.timeseries.at("txop_limit");
  ASSERT_EQ(frames.samples.size(), 4u);
  EXPECT_EQ(frames.samples[0].id, "A");
  EXPECT_EQ(frames.samples[0].value, 1.0);
  EXPECT_EQ(r.timeseries.count("txop_limit_time"), 0u);  // no time limit anywhere
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
