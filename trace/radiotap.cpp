#include "trace/radiotap.hpp"

#include <algorithm>
#include <cmath>

namespace wmnsim::trace {
namespace {

// Pads with zeros until the offset from the header's start is a multiple of
// `alignment` (radiotap.org: every field is aligned to its natural size).
void align(Bytes& out, std::size_t header_start, std::size_t alignment) {
  while ((out.size() - header_start) % alignment != 0) out.push_back(0);
}

constexpr std::uint32_t bit(RadiotapField f) { return 1u << static_cast<unsigned>(f); }

}  // namespace

std::int8_t dbm_s8(double dbm) {
  if (std::isnan(dbm)) return 0;
  return static_cast<std::int8_t>(std::clamp(std::lround(dbm), -128L, 127L));
}

void append_radiotap(Bytes& out, const RadiotapInfo& info) {
  const std::size_t start = out.size();
  std::uint32_t present = bit(RadiotapField::tsft) | bit(RadiotapField::flags) | bit(RadiotapField::rate) |
                          bit(RadiotapField::channel);
  if (info.antenna_signal_dbm) present |= bit(RadiotapField::antenna_signal_dbm);
  if (info.antenna_noise_dbm) present |= bit(RadiotapField::antenna_noise_dbm);
  if (info.tx_power_dbm) present |= bit(RadiotapField::tx_power_dbm);

  put_u8(out, 0);       // it_version
  put_u8(out, 0);       // it_pad
  put_le16(out, 0);     // it_len, set below
  put_le32(out, present);
  align(out, start, 8);
  put_le64(out, info.tsft_us);  // bit 0
  put_u8(out, info.flags);      // bit 1
  put_u8(out, info.rate_500kbps);  // bit 2
  align(out, start, 2);
  put_le16(out, info.frequency_mhz);  // bit 3
  put_le16(out, info.channel_flags);
  if (info.antenna_signal_dbm) put_u8(out, static_cast<std::uint8_t>(*info.antenna_signal_dbm));  // bit 5
  if (info.antenna_noise_dbm) put_u8(out, static_cast<std::uint8_t>(*info.antenna_noise_dbm));    // bit 6
  if (info.tx_power_dbm) put_u8(out, static_cast<std::uint8_t>(*info.tx_power_dbm));              // bit 10
  set_le16(out, start + 2, static_cast<std::uint16_t>(out.size() - start));
}

}  // namespace wmnsim::trace
