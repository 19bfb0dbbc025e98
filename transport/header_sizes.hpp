#pragma once
// Header sizes the transport adds to Packet::size_bytes (an IP datagram: the IP
// header, the transport header and the payload; TCP options only when enabled).

#include <cstddef>
#include <cstdint>

#include "core/packet.hpp"  // kIpv4HeaderBytes

namespace wmnsim::transport {

inline constexpr std::uint32_t kUdpHeaderBytes = 8;   // RFC 768
inline constexpr std::uint32_t kTcpHeaderBytes = 20;  // RFC 793, without options
inline constexpr std::uint32_t kUdpIpHeaderBytes = kIpv4HeaderBytes + kUdpHeaderBytes;  // 28
inline constexpr std::uint32_t kTcpIpHeaderBytes = kIpv4HeaderBytes + kTcpHeaderBytes;  // 40: a pure ACK
// RFC 7323 3: the timestamps option is 10 bytes, padded to 12 with two NOPs
// (RFC 7323 Appendix A's layout), on every segment when in use.
inline constexpr std::uint32_t kTcpTimestampOptionBytes = 12;
// RFC 2018 3: the SACK option is 2 + 8 bytes per block; like Linux we pad it with
// two NOPs to a multiple of 4 (12, 20, 28 or 36 bytes), on ACKs that carry blocks.
constexpr std::uint32_t sack_option_bytes(std::size_t blocks) {
  return blocks == 0 ? 0 : static_cast<std::uint32_t>(2 + 8 * blocks + 2);
}
// 003 Sec. III-E: WCCP's congestion header (r_p, T_c, fb). 003 gives no size; we
// count three 32-bit fields, on every WCCP data segment and on the ACK that echoes it.
inline constexpr std::uint32_t kCongestionHeaderBytes = 12;
// RFC 2018 3: 40 bytes of TCP options hold 4 blocks, or 3 beside the 12 of timestamps.
constexpr std::size_t max_sack_blocks(bool timestamps) { return timestamps ? 3 : kMaxSackBlocks; }

}  // namespace wmnsim::transport
