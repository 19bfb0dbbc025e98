// Airtimes computed by hand from the standard's TXTIME formulas (airtime.hpp); the
// arithmetic is written next to each value.
#include "phy/airtime.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const Mcs& dsss(int i) { return kDsssMcs.at(static_cast<std::size_t>(i)); }
const Mcs& ofdm(int i) { return kOfdmMcs.at(static_cast<std::size_t>(i)); }

struct Case {
  int mcs;
  std::uint32_t bytes;
  std::int64_t us;
};

TEST(Airtime, DsssLongPreamble) {
  const PhyProfile b = profile_80211b();
  const Case cases[] = {
      // 1 Mbit/s: 192 + 8 L. ACK (14 B): 192 + 112 = 304 us; with SIFS 10 and DIFS 50
      // this gives paper 000's EIFS of 10 + 304 + 50 = 364 us (Table 3).
      {0, 14, 304},
      {0, 1528, 192 + 12224},  // 1500 B payload + 28 B MAC
      // 2 Mbit/s: 192 + 4 L. ACK: 192 + 56 = 248 us.
      {1, 14, 248},
      {1, 1528, 192 + 6112},
      // 5.5 Mbit/s: 192 + ceil(8 L / 5.5). 112 / 5.5 = 20.36 -> 21; 88 / 5.5 = 16 exactly;
      // 12224 / 5.5 = 2222.55 -> 2223.
      {2, 14, 192 + 21},
      {2, 11, 192 + 16},
      {2, 1528, 192 + 2223},
      // 11 Mbit/s: 192 + ceil(8 L / 11). 112 / 11 = 10.18 -> 11; 88 / 11 = 8 exactly;
      // 12224 / 11 = 1111.27 -> 1112, so 1500 + 28 bytes take 1304 us.
      {3, 14, 192 + 11},
      {3, 11, 192 + 8},
      {3, 1528, 1304},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(airtime(b, dsss(c.mcs), c.bytes), Time::us(c.us))
        << dsss(c.mcs).name << " " << c.bytes << " B";
  }
}

TEST(Airtime, DsssShortPreamble) {
  const PhyProfile b = profile_80211b(Preamble::Short);
  // 72 us SYNC+SFD + 24 us header = 96 us.
  EXPECT_EQ(airtime(b, dsss(1), 14), Time::us(96 + 56));       // 152 us
  EXPECT_EQ(airtime(b, dsss(3), 1528), Time::us(96 + 1112));   // 1208 us
  EXPECT_EQ(airtime(b, dsss(2), 1528), Time::us(96 + 2223));   // 2319 us
  // 1 Mbit/s frames go with the long preamble even on a short-preamble station
  // (802.11-2012 17.2.2.3): 192 us + 14 bytes at 1 Mbit/s.
  EXPECT_EQ(airtime(b, dsss(0), 14), Time::us(192 + 112));
  EXPECT_EQ(plcp_format(b, dsss(0)).preamble, Time::us(144));
  const PlcpFormat f = plcp_format(b, dsss(3));
  EXPECT_EQ(f.preamble, Time::us(72));
  EXPECT_EQ(f.header, Time::us(24));
  EXPECT_EQ(*f.header_mcs, dsss(1));  // header at 2 Mbit/s DQPSK
  EXPECT_EQ(f.header_bits, 48u);
}

TEST(Airtime, OfdmAllRates) {
  const PhyProfile a = profile_80211a();
  // T = 16 + 4 + 4 * ceil((16 + 8 L + 6) / N_DBPS) us.
  // 14 B (an ACK): 16 + 112 + 6 = 134 bits.
  //   N_DBPS 24: 5.58 -> 6 symbols -> 20 + 24 = 44 us
  //          36: 3.72 -> 4 -> 36;  48: 2.79 -> 3 -> 32;  72: 1.86 -> 2 -> 28
  //          96: 1.40 -> 2 -> 28; 144, 192, 216: 1 symbol -> 24 us
  const std::int64_t ack[] = {44, 36, 32, 28, 28, 24, 24, 24};
  // 1528 B (1500 payload + 28 MAC): 16 + 12224 + 6 = 12246 bits.
  //   24: 510.25 -> 511 -> 20 + 2044 = 2064;  36: 340.17 -> 341 -> 1384
  //   48: 255.13 -> 256 -> 1044;  72: 170.08 -> 171 -> 704;  96: 127.56 -> 128 -> 532
  //   144: 85.04 -> 86 -> 364;  192: 63.78 -> 64 -> 276;  216: 56.69 -> 57 -> 248
  const std::int64_t data[] = {2064, 1384, 1044, 704, 532, 364, 276, 248};
  // 0 B: 22 bits fill one symbol of any rate: 24 us.
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(airtime(a, ofdm(i), 14), Time::us(ack[i])) << ofdm(i).name;
    EXPECT_EQ(airtime(a, ofdm(i), 1528), Time::us(data[i])) << ofdm(i).name;
    EXPECT_EQ(airtime(a, ofdm(i), 0), Time::us(24)) << ofdm(i).name;
  }
  // An exact fit: 12 B at 6 Mbit/s is 16 + 96 + 6 = 118 bits -> 4.92 -> 5 symbols;
  // 27 B is 16 + 216 + 6 = 238 bits -> 9.92 -> 10 symbols; at 54 Mbit/s,
  // 24 B is 16 + 192 + 6 = 214 bits <= 216 -> 1 symbol, 25 B -> 2 symbols.
  EXPECT_EQ(airtime(a, ofdm(0), 12), Time::us(40));
  EXPECT_EQ(airtime(a, ofdm(0), 27), Time::us(60));
  EXPECT_EQ(airtime(a, ofdm(7), 24), Time::us(24));
  EXPECT_EQ(airtime(a, ofdm(7), 25), Time::us(28));
}

