#pragma once
// Modulation and coding schemes of the two PHY families wmnsim models:
//   DSSS / HR-DSSS (802.11b; IEEE 802.11-2012 clauses 16 and 17): 1, 2, 5.5, 11 Mbit/s
//   OFDM, 20 MHz   (802.11a, and 802.11g's ERP-OFDM; clauses 18 and 19): 6 ... 54 Mbit/s
//
// The tables are constexpr data; an Mcs is a small value, and the error model and
// the airtime formulas read everything they need from it.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace wmnsim::phy {

enum class PhyFamily {
  Dsss,  // DSSS (clause 16) and HR/DSSS (clause 17): 11 Mchip/s, PLCP header at 1 or 2 Mbit/s
  Ofdm,  // OFDM (clause 18) and ERP-OFDM (clause 19): 20 MHz, 4 us symbols
};

enum class Modulation {
  Dbpsk,  // DSSS 1 Mbit/s: 11-chip Barker, differential BPSK
  Dqpsk,  // DSSS 2 Mbit/s: 11-chip Barker, differential QPSK
  Cck,    // HR/DSSS 5.5 and 11 Mbit/s: complementary code keying, 8 chips a symbol
  Bpsk,   // OFDM subcarrier modulations
  Qpsk,
  Qam16,
  Qam64,
};

// Convolutional code rate numerator/denominator; 1/1 means uncoded (DSSS, CCK).
struct CodeRate {
  int numerator = 1;
  int denominator = 1;
  constexpr double value() const { return static_cast<double>(numerator) / denominator; }
  constexpr bool operator==(const CodeRate&) const = default;
};

struct Mcs {
  std::string_view name;
  PhyFamily family;
  Modulation modulation;
  CodeRate code_rate;
  std::int64_t rate_bps;
  // Data bits carried by one PHY symbol: 1 or 2 per Barker symbol, 4 or 8 per CCK
  // symbol, and N_DBPS per 4 us OFDM symbol (IEEE 802.11-2012 Table 18-4).
  int bits_per_symbol;

  constexpr bool operator==(const Mcs&) const = default;
};

// Ordered by increasing rate. Clause 16 (DBPSK/DQPSK) and 17.4.6.3 (CCK).
inline constexpr std::array<Mcs, 4> kDsssMcs{{
    {"DSSS-1", PhyFamily::Dsss, Modulation::Dbpsk, {1, 1}, 1'000'000, 1},
    {"DSSS-2", PhyFamily::Dsss, Modulation::Dqpsk, {1, 1}, 2'000'000, 2},
    {"CCK-5.5", PhyFamily::Dsss, Modulation::Cck, {1, 1}, 5'500'000, 4},
    {"CCK-11", PhyFamily::Dsss, Modulation::Cck, {1, 1}, 11'000'000, 8},
}};

// Ordered by increasing rate. IEEE 802.11-2012 Table 18-4 (20 MHz channel spacing).
inline constexpr std::array<Mcs, 8> kOfdmMcs{{
    {"OFDM-6", PhyFamily::Ofdm, Modulation::Bpsk, {1, 2}, 6'000'000, 24},
    {"OFDM-9", PhyFamily::Ofdm, Modulation::Bpsk, {3, 4}, 9'000'000, 36},
    {"OFDM-12", PhyFamily::Ofdm, Modulation::Qpsk, {1, 2}, 12'000'000, 48},
    {"OFDM-18", PhyFamily::Ofdm, Modulation::Qpsk, {3, 4}, 18'000'000, 72},
    {"OFDM-24", PhyFamily::Ofdm, Modulation::Qam16, {1, 2}, 24'000'000, 96},
    {"OFDM-36", PhyFamily::Ofdm, Modulation::Qam16, {3, 4}, 36'000'000, 144},
    {"OFDM-48", PhyFamily::Ofdm, Modulation::Qam64, {2, 3}, 48'000'000, 192},
    {"OFDM-54", PhyFamily::Ofdm, Modulation::Qam64, {3, 4}, 54'000'000, 216},
}};

// The MCS tables of a family, ordered by increasing rate.
constexpr std::span<const Mcs> mcs_table(PhyFamily family) {
  if (family == PhyFamily::Dsss) return kDsssMcs;
  return kOfdmMcs;
}

// Lookups for scenario files; nullptr when there is no such MCS. The pointers are
// into the static tables above and stay valid for the whole program.
const Mcs* find_mcs(std::string_view name);
const Mcs* find_mcs(PhyFamily family, std::int64_t rate_bps);

}  // namespace wmnsim::phy
