#include "phy/airtime.hpp"

#include <stdexcept>
#include <string>

namespace wmnsim::phy {
namespace {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void check_family(const PhyProfile& profile, const Mcs& data) {
  if (data.family != profile.family) detail::throw_wrong_family(profile, data);
}

}  // namespace

void detail::throw_wrong_family(const PhyProfile& profile, const Mcs& data) {
  throw std::invalid_argument("MCS " + std::string(data.name) + " cannot be sent on a " + std::string(profile.name) +
                              " PHY; choose one of its own rates");
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
