#pragma once
// 802.11 MAC frames: the kinds wmnsim sends, their on-air sizes, the fields a MAC
// acts on, and the Duration (NAV) values each kind carries.
//
// Sizes are MPDU octets including the 4-octet FCS (IEEE 802.11-2012 clause 8.3):
//   DATA      24-octet header (Frame Control, Duration, Address 1-3, Sequence Control)
//   QoS DATA  26-octet header (the above plus QoS Control; no Address 4, no HT Control)
//   RTS 20, CTS 14, ACK 14 octets in total.
//   Action    24-octet management header (Frame Control, Duration, Address 1-3,
//             Sequence Control; 8.3.3.1, no HT Control) + the body
//             (core/management_body.hpp: Category, Action, elements) + FCS.
// A data frame carrying an IP packet adds 8 octets of LLC/SNAP before it: the IEEE
// 802.2 LLC header AA-AA-03 and the SNAP OUI 00-00-00 with EtherType 0x0800
// (RFC 1042 encapsulation, which 802.11 uses for IP). So a 1500-octet IP packet
// makes a 24 + 8 + 1500 + 4 = 1536-octet DATA MPDU (1538 as QoS DATA).

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "core/management_body.hpp"
#include "core/packet.hpp"
#include "mac/mac_params.hpp"
#include "core/time.hpp"
#include "phy/phy_frame.hpp"

namespace wmnsim::mac {

// `action`: a management frame of subtype Action (8.3.3.14), the only management
// frames wmnsim sends (802.11s congestion notification among them).
enum class FrameKind : std::uint8_t { data, qos_data, ack, rts, cts, action };

inline constexpr std::uint32_t kFcsBytes = 4;
inline constexpr std::uint32_t kDataHeaderBytes = 24;
inline constexpr std::uint32_t kQosDataHeaderBytes = 26;
inline constexpr std::uint32_t kLlcSnapBytes = 8;
inline constexpr std::uint32_t kAckBytes = 14;
inline constexpr std::uint32_t kRtsBytes = 20;
inline constexpr std::uint32_t kCtsBytes = 14;
inline constexpr std::uint32_t kManagementHeaderBytes = 24;

constexpr bool is_data(FrameKind k) { return k == FrameKind::data || k == FrameKind::qos_data; }

constexpr std::string_view to_string(FrameKind k) {
  switch (k) {
    case FrameKind::data: return "data";
    case FrameKind::qos_data: return "qos_data";
    case FrameKind::ack: return "ack";
    case FrameKind::rts: return "rts";
    case FrameKind::cts: return "cts";
    case FrameKind::action: return "action";
  }
  return "?";
}

// MPDU size in octets, FCS included; `ip_bytes` is the carried packet (data), or
// the frame body (action).
constexpr std::uint32_t mpdu_bytes(FrameKind kind, std::uint32_t ip_bytes = 0) {
  switch (kind) {
    case FrameKind::data: return kDataHeaderBytes + kLlcSnapBytes + ip_bytes + kFcsBytes;
    case FrameKind::qos_data: return kQosDataHeaderBytes + kLlcSnapBytes + ip_bytes + kFcsBytes;
    case FrameKind::ack: return kAckBytes;
    case FrameKind::rts: return kRtsBytes;
    case FrameKind::cts: return kCtsBytes;
    case FrameKind::action: return kManagementHeaderBytes + ip_bytes + kFcsBytes;
  }
  return 0;
}

// A radio's MAC address: the network-wide index of the radio (phy::RadioId), or
// broadcast.
class MacAddress {
 public:
  constexpr explicit MacAddress(std::uint32_t radio) : value_(radio) {}
  static constexpr MacAddress broadcast() { return MacAddress(kBroadcast); }

  constexpr bool is_broadcast() const { return value_ == kBroadcast; }
  constexpr std::uint32_t radio() const { return value_; }
  constexpr bool operator==(const MacAddress&) const = default;

