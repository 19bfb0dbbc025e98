#pragma once
// Header sizes the transport adds to Packet::size_bytes (an IP datagram: the IP
// header, the transport header and the payload; TCP options only when enabled).

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

}  // namespace wmnsim::transport
