#include "phy/airtime.hpp"

#include <stdexcept>
#include <string>

namespace wmnsim::phy {
namespace {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void check_family(const PhyProfile& profile, const Mcs& data) {
  if (data.family != profile.family) {
    throw std::invalid_argument("MCS " + std::string(data.name) + " cannot be sent on a " +
                                std::string(profile.name) + " PHY; choose one of its own rates");
  }
}

}  // namespace

PlcpFormat plcp_format(const PhyProfile& profile, const Mcs& data) {
  check_family(profile, data);
  if (profile.family == PhyFamily::Ofdm) {
    // 10 short + 2 long training symbols = 16 us; SIGNAL = one BPSK 1/2 symbol of
    // 24 bits (IEEE 802.11-2012 18.3.2, 18.3.4).
    return {Time::us(16), Time::us(4), &kOfdmMcs[0], 24};
  }
  // The short PLCP exists only for 2, 5.5 and 11 Mbit/s (IEEE 802.11-2012
  // 17.2.2.3): a short-preamble station sends 1 Mbit/s frames with the long one.
  if (profile.preamble == Preamble::Long || data.rate_bps == kDsssMcs[0].rate_bps) {
    // 128-bit SYNC + 16-bit SFD, then the 48-bit header, all DBPSK at 1 Mbit/s.
    return {Time::us(144), Time::us(48), &kDsssMcs[0], 48};
  }
  // 56-bit SYNC + 16-bit SFD at 1 Mbit/s, then the 48-bit header DQPSK at 2 Mbit/s.
  return {Time::us(72), Time::us(24), &kDsssMcs[1], 48};
}

Time payload_duration(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes) {
  check_family(profile, data);
  const std::int64_t bits = 8 * static_cast<std::int64_t>(psdu_bytes);
  if (profile.family == PhyFamily::Ofdm) {
    // SERVICE (16) + PSDU + tail (6), padded to whole 4 us symbols of N_DBPS bits.
    const std::int64_t symbols = ceil_div(16 + bits + 6, data.bits_per_symbol);
    return Time::us(4 * symbols);
  }
  // ceil(8 * LENGTH / DATARATE) microseconds; rate_bps is an integer for every DSSS
  // rate (5'500'000 included), so the ceiling is exact.
  return Time::us(ceil_div(bits * 1'000'000, data.rate_bps));
}

Time airtime(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes) {
  const PlcpFormat plcp = plcp_format(profile, data);
  return plcp.preamble + plcp.header + payload_duration(profile, data, psdu_bytes) +
         profile.signal_extension;
}

}  // namespace wmnsim::phy
