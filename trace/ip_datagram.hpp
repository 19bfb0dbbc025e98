#pragma once
// The bytes of a simulated packet as an IP datagram: an IPv4 header (RFC 791
// 3.1) and a UDP (RFC 768) or TCP (RFC 793 3.1; timestamps option RFC 7323 3.2,
// SACK option RFC 2018 3)
// header carrying the packet's own fields, then the payload as zeros. The
// simulator keeps headers as typed fields (core/packet.hpp); this is the one place
// that lays them out as octets.
//
// Fields the simulator has no value for are derived and documented in
// docs/traces.md: ports (from the flow's index), the IP identification (the
// packet id's low 16 bits), the TCP window of a segment that carries no ACK
// (65535: the data sender advertises nothing the simulator models).

#include <cstdint>
#include <optional>
#include <span>

#include "core/packet.hpp"
#include "trace/byte_writer.hpp"

namespace wmnsim::trace {

// IANA protocol numbers (RFC 790): TCP 6, UDP 17, and 253, reserved for
// experimentation (RFC 3692), for a registered transport that is neither.
enum class IpProtocol : std::uint8_t { tcp = 6, udp = 17, experimental = 253 };

// What the trace knows of a flow beyond its packets.
struct FlowTrace {
  IpProtocol protocol = IpProtocol::experimental;
  std::uint32_t data_src_node = 0;  // the node its data comes from (ACKs go the other way)
  std::uint32_t data_dst_node = 0;  // the node its data goes to
  // A TCP flow that opens and closes without a handshake on the air: the pcap
  // trace writes one as synthetic records (trace/pcap_trace.hpp).
  bool synthetic_handshake = false;
  // With synthetic_handshake: what the ends' segments carry (transport/flow_endpoint.hpp
  // ConnectionFields), so the synthetic ones carry it too.
  std::uint32_t receiver_window_bytes = 0;
  std::optional<std::uint8_t> sender_user_priority{};
  std::optional<std::uint8_t> receiver_user_priority{};
};

// The ports of flow `flow` in its data direction (the simulator has none):
// source 40000 + flow, destination 50000 + flow (flow taken modulo 10000), so
// every flow of a trace has its own port pair.
std::uint16_t data_src_port(std::uint32_t flow);
std::uint16_t data_dst_port(std::uint32_t flow);

// The Internet checksum (RFC 1071): the ones' complement of the ones' complement
// sum of 16-bit big-endian words; `partial` is a sum to start from (a pseudo-header).
std::uint32_t ones_complement_sum(std::span<const std::uint8_t> bytes, std::uint32_t partial = 0);
std::uint16_t finish_checksum(std::uint32_t sum);

// Appends the whole datagram of `packet` (packet.size_bytes octets: headers as
// above, the rest zeros). `flow` describes packet.flow (ignored for kNoFlow:
// those go out as protocol 253).
void append_ip_datagram(Bytes& out, const Packet& packet, const FlowTrace& flow);

// Header octets before the payload, as append_ip_datagram writes them.
std::uint32_t ip_header_bytes(const Packet& packet, IpProtocol protocol);

}  // namespace wmnsim::trace
