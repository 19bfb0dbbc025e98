#include "trace/mpdu.hpp"

#include <array>

#include "mac/congestion_notification.hpp"
#include "trace/addresses.hpp"

namespace wmnsim::trace {
namespace {

void put_address(Bytes& out, const MacAddress48& a) { out.insert(out.end(), a.begin(), a.end()); }

// Sequence Control (8.2.4.4): fragment number 0 in bits 0-3, sequence number above.
void put_sequence(Bytes& out, std::uint16_t sequence) { put_le16(out, static_cast<std::uint16_t>((sequence & 0x0fff) << 4)); }

// The Duration field in microseconds (8.2.4.2); the MAC keeps it whole and at most 32767.
void put_duration(Bytes& out, Time duration) { put_le16(out, static_cast<std::uint16_t>(duration.picoseconds() / 1'000'000)); }

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;  // 0x04C11DB7 reflected
    table[i] = c;
  }
  return table;
}
constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

// The Action body (8.5.1: Category, Action, then the action's fields). The 802.11s
// Congestion Control Notification is written field by field (8.5.17.3, element
// 8.4.2.102: destination mesh STA, then one 16-bit duration per access category in
// units of 100 us, AC_BK first); any other body keeps its size with zeros after
// Category and Action.
void append_action_body(Bytes& out, const ManagementBody& body) {
  const std::size_t start = out.size();
  put_u8(out, body.category());
  put_u8(out, body.action());
  if (const auto* cn = dynamic_cast<const mac::CongestionNotification*>(&body)) {
    put_u8(out, mac::CongestionNotification::kElementId);
    put_u8(out, 14);  // element length: address 6 + 4 durations of 2
    put_address(out, radio_mac(cn->destination()));
    for (const AccessCategory ac : {AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi,
                                    AccessCategory::ac_vo}) {
      put_le16(out, static_cast<std::uint16_t>(cn->duration(ac) / mac::CongestionNotification::kDurationUnit));
    }
  }
  out.resize(start + body.size_bytes(), 0);
}

}  // namespace

std::uint8_t qos_tid(const mac::Frame& frame) { return qos_tid(frame, frame.packet.get()); }

std::uint8_t qos_tid(const mac::Frame& frame, const Packet* packet) {
  if (packet != nullptr && packet->user_priority) return *packet->user_priority & 0x07;
  switch (frame.access_category) {
    case AccessCategory::ac_bk: return 1;
    case AccessCategory::ac_be: return 0;
    case AccessCategory::ac_vi: return 5;
    case AccessCategory::ac_vo: return 6;
  }
  return 0;
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  std::uint32_t c = 0xffffffffu;
  for (const std::uint8_t b : bytes) c = kCrcTable[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

void append_mpdu(Bytes& out, const mac::Frame& frame, std::span<const FlowTrace> flows) {
  append_mpdu(out, frame, flows, frame.packet.get());
}

void append_mpdu(Bytes& out, const mac::Frame& frame, std::span<const FlowTrace> flows, const Packet* packet) {
  const std::size_t start = out.size();
  const MacAddress48 ra = radio_mac(frame.receiver.radio());
  const MacAddress48 ta = radio_mac(frame.transmitter.radio());
  const std::uint8_t retry = frame.retry ? kFcRetry : 0;
  switch (frame.kind) {
    case mac::FrameKind::data:
    case mac::FrameKind::qos_data: {
      const bool qos = frame.kind == mac::FrameKind::qos_data;
      // The three-address header whose airtime the simulator charges (mac/frame.hpp
      // kDataHeaderBytes): To DS and From DS clear, one hop between neighbours
      // (8.2.4.1.4 Table 8-2; the IP header carries the flow's ends).
      put_u8(out, qos ? kFcQosData : kFcData);
      put_u8(out, retry);
      put_duration(out, frame.duration);
      put_address(out, ra);
      put_address(out, ta);
      put_address(out, ta);  // BSSID: a mesh STA's own address, as in Action frames
      put_sequence(out, frame.sequence);
      const Packet* p = packet;
      // QoS Control (8.2.4.5): TID in bits 0-3, EOSP 0, Ack Policy 00 (Normal Ack;
      // for a group-addressed frame no ACK follows, 9.3.2.8), A-MSDU absent.
      if (qos) put_le16(out, qos_tid(frame, p));
      // LLC/SNAP, RFC 1042: DSAP AA, SSAP AA, control 03 (UI), OUI 00-00-00, EtherType 0x0800 (IPv4).
      for (const std::uint8_t b : {0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00}) put_u8(out, b);
      if (p != nullptr) {
        const FlowTrace flow = p->flow < flows.size() ? flows[p->flow] : FlowTrace{};
        append_ip_datagram(out, *p, flow);
      }
      break;
    }
    case mac::FrameKind::rts:
      put_u8(out, kFcRts);
      put_u8(out, 0);
      put_duration(out, frame.duration);
      put_address(out, ra);
      put_address(out, ta);
      break;
    case mac::FrameKind::cts:
    case mac::FrameKind::ack:
      put_u8(out, frame.kind == mac::FrameKind::cts ? kFcCts : kFcAck);
      put_u8(out, 0);
      put_duration(out, frame.duration);
      put_address(out, ra);
      break;
    case mac::FrameKind::action:
      put_u8(out, kFcAction);
      put_u8(out, retry);
      put_duration(out, frame.duration);
      put_address(out, ra);
      put_address(out, ta);
      put_address(out, ta);  // BSSID: a mesh STA's own address
      put_sequence(out, frame.sequence);
      if (frame.management) append_action_body(out, *frame.management);
      break;
  }
  put_le32(out, crc32(std::span(out).subspan(start)));  // FCS, 8.2.4.8
}

}  // namespace wmnsim::trace
