#pragma once
// The radiotap header in front of every frame of a trace (LINKTYPE_IEEE802_11_RADIOTAP,
// 127): what the PHY knew about the frame. Format and field numbers from
// radiotap.org ("Radiotap header format", "Defined fields"):
//
//   it_version u8 = 0, it_pad u8, it_len u16 (the whole header), it_present u32
//   (bit k set: field k follows), then the fields in increasing bit order, each
//   aligned to its natural size counted from the start of the header,
//   little-endian.
//
// Fields written:
//   bit 0  TSFT               u64  microseconds; the first bit of the frame
//   bit 1  Flags              u8   0x02 short preamble, 0x10 frame includes FCS,
//                                  0x40 bad FCS (a frame the radio failed to decode)
//   bit 2  Rate               u8   500 kbit/s units (11 Mbit/s -> 22, 5.5 -> 11)
//   bit 3  Channel            u16 frequency MHz, u16 flags (0x0020 CCK, 0x0040 OFDM,
//                                  0x0080 2 GHz spectrum, 0x0100 5 GHz spectrum)
//   bit 5  dBm Antenna Signal s8   received frames: the received power
//   bit 6  dBm Antenna Noise  s8   received frames: the scenario's noise power
//   bit 10 dBm TX Power       s8   transmitted frames: the radio's transmit power

#include <cstdint>
#include <optional>

#include "trace/byte_writer.hpp"

namespace wmnsim::trace {

// radiotap.org field numbers (bits of it_present).
enum class RadiotapField : std::uint8_t {
  tsft = 0,
  flags = 1,
  rate = 2,
  channel = 3,
  antenna_signal_dbm = 5,
  antenna_noise_dbm = 6,
  tx_power_dbm = 10,
};

// Flags field bits (radiotap.org "Flags").
inline constexpr std::uint8_t kRadiotapShortPreamble = 0x02;
inline constexpr std::uint8_t kRadiotapFcsAtEnd = 0x10;
inline constexpr std::uint8_t kRadiotapBadFcs = 0x40;  // the frame failed its FCS check
// Channel field flag bits (radiotap.org "Channel").
inline constexpr std::uint16_t kChannelCck = 0x0020;
inline constexpr std::uint16_t kChannelOfdm = 0x0040;
inline constexpr std::uint16_t kChannel2Ghz = 0x0080;
inline constexpr std::uint16_t kChannel5Ghz = 0x0100;

struct RadiotapInfo {
  std::uint64_t tsft_us = 0;
  std::uint8_t flags = 0;
  std::uint8_t rate_500kbps = 0;
  std::uint16_t frequency_mhz = 0;
  std::uint16_t channel_flags = 0;
  std::optional<std::int8_t> antenna_signal_dbm;  // received frames
  std::optional<std::int8_t> antenna_noise_dbm;   // received frames
  std::optional<std::int8_t> tx_power_dbm;        // transmitted frames
};

// Appends the header for `info` to `out` (aligned from the header's own start,
// which is where `out` is when called).
void append_radiotap(Bytes& out, const RadiotapInfo& info);

// A power in dBm as the s8 fields carry it: rounded to the nearest dBm, clamped
// to -128..127.
std::int8_t dbm_s8(double dbm);

}  // namespace wmnsim::trace
