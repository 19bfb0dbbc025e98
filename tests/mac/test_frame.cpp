// MAC frame sizes and Duration values, computed by hand from IEEE 802.11-2012
// clause 8.3 and the airtime formulas (phy/airtime.hpp); the arithmetic is written
// next to each value.
#include "mac/frame.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "phy/airtime.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"
#include "phy/radio.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const phy::Mcs& dsss(int i) { return phy::kDsssMcs.at(static_cast<std::size_t>(i)); }
const phy::Mcs& ofdm(int i) { return phy::kOfdmMcs.at(static_cast<std::size_t>(i)); }

TEST(Frame, Sizes) {
  EXPECT_EQ(mpdu_bytes(FrameKind::ack), 14u);
  EXPECT_EQ(mpdu_bytes(FrameKind::cts), 14u);
  EXPECT_EQ(mpdu_bytes(FrameKind::rts), 20u);
  // 24 header + 8 LLC/SNAP + 1500 IP + 4 FCS; QoS adds the 2-octet QoS Control.
  EXPECT_EQ(mpdu_bytes(FrameKind::data, 1500), 1536u);
  EXPECT_EQ(mpdu_bytes(FrameKind::qos_data, 1500), 1538u);
  // A 40-octet pure TCP ACK: 24 + 8 + 40 + 4.
  EXPECT_EQ(mpdu_bytes(FrameKind::data, 40), 76u);
}

TEST(Frame, CarriesItsPacketAndSizesFromIt) {
  static_assert(!std::is_copy_constructible_v<Frame>);
  static_assert(std::is_move_constructible_v<Frame>);
  static_assert(std::is_same_v<phy::RadioId, std::uint32_t>);  // MacAddress wraps it
  PacketPool pool;
  Frame f;
  f.kind = FrameKind::qos_data;
  f.transmitter = MacAddress(3);
  f.receiver = MacAddress(7);
  f.access_category = AccessCategory::ac_vo;
  f.packet = pool.make(Time::zero());
  f.packet->size_bytes = 1500;
  EXPECT_EQ(f.size_bytes(), 1538u);
  Frame moved = std::move(f);
  EXPECT_EQ(moved.packet->size_bytes, 1500u);
  EXPECT_EQ(moved.receiver.radio(), 7u);
  EXPECT_FALSE(moved.receiver.is_broadcast());

  Frame ack;
  ack.kind = FrameKind::ack;
  EXPECT_EQ(ack.size_bytes(), 14u);
  EXPECT_TRUE(ack.receiver.is_broadcast());  // until set
  EXPECT_EQ(MacAddress::broadcast(), MacAddress(0xffff'ffff));
}

TEST(FrameDuration, RoundsUpToWholeMicroseconds) {
  EXPECT_EQ(duration_field(Time::zero()), Time::zero());
  EXPECT_EQ(duration_field(Time::ps(1)), Time::us(1));
  EXPECT_EQ(duration_field(Time::ns(10'500)), Time::us(11));
  EXPECT_EQ(duration_field(Time::us(44)), Time::us(44));
  EXPECT_EQ(duration_field(kMaxDuration), Time::us(32767));
  EXPECT_THROW(duration_field(Time::us(32768)), std::logic_error);
  EXPECT_THROW(duration_field(Time::zero() - Time::us(1)), std::logic_error);
}

// 802.11b, long preamble, 11 Mbit/s data, 2 Mbit/s control (000 Table 3):
//   ACK, CTS (14 B) at 2 Mbit/s: 192 + 112/2 = 248 us; RTS (20 B): 192 + 80 = 272 us
//   DATA (1536 B) at 11 Mbit/s: 192 + ceil(12288 / 11) = 192 + 1118 = 1310 us
TEST(FrameDuration, Dot11bExchange) {
  const phy::PhyProfile b = phy::profile_80211b();
  const Time ack = phy::airtime(b, dsss(1), mpdu_bytes(FrameKind::ack));
  const Time cts = phy::airtime(b, dsss(1), mpdu_bytes(FrameKind::cts));
  const Time data = phy::airtime(b, dsss(3), mpdu_bytes(FrameKind::data, 1500));
  ASSERT_EQ(ack, Time::us(248));
  ASSERT_EQ(cts, Time::us(248));
  ASSERT_EQ(data, Time::us(1310));
  EXPECT_EQ(data_duration(ack, b.sifs), Time::us(10 + 248));
  const Time rts = rts_duration(data, cts, ack, b.sifs);
  EXPECT_EQ(rts, Time::us(248 + 1310 + 248 + 3 * 10));  // 1836
  EXPECT_EQ(cts_duration(rts, cts, b.sifs), Time::us(1836 - 10 - 248));  // 1578
  // The CTS's NAV ends where the RTS's does: at the end of the ACK.
  EXPECT_EQ(cts + b.sifs + cts_duration(rts, cts, b.sifs), rts);
  EXPECT_EQ(ack_duration(), Time::zero());
}

// 802.11a, 54 Mbit/s data, 24 Mbit/s control:
//   ACK/CTS at 24 (96 bits/symbol): 20 + 4 ceil((16 + 112 + 6) / 96) = 20 + 8 = 28 us
//   DATA (1536 B) at 54 (216 bits/symbol): 20 + 4 ceil(12310 / 216) = 20 + 228 = 248 us
TEST(FrameDuration, Dot11aExchange) {
  const phy::PhyProfile a = phy::profile_80211a();
  const Time ack = phy::airtime(a, ofdm(4), mpdu_bytes(FrameKind::ack));
  const Time data = phy::airtime(a, ofdm(7), mpdu_bytes(FrameKind::data, 1500));
  ASSERT_EQ(ack, Time::us(28));
  ASSERT_EQ(data, Time::us(248));
  EXPECT_EQ(data_duration(ack, a.sifs), Time::us(44));
  const Time rts = rts_duration(data, ack, ack, a.sifs);
  EXPECT_EQ(rts, Time::us(28 + 248 + 28 + 48));  // 352
  EXPECT_EQ(cts_duration(rts, ack, a.sifs), Time::us(352 - 16 - 28));
}

TEST(FrameDuration, FractionalAirtimesRoundUp) {
  // A CTS lasting 20.5 us (not a real rate; checks the rounding rule alone).
  const Time cts = Time::ns(20'500);
  EXPECT_EQ(cts_duration(Time::us(100), cts, Time::us(16)), Time::us(64));  // 63.5 -> 64
  EXPECT_EQ(rts_duration(Time::us(100), cts, cts, Time::us(16)), Time::us(189));  // 189.0
  EXPECT_EQ(rts_duration(Time::ns(100'100), cts, cts, Time::us(16)), Time::us(190));  // 189.1
}

TEST(FrameDuration, TxopRemaining) {
  // A frame ending 1200 us into a 3008 us TXOP protects the remaining 1808 us.
  const Time start = Time::us(1000);
  EXPECT_EQ(txop_remaining_duration(start + Time::us(1200), start + Time::us(3008)), Time::us(1808));
  // At or past the end: nothing left to protect.
  EXPECT_EQ(txop_remaining_duration(start + Time::us(3008), start + Time::us(3008)), Time::zero());
  EXPECT_EQ(txop_remaining_duration(start + Time::us(3100), start + Time::us(3008)), Time::zero());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