 private:
  static constexpr std::uint32_t kBroadcast = kBroadcastRadio;
  std::uint32_t value_;
};

// One MPDU, and the PHY's opaque payload. Move-only: a data frame owns the packet it
// carries. On the air it is shared read-only by every receiver (phy_frame.hpp), so
// the receiver that accepts a data frame takes PacketPool::clone() of its packet,
// while the sender keeps its own until the ACK comes or it gives up.
struct Frame final : phy::PhyPayload {
  FrameKind kind = FrameKind::data;
  // TA. ACK and CTS carry no TA on the air (8.3.1.3, 8.3.1.4); the simulator still
  // records the sender for traces, but a receiving MAC must not act on it there.
  MacAddress transmitter = MacAddress::broadcast();
  MacAddress receiver = MacAddress::broadcast();  // RA
  Time duration;                // Duration field: the NAV others set, whole microseconds
  std::uint16_t sequence = 0;   // 12-bit sequence number, data and action only (8.2.4.4)
  bool retry = false;           // Retry bit (8.2.4.1.8): duplicate filtering with `sequence`
  // Not on the air: the transmitter's serial of the MPDU, the same in its every
  // retransmission, so that a receiver tells a false duplicate (a new MPDU with a
  // reused sequence number) from a true one (mac/duplicate_filter.hpp). 0: none.
  std::uint64_t mpdu_id = 0;
  AccessCategory access_category = AccessCategory::ac_be;  // QoS DATA only
  PacketPtr packet;             // data kinds only
  // Action only: the body, shared read-only by the sender (for retries) and every
  // receiver.
  std::shared_ptr<const ManagementBody> management;

  std::uint32_t size_bytes() const {
    if (kind == FrameKind::action) return mpdu_bytes(kind, management ? management->size_bytes() : 0);
    return mpdu_bytes(kind, packet ? packet->size_bytes : 0);
  }
};

// ---- Duration field ----------------------------------------------------------------
// The field carries whole microseconds, at most 32767 (8.2.4.2); a computed value
// with a fractional microsecond is rounded UP (8.3.1.2, 8.3.1.3). Arguments are
// airtimes (TXTIME of the whole PPDU) and the PHY's SIFS.

inline constexpr Time kMaxDuration = Time::us(32767);

constexpr Time duration_field(Time t) {
  if (t < Time::zero() || t > kMaxDuration) {
    throw std::logic_error("Duration field value out of range 0..32767 us: " + t.to_string());
  }
  constexpr std::int64_t ps_per_us = 1'000'000;
  return Time::us((t.picoseconds() + ps_per_us - 1) / ps_per_us);
}

// RTS: pending data + CTS + ACK + 3 SIFS (8.3.1.2).
constexpr Time rts_duration(Time data, Time cts, Time ack, Time sifs) {
  return duration_field(cts + data + ack + 3 * sifs);
}

// CTS answering an RTS: the RTS's Duration - SIFS - the CTS itself (8.3.1.3).
constexpr Time cts_duration(Time rts_duration_field, Time cts, Time sifs) {
  return duration_field(rts_duration_field - sifs - cts);
}

// Individually addressed, unfragmented data outside a multi-frame TXOP: the ACK and
// its SIFS (8.2.5, single protection). Group-addressed data carries 0.
constexpr Time data_duration(Time ack, Time sifs) { return duration_field(sifs + ack); }

// ACK of an unfragmented frame: 0 (8.3.1.4, More Fragments = 0).
constexpr Time ack_duration() { return Time::zero(); }

// Multiple protection under EDCA (8.2.5.2): a frame sent inside a TXOP may protect
// the rest of it, i.e. from its own end to the end of the TXOP.
constexpr Time txop_remaining_duration(Time frame_end, Time txop_end) {
  return duration_field(txop_end > frame_end ? txop_end - frame_end : Time::zero());
}

}  // namespace wmnsim::mac