TEST(Airtime, ErpOfdmAddsSignalExtension) {
  const PhyProfile g = profile_80211g();
  EXPECT_EQ(airtime(g, ofdm(0), 14), Time::us(44 + 6));
  EXPECT_EQ(airtime(g, ofdm(7), 1528), Time::us(248 + 6));
  // The extension is silence after the signal, not part of the payload chunk.
  EXPECT_EQ(payload_duration(g, ofdm(7), 1528), Time::us(228));
}

TEST(Airtime, PlcpFormats) {
  const PlcpFormat lb = plcp_format(profile_80211b(), kDsssMcs[3]);
  EXPECT_EQ(lb.preamble + lb.header, Time::us(192));
  EXPECT_EQ(*lb.header_mcs, kDsssMcs[0]);
  const PlcpFormat o = plcp_format(profile_80211a(), kOfdmMcs[7]);
  EXPECT_EQ(o.preamble, Time::us(16));
  EXPECT_EQ(o.header, Time::us(4));
  EXPECT_EQ(*o.header_mcs, kOfdmMcs[0]);  // SIGNAL: BPSK 1/2
  EXPECT_EQ(o.header_bits, 24u);
}

TEST(Airtime, RejectsAnMcsOfTheOtherFamily) {
  EXPECT_THROW(airtime(profile_80211a(), kDsssMcs[3], 100), std::invalid_argument);
  EXPECT_THROW(airtime(profile_80211b(), kOfdmMcs[0], 100), std::invalid_argument);
}

TEST(Airtime, ExactInPicoseconds) {
  // Everything is a whole microsecond, by construction of the standard's formulas.
  for (const Mcs& m : kDsssMcs) {
    for (std::uint32_t bytes : {1u, 13u, 14u, 1500u, 2346u}) {
      EXPECT_EQ(airtime(profile_80211b(), m, bytes).picoseconds() % 1'000'000, 0);
    }
  }
}

TEST(PhyProfile, TimingNumbers) {
  const PhyProfile b = profile_80211b();
  EXPECT_EQ(b.slot, Time::us(20));
  EXPECT_EQ(b.sifs, Time::us(10));
  EXPECT_EQ(b.difs(), Time::us(50));  // paper 000, Table 3
  EXPECT_EQ(b.lowest_rate(), kDsssMcs[0]);
  const PhyProfile a = profile_80211a();
  EXPECT_EQ(a.slot, Time::us(9));
  EXPECT_EQ(a.sifs, Time::us(16));
  EXPECT_EQ(a.difs(), Time::us(34));
  const PhyProfile g = profile_80211g();
  EXPECT_EQ(g.slot, Time::us(9));
  EXPECT_EQ(g.sifs, Time::us(10));
  EXPECT_EQ(g.signal_extension, Time::us(6));
  EXPECT_EQ(g.difs(), Time::us(28));
  EXPECT_EQ(profile_80211g(ErpSlot::Long).slot, Time::us(20));
  EXPECT_EQ(profile_80211g(ErpSlot::Long).difs(), Time::us(50));
}

TEST(PhyMcs, TablesAndLookups) {
  // Rate = N_DBPS / 4 us for every OFDM MCS.
  for (const Mcs& m : kOfdmMcs) EXPECT_EQ(m.rate_bps, m.bits_per_symbol * 250'000) << m.name;
  // 11 Mchip/s: 11 chips a Barker symbol (1 Msym/s), 8 chips a CCK symbol (1.375 Msym/s).
  EXPECT_EQ(kDsssMcs[0].rate_bps, 1 * 1'000'000);
  EXPECT_EQ(kDsssMcs[1].rate_bps, 2 * 1'000'000);
  EXPECT_EQ(kDsssMcs[2].rate_bps, 4 * 1'375'000);
  EXPECT_EQ(kDsssMcs[3].rate_bps, 8 * 1'375'000);
  EXPECT_EQ(find_mcs("CCK-11"), &kDsssMcs[3]);
  EXPECT_EQ(find_mcs("OFDM-54"), &kOfdmMcs[7]);
  EXPECT_EQ(find_mcs("OFDM-7"), nullptr);
  EXPECT_EQ(find_mcs(PhyFamily::Ofdm, 24'000'000), &kOfdmMcs[4]);
  EXPECT_EQ(find_mcs(PhyFamily::Dsss, 5'500'000), &kDsssMcs[2]);
  EXPECT_EQ(find_mcs(PhyFamily::Dsss, 6'000'000), nullptr);
  EXPECT_EQ(kOfdmMcs[6].code_rate, (CodeRate{2, 3}));
  EXPECT_DOUBLE_EQ(kOfdmMcs[7].code_rate.value(), 0.75);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
