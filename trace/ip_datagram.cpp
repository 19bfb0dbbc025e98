#include "trace/ip_datagram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/aodv_message.hpp"
#include "trace/addresses.hpp"

namespace wmnsim::trace {
namespace {

constexpr std::uint32_t kIpv4Header = 20;  // no options (RFC 791 3.1, IHL 5)
constexpr std::uint32_t kUdpHeader = 8;    // RFC 768
constexpr std::uint32_t kTcpHeader = 20;   // RFC 793 3.1, no options
// RFC 7323 Appendix A: NOP, NOP, then kind 8, length 10, TSval, TSecr.
constexpr std::uint32_t kTcpTimestampsOption = 12;
// RFC 2018 3: kind 5, length 2 + 8 per block; two NOPs in front, as Linux pads it.
constexpr std::uint32_t tcp_sack_option(std::uint32_t blocks) { return blocks == 0 ? 0 : 2 + 2 + 8 * blocks; }

// WCCP's congestion header (003 Sec. III-E) as an RFC 4727 experimental TCP option:
// kind 253, length 12, r_p and fb as IEEE 754 single floats (packets/s), T_c in
// milliseconds (16 bits): the 12 bytes transport/header_sizes.hpp counts.
constexpr std::uint32_t kWccpOption = 12;
constexpr std::uint8_t kWccpOptionKind = 253;

// TCP flag bits (RFC 793 3.1, low byte of the offset/flags word).
constexpr std::uint16_t kTcpFin = 0x01;
constexpr std::uint16_t kTcpSyn = 0x02;
constexpr std::uint16_t kTcpAck = 0x10;

// The sum of the pseudo-header UDP and TCP checksums cover (RFC 768, RFC 793 3.1).
std::uint32_t pseudo_header_sum(std::uint32_t src, std::uint32_t dst, IpProtocol protocol, std::uint32_t length) {
  std::uint32_t sum = (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff);
  sum += static_cast<std::uint32_t>(protocol);
  sum += length;
  return sum;
}

// TCP timestamps tick in microseconds here (RFC 7323 5.4 leaves the clock's rate
// to the sender), modulo 2^32.
std::uint32_t timestamp_us(Time t) { return static_cast<std::uint32_t>(t.picoseconds() / 1'000'000); }

// An AODV message in RFC 3561 Sec. 5's formats (after the UDP header).
void put_aodv_message(Bytes& out, const Packet& packet) {
  const auto ip = [](std::uint32_t node) { return node == aodv::kBroadcastAddress ? 0xffffffffu : node_ipv4(node); };
  switch (aodv::type_of(packet)) {
    case aodv::MessageType::rreq: {  // 5.1
      const aodv::Rreq m = aodv::decode<aodv::Rreq>(packet);
      put_u8(out, 1);
      put_u8(out, m.flags);
      put_u8(out, 0);
      put_u8(out, m.hop_count);
      put_be32(out, m.rreq_id);
      put_be32(out, ip(m.dst));
      put_be32(out, m.dst_seq);
      put_be32(out, ip(m.orig));
      put_be32(out, m.orig_seq);
      break;
    }
    case aodv::MessageType::rrep: {  // 5.2
      const aodv::Rrep m = aodv::decode<aodv::Rrep>(packet);
      put_u8(out, 2);
      put_u8(out, 0);
      put_u8(out, 0);
      put_u8(out, m.hop_count);
      put_be32(out, ip(m.dst));
      put_be32(out, m.dst_seq);
      put_be32(out, ip(m.orig));
      const double ms = std::round(m.lifetime.to_seconds() * 1e3);
      put_be32(out, static_cast<std::uint32_t>(std::clamp(ms, 0.0, 4294967295.0)));
      break;
    }
    case aodv::MessageType::rerr: {  // 5.3
      const aodv::Rerr m = aodv::decode<aodv::Rerr>(packet);
      put_u8(out, 3);
      put_u8(out, 0);
      put_u8(out, 0);
      put_u8(out, m.count);
      for (std::size_t i = 0; i < m.count; ++i) {
        put_be32(out, ip(m.unreachable[i].dst));
        put_be32(out, m.unreachable[i].seq);
      }
      break;
    }
  }
}

}  // namespace

std::uint16_t data_src_port(std::uint32_t flow) { return static_cast<std::uint16_t>(40000 + flow % 10000); }
std::uint16_t data_dst_port(std::uint32_t flow) { return static_cast<std::uint16_t>(50000 + flow % 10000); }

std::uint32_t ones_complement_sum(std::span<const std::uint8_t> bytes, std::uint32_t partial) {
  std::uint64_t sum = partial;
  std::size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2) sum += (std::uint32_t{bytes[i]} << 8) | bytes[i + 1];
  if (i < bytes.size()) sum += std::uint32_t{bytes[i]} << 8;  // an odd octet is padded with zero
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint32_t>(sum);
}

