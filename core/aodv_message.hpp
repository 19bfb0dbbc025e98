#pragma once
// AODV's control messages (RFC 3561 Sec. 5) as they travel in a Packet: the type
// in Packet::transport.routing_message, the fields in the transport options'
// bytes (the message has no transport header above UDP). Sizes on the air are the
// RFC's: the packet's size_bytes is IP (20) + UDP (8) + the message, so the MAC's
// airtime and a pcap trace (UDP port 654, trace/ip_datagram.cpp) see real frames.
//
// Addresses are node indices (the simulator's IP addresses, trace/addresses.hpp).
// A RERR here lists at most kMaxUnreachable destinations; more go in several
// RERRs (the RFC allows up to 255 in one: a simplification that costs headers,
// not behaviour, and is rare with the few destinations a flow set uses).

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "core/packet.hpp"
#include "core/time.hpp"

namespace wmnsim::aodv {

// RFC 3561 Sec. 4: AODV runs over UDP port 654.
inline constexpr std::uint16_t kPort = 654;
inline constexpr std::uint32_t kUdpHeaderBytes = 8;
// The IP destination of a broadcast control packet (255.255.255.255 in a trace).
inline constexpr std::uint32_t kBroadcastAddress = 0xffffffffu;

// Sec. 5's message types (the Type octet).
enum class MessageType : std::uint8_t { rreq = 1, rrep = 2, rerr = 3 };

// Sec. 5.1: 24 octets. Flags (the second octet's bits as on the wire): J R G D U;
// only D (destination only) and U (unknown sequence number) are used here.
struct Rreq {
  static constexpr std::uint32_t kBytes = 24;
  static constexpr std::uint8_t kDestinationOnly = 0x10;  // D
  static constexpr std::uint8_t kUnknownSeq = 0x08;      // U
  std::uint8_t flags = 0;
  std::uint8_t hop_count = 0;
  std::uint32_t rreq_id = 0;
  std::uint32_t dst = 0;
  std::uint32_t dst_seq = 0;
  std::uint32_t orig = 0;
  std::uint32_t orig_seq = 0;
};

// Sec. 5.2: 20 octets. A HELLO (Sec. 6.9) is a RREP about the sender itself.
struct Rrep {
  static constexpr std::uint32_t kBytes = 20;
  std::uint8_t hop_count = 0;
  std::uint32_t dst = 0;
  std::uint32_t dst_seq = 0;
  std::uint32_t orig = 0;
  Time lifetime;  // on the wire: milliseconds, 32 bits
};

// Sec. 5.3: 4 octets plus 8 per unreachable destination (12 for one).
struct Rerr {
  static constexpr std::size_t kMaxUnreachable = 3;
  struct Unreachable {
    std::uint32_t dst = 0;
    std::uint32_t seq = 0;
  };
  std::uint8_t count = 0;
  std::array<Unreachable, kMaxUnreachable> unreachable{};
  std::uint32_t bytes() const { return 4 + 8 * std::uint32_t{count}; }
};

template <class M>
constexpr MessageType type_of() {
  if constexpr (std::is_same_v<M, Rreq>) return MessageType::rreq;
  else if constexpr (std::is_same_v<M, Rrep>) return MessageType::rrep;
  else return MessageType::rerr;
}

template <class M>
std::uint32_t message_bytes(const M& m) {
  if constexpr (std::is_same_v<M, Rerr>) return m.bytes();
  else return M::kBytes;
}

// Writes `m` into `p`: its type, its fields and the IP datagram's size.
template <class M>
void encode(Packet& p, const M& m) {
  static_assert(std::is_trivially_copyable_v<M> && sizeof(M) <= sizeof(p.transport.options.routing));
  p.transport.routing_message = static_cast<std::uint8_t>(type_of<M>());
  std::construct_at(&p.transport.options.routing);  // zeroed, the live member now
  std::memcpy(p.transport.options.routing.data(), &m, sizeof(M));
  p.size_bytes = kIpv4HeaderBytes + kUdpHeaderBytes + message_bytes(m);
}

inline bool is_aodv(const Packet& p) { return p.transport.routing_message != 0; }
inline MessageType type_of(const Packet& p) { return static_cast<MessageType>(p.transport.routing_message); }

template <class M>
M decode(const Packet& p) {
  if (p.transport.routing_message != static_cast<std::uint8_t>(type_of<M>())) {
    throw std::logic_error("aodv: a control packet read as the wrong message type");
  }
  M m;
  std::memcpy(&m, p.transport.options.routing.data(), sizeof(M));
  return m;
}

// RFC 3561 Sec. 6.1: sequence numbers compare as signed 32-bit differences (rollover).
constexpr bool seq_newer(std::uint32_t a, std::uint32_t b) { return static_cast<std::int32_t>(a - b) > 0; }

}  // namespace wmnsim::aodv
