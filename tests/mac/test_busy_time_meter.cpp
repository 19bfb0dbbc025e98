// BusyTimeMeter alone: 003's channel busyness and ns-2's is_idle() accounting on
// hand-written sequences of changes, each at an exact time (the meter takes the
// time of every call; no scheduler).

#include <gtest/gtest.h>

#include "mac/busy_time_meter.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

// 802.11b at 1 Mbit/s, long preamble: SIFS 10 us, ACK and CTS 304 us.
MacTiming timing() {
  MacTiming t{};
  t.slot = 20_us;
  t.sifs = 10_us;
  t.difs = 50_us;
  t.eifs = 364_us;
  t.ack_airtime = 304_us;
  t.cts_airtime = 304_us;
  t.rts_airtime = 352_us;
  return t;
}

TEST(BusyTimeMeter, ChannelBusyTimeSumsTheBusyPeriodsUpToNow) {
  BusyTimeMeter m(false);
  m.channel(true, 10_us);
  m.channel(true, 20_us);  // no change: the period goes on
  EXPECT_EQ(m.channel_busy_time(25_us), 15_us);  // the open period counts up to now
  m.channel(false, 30_us);
  EXPECT_EQ(m.channel_busy_time(40_us), 20_us);
  m.channel(true, 50_us);
  EXPECT_EQ(m.channel_busy_time(60_us), 30_us);
  m.channel(false, 100_us);
  EXPECT_EQ(m.channel_busy_time(1_ms), 70_us);
}

TEST(BusyTimeMeter, ChannelBusyAtTheStartCountsFromZero) {
  BusyTimeMeter m(true);
  m.channel(false, 40_us);
  EXPECT_EQ(m.channel_busy_time(100_us), 40_us);
}

TEST(BusyTimeMeter, Ns2SendTimerKeepsTheStationBusyUntilTheAckWouldHaveEnded) {
  // A unicast DATA of 1000 us sent at 0: ns-2's mhSend_ runs until 1000 + 2 + SIFS +
  // ACK + 2 = 1318 us. The cause (our transmission) lasts 1000 us.
  const MacTiming t = timing();
  BusyTimeMeter m(false);
  m.ns2_arm_send_timer(Ns2SendWait::ack, 0_us, 1000_us, 314_us, t);
  m.ns2_update(true, 0_us);
  m.ns2_update(false, 1000_us);
  EXPECT_EQ(m.ns2_busy_time(1100_us), 1100_us);
  EXPECT_EQ(m.ns2_busy_time(5_ms), 1318_us);  // not beyond the timer
  // The next change closes the period at the timer's end, not at its own time.
  m.ns2_update(true, 2000_us);
  EXPECT_EQ(m.ns2_busy_time(2100_us), 1318_us + 100_us);
}

TEST(BusyTimeMeter, Ns2AckStopsTheSendTimer) {
  const MacTiming t = timing();
  BusyTimeMeter m(false);
  m.ns2_arm_send_timer(Ns2SendWait::ack, 0_us, 1000_us, 314_us, t);
  m.ns2_update(true, 0_us);
  m.ns2_update(false, 1000_us);
  m.ns2_update(true, 1010_us);  // the ACK arrives (CCA busy)
  m.ns2_update(false, 1314_us);
  m.ns2_stop_send_timer(1314_us);  // recvACK
  m.ns2_update(false, 1314_us);
  EXPECT_EQ(m.ns2_busy_time(2_ms), 1314_us);
}

TEST(BusyTimeMeter, Ns2CtsSenderWaitsForTheAnnouncedData) {
  // A CTS of 304 us at 0 whose Duration is 1500 us: busy until 304 + 2 + 1500 + 2 -
  // SIFS - ACK = 1494 us, unless the DATA arrives (recvDATA stops it).
  const MacTiming t = timing();
  BusyTimeMeter m(false);
  m.ns2_arm_send_timer(Ns2SendWait::data_after, 0_us, 304_us, 1500_us, t);
  EXPECT_TRUE(m.ns2_waiting_for_data());
  m.ns2_update(true, 0_us);
  m.ns2_update(false, 304_us);
  EXPECT_EQ(m.ns2_busy_time(10_ms), 1494_us);
  m.ns2_stop_send_timer(900_us);
  EXPECT_FALSE(m.ns2_waiting_for_data());
}

TEST(BusyTimeMeter, Ns2EifsNavIsADeadlineNotRenewed) {
  // A frame lost at 100 us: ns-2 sets its NAV for EIFS (364 us) from there. A second
  // loss inside that window only extends it to its own end.
  BusyTimeMeter m(false);
  m.ns2_update(true, 0_us);  // the lost frame on the air
  m.ns2_nav_until(100_us + 364_us);
  m.ns2_update(false, 100_us);
  EXPECT_EQ(m.ns2_busy_time(1_ms), 464_us);
  m.ns2_nav_until(300_us);  // earlier than the deadline: no change
  m.ns2_update(false, 200_us);
  EXPECT_EQ(m.ns2_busy_time(1_ms), 464_us);
  // Unlike the standard's EIFS, a later idle period does not bring it back.
  m.ns2_update(true, 2000_us);
  m.ns2_update(false, 2100_us);
  EXPECT_EQ(m.ns2_busy_time(3_ms), 564_us);
}

TEST(BusyTimeMeter, BroadcastArmsNoWait) {
  const MacTiming t = timing();
  BusyTimeMeter m(false);
  m.ns2_arm_send_timer(Ns2SendWait::none, 0_us, 500_us, 0_us, t);
  m.ns2_update(true, 0_us);
  m.ns2_update(false, 500_us);
  EXPECT_EQ(m.ns2_busy_time(1_ms), 500_us);
  EXPECT_EQ(m.channel_busy_time(1_ms), 0_us);  // the two meters are apart: nobody told channel()
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