std::uint16_t finish_checksum(std::uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum & 0xffff);
}

std::uint32_t ip_header_bytes(const Packet& packet, IpProtocol protocol) {
  switch (protocol) {
    case IpProtocol::udp: return kIpv4Header + kUdpHeader;
    case IpProtocol::tcp:
      return kIpv4Header + kTcpHeader + (packet.transport.timestamps ? kTcpTimestampsOption : 0) +
             tcp_sack_option(packet.transport.sack_count) + (packet.transport.has_congestion ? kWccpOption : 0);
    case IpProtocol::experimental: return kIpv4Header;
  }
  return kIpv4Header;
}

void append_ip_datagram(Bytes& out, const Packet& packet, const FlowTrace& flow) {
  const bool aodv = aodv::is_aodv(packet);
  const IpProtocol protocol = aodv ? IpProtocol::udp : packet.flow == kNoFlow ? IpProtocol::experimental : flow.protocol;
  // The real size (RFC 791 Total Length); a packet too small for the headers
  // (a registered transport's choice) is written at the headers' size.
  const std::uint32_t headers = ip_header_bytes(packet, protocol);
  const std::uint32_t total = std::clamp<std::uint32_t>(packet.size_bytes, headers, 0xffff);
  const std::uint32_t src = node_ipv4(packet.src);
  const std::uint32_t dst = packet.dst == aodv::kBroadcastAddress ? 0xffffffffu : node_ipv4(packet.dst);
  const std::size_t ip = out.size();

  // ---- IPv4 header (RFC 791 3.1) ----
  put_u8(out, 0x45);  // version 4, IHL 5 words
  // Type of Service: the 802.1D user priority as the precedence bits (RFC 791;
  // RFC 2474's class selector CS<up>), 0 when the packet has none.
  put_u8(out, static_cast<std::uint8_t>(packet.user_priority.value_or(0) << 5));
  put_be16(out, static_cast<std::uint16_t>(total));
  put_be16(out, static_cast<std::uint16_t>(packet.id));  // identification: the packet id, low 16 bits
  put_be16(out, 0);                                      // flags, fragment offset: never fragmented
  put_u8(out, packet.ttl);
  put_u8(out, static_cast<std::uint8_t>(protocol));
  put_be16(out, 0);  // header checksum, set below
  put_be32(out, src);
  put_be32(out, dst);
  set_be16(out, ip + 10, finish_checksum(ones_complement_sum(std::span(out).subspan(ip, kIpv4Header))));

  const std::size_t transport = out.size();
  const std::uint32_t segment = total - kIpv4Header;  // transport header + payload
  const bool data_direction = packet.src == flow.data_src_node;
  // AODV: UDP port 654 both ways (RFC 3561 Sec. 4).
  const std::uint16_t src_port = aodv ? aodv::kPort : data_direction ? data_src_port(packet.flow) : data_dst_port(packet.flow);
  const std::uint16_t dst_port = aodv ? aodv::kPort : data_direction ? data_dst_port(packet.flow) : data_src_port(packet.flow);
  const TransportHeader& t = packet.transport;
  std::size_t checksum_at = 0;
  switch (protocol) {
    case IpProtocol::udp:  // RFC 768
      put_be16(out, src_port);
      put_be16(out, dst_port);
      put_be16(out, static_cast<std::uint16_t>(segment));  // length: header and data
      checksum_at = out.size();
      put_be16(out, 0);
      if (aodv) put_aodv_message(out, packet);
      break;
    case IpProtocol::tcp: {  // RFC 793 3.1
      const std::uint32_t header = headers - kIpv4Header;
      put_be16(out, src_port);
      put_be16(out, dst_port);
      // Modulo 2^32. Both initial sequence numbers are 2^32 - 1: a SYN carries it, and
      // data starts at 0 (transport/reliable_sender.hpp, with or without a handshake).
      put_be32(out, static_cast<std::uint32_t>(t.syn ? t.seq - 1 : t.seq));
      // RFC 793 3.1: past the opening SYN every segment carries ACK. The data
      // sender's segments acknowledge the receiver's sequence space, which holds
      // no data: 0, the number after its SYN (1 once they acknowledge its FIN),
      // which they carry in `ack` without ack_valid (core/packet.hpp against_data).
      put_be32(out, static_cast<std::uint32_t>(t.ack));
      std::uint16_t flags = 0;
      if (t.fin) flags |= kTcpFin;
      if (t.syn) flags |= kTcpSyn;
      if (t.ack_valid || !t.syn) flags |= kTcpAck;
      put_be16(out, static_cast<std::uint16_t>(((header / 4) << 12) | flags));
      // No window scale option is modelled, so the field saturates at 65535.
      const std::uint32_t window = t.ack_valid ? std::min<std::uint32_t>(t.window_bytes, 0xffff) : 0xffff;
      put_be16(out, static_cast<std::uint16_t>(window));
      checksum_at = out.size();
      put_be16(out, 0);
      put_be16(out, 0);  // urgent pointer
      if (t.timestamps) {  // RFC 7323 3.2 with Appendix A's two NOPs in front
        put_u8(out, 1);
        put_u8(out, 1);
        put_u8(out, 8);
        put_u8(out, 10);
        put_be32(out, timestamp_us(t.ts_val));
        put_be32(out, timestamp_us(t.ts_ecr));
      }
      if (t.sack_count > 0) {  // RFC 2018 3, after the timestamps (Linux's order)
        put_u8(out, 1);
        put_u8(out, 1);
        put_u8(out, 5);
        put_u8(out, static_cast<std::uint8_t>(2 + 8 * t.sack_count));
        for (std::size_t i = 0; i < t.sack_count; ++i) {
          const auto [left, right] = t.sack(i);
          put_be32(out, static_cast<std::uint32_t>(left));  // modulo 2^32, as the sequence number
          put_be32(out, static_cast<std::uint32_t>(right));
        }
      }
      if (t.has_congestion) {
        const CongestionHeader& c = t.congestion();
        put_u8(out, kWccpOptionKind);
        put_u8(out, static_cast<std::uint8_t>(kWccpOption));
        put_be32(out, std::bit_cast<std::uint32_t>(static_cast<float>(c.rate_pps)));
        put_be32(out, std::bit_cast<std::uint32_t>(static_cast<float>(c.feedback_pps)));
        const double ms = std::round(c.control_interval.to_seconds() * 1e3);
        put_be16(out, static_cast<std::uint16_t>(std::clamp(ms, 0.0, 65535.0)));
      }
      break;
    }
    case IpProtocol::experimental:
      break;
  }
  out.resize(ip + total, 0);  // the payload: zeros
  if (checksum_at != 0) {
    // Over the pseudo-header, the header and the (zero) payload.
    const std::uint32_t sum = ones_complement_sum(std::span(out).subspan(transport, segment),
                                                  pseudo_header_sum(src, dst, protocol, segment));
    std::uint16_t checksum = finish_checksum(sum);
    if (protocol == IpProtocol::udp && checksum == 0) checksum = 0xffff;  // RFC 768: 0 means "none"
    set_be16(out, checksum_at, checksum);
  }
}

}  // namespace wmnsim::trace
