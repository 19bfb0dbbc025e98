#pragma once
// The addresses a trace shows, derived from the simulator's indices (docs/traces.md
// "Addresses"). The simulator has none: a MAC address is a radio index
// (mac/frame.hpp MacAddress) and a packet names node indices (core/packet.hpp).
//
//   radio r  ->  02:00:00:rr:rr:rr   (r as 24 bits, big-endian)
//   node n   ->  10.a.b.c            IPv4, with a.b.c = n + 1 as 24 bits (10.0.0.1 is node 0)
//   broadcast radio -> ff:ff:ff:ff:ff:ff
//
// 0x02 in the first octet sets the locally administered bit and clears the
// group bit (IEEE 802-2014 8.2.2), so no address collides with a real vendor's;
// 10.0.0.0/8 is private address space (RFC 1918). A data frame carries one hop's
// radios (three-address format, trace/mpdu.hpp); the IP header the flow's ends.

#include <array>
#include <cstdint>

#include "core/packet.hpp"  // kBroadcastRadio

namespace wmnsim::trace {

using MacAddress48 = std::array<std::uint8_t, 6>;

// Each mapping carries 24 bits of index: far above the scenario limit of 100000
// nodes (docs/scenario.md "Limits") and their radios (at most 39 a node).

constexpr MacAddress48 radio_mac(std::uint32_t radio) {
  if (radio == kBroadcastRadio) return {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  return {0x02, 0x00, 0x00, static_cast<std::uint8_t>(radio >> 16), static_cast<std::uint8_t>(radio >> 8),
          static_cast<std::uint8_t>(radio)};
}

// The IPv4 address of node `node` as a host-order 32-bit number.
constexpr std::uint32_t node_ipv4(std::uint32_t node) { return (10u << 24) | ((node + 1) & 0xffffffu); }

}  // namespace wmnsim::trace
