#pragma once
// Header sizes the transport adds to Packet::size_bytes (an IP datagram: the IP
// header, the transport header and the payload; no options).

#include <cstdint>

#include "core/packet.hpp"  // kIpv4HeaderBytes

namespace wmnsim::transport {

inline constexpr std::uint32_t kUdpHeaderBytes = 8;   // RFC 768
inline constexpr std::uint32_t kTcpHeaderBytes = 20;  // RFC 793, no options (no timestamps, no SACK)
inline constexpr std::uint32_t kUdpIpHeaderBytes = kIpv4HeaderBytes + kUdpHeaderBytes;  // 28
inline constexpr std::uint32_t kTcpIpHeaderBytes = kIpv4HeaderBytes + kTcpHeaderBytes;  // 40: a pure ACK

}  // namespace wmnsim::transport
