// MAC timing from PHY profiles, against values computed by hand (mac_timing.hpp
// gives the formulas and clauses).
#include "mac/mac_timing.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const phy::Mcs& dsss(int i) { return phy::kDsssMcs.at(static_cast<std::size_t>(i)); }
const phy::Mcs& ofdm(int i) { return phy::kOfdmMcs.at(static_cast<std::size_t>(i)); }

// 802.11b, long preamble, 2 Mbit/s control rate: paper 000 Table 3.
TEST(MacTiming, Dot11bLongPreamble) {
  const MacTiming t = mac_timing(phy::profile_80211b(), dsss(1));
  EXPECT_EQ(t.slot, Time::us(20));
  EXPECT_EQ(t.sifs, Time::us(10));
  EXPECT_EQ(t.difs, Time::us(50));  // 10 + 2 x 20
  // 10 + 50 + 304 (14 B ACK at 1 Mbit/s: 192 + 112) = 364, as 000 Table 3 says.
  EXPECT_EQ(t.eifs, Time::us(364));
  EXPECT_EQ(t.rx_start_delay, Time::us(192));
  EXPECT_EQ(t.ack_timeout, Time::us(10 + 20 + 192));
  EXPECT_EQ(t.cts_timeout, t.ack_timeout);
  EXPECT_EQ(t.ack_airtime, Time::us(192 + 56));  // 112 bits at 2 Mbit/s
  EXPECT_EQ(t.cts_airtime, Time::us(248));
  EXPECT_EQ(t.rts_airtime, Time::us(192 + 80));  // 160 bits at 2 Mbit/s
  EXPECT_EQ(t.control_rate, &dsss(1));
  EXPECT_EQ(t.aifs(2), t.difs);
  EXPECT_EQ(t.aifs(3), Time::us(70));
  EXPECT_EQ(t.aifs(7), Time::us(150));
}

TEST(MacTiming, Dot11bOneMbitControl) {
  const MacTiming t = mac_timing(phy::profile_80211b(), dsss(0));
  EXPECT_EQ(t.ack_airtime, Time::us(304));
  EXPECT_EQ(t.rts_airtime, Time::us(192 + 160));
  EXPECT_EQ(t.eifs, t.sifs + t.ack_airtime + t.difs);  // EIFS's ACK is exactly this one
}

TEST(MacTiming, Dot11bShortPreamble) {
  const MacTiming t = mac_timing(phy::profile_80211b(phy::Preamble::Short), dsss(1));
  // EIFS's ACK is still at 1 Mbit/s, hence with the long preamble: 364 us.
  EXPECT_EQ(t.eifs, Time::us(364));
  EXPECT_EQ(t.rx_start_delay, Time::us(96));
  EXPECT_EQ(t.ack_timeout, Time::us(10 + 20 + 96));
  EXPECT_EQ(t.ack_airtime, Time::us(96 + 56));
  // 1 Mbit/s control frames go with the long preamble even on a short-preamble
  // station (802.11-2012 17.2.2.3), and the ACK timeout waits for that preamble.
  const MacTiming t1 = mac_timing(phy::profile_80211b(phy::Preamble::Short), dsss(0));
  EXPECT_EQ(t1.ack_airtime, Time::us(192 + 112));
  EXPECT_EQ(t1.rx_start_delay, Time::us(192));
  EXPECT_EQ(t1.ack_timeout, Time::us(10 + 20 + 192));
}

// 802.11a, 6 and 24 Mbit/s control rates.
//   ACK at 6 (24 bits/symbol): 20 + 4 ceil(134 / 24) = 20 + 24 = 44 us
//   RTS at 6: 20 + 4 ceil((16 + 160 + 6) / 24) = 20 + 32 = 52 us
//   ACK and RTS at 24 (96 bits/symbol): 20 + 4 x 2 = 28 us
TEST(MacTiming, Dot11a) {
  const phy::PhyProfile a = phy::profile_80211a();
  const MacTiming t6 = mac_timing(a, ofdm(0));
  EXPECT_EQ(t6.slot, Time::us(9));
  EXPECT_EQ(t6.sifs, Time::us(16));
  EXPECT_EQ(t6.difs, Time::us(34));
  EXPECT_EQ(t6.eifs, Time::us(16 + 34 + 44));  // 94
  EXPECT_EQ(t6.rx_start_delay, Time::us(20));
  EXPECT_EQ(t6.ack_timeout, Time::us(16 + 9 + 20));  // 45
  EXPECT_EQ(t6.ack_airtime, Time::us(44));
  EXPECT_EQ(t6.cts_airtime, Time::us(44));
  EXPECT_EQ(t6.rts_airtime, Time::us(52));
  EXPECT_EQ(t6.aifs(2), Time::us(34));
  EXPECT_EQ(t6.aifs(3), Time::us(43));
  EXPECT_EQ(t6.aifs(7), Time::us(79));

  const MacTiming t24 = mac_timing(a, ofdm(4));
  EXPECT_EQ(t24.eifs, Time::us(94));  // EIFS does not depend on the control rate
  EXPECT_EQ(t24.ack_timeout, Time::us(45));
  EXPECT_EQ(t24.ack_airtime, Time::us(28));
  EXPECT_EQ(t24.cts_airtime, Time::us(28));
  EXPECT_EQ(t24.rts_airtime, Time::us(28));
}

TEST(MacTiming, Dot11gShortSlot) {
  // SIFS 10, slot 9: DIFS 28. EIFS's ACK at 6 Mbit/s ERP-OFDM: 44 + 6 us signal
  // extension = 50; EIFS = 10 + 28 + 50 = 88 us.
  const MacTiming t = mac_timing(phy::profile_80211g(), ofdm(0));
  EXPECT_EQ(t.difs, Time::us(28));
  EXPECT_EQ(t.eifs, Time::us(88));
  EXPECT_EQ(t.ack_timeout, Time::us(10 + 9 + 20));
}

TEST(MacTiming, RejectsARateOfAnotherPhy) {
  EXPECT_THROW(mac_timing(phy::profile_80211a(), dsss(1)), std::invalid_argument);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
