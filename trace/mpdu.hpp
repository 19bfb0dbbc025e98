#pragma once
// A simulated MAC frame (mac/frame.hpp) as the octets of an 802.11 MPDU (IEEE
// 802.11-2012 8.2, 8.3), FCS included:
//
//   Data, QoS Data  Frame Control (type Data, subtype Data 0 or QoS Data 8; To DS
//                   and From DS clear: the three-address format of 8.2.4.1.4,
//                   Table 8-2, one hop between neighbours), Duration, Address 1
//                   RA, Address 2 TA, Address 3 BSSID (the transmitter's address),
//                   Sequence Control, QoS Control (QoS Data: TID), then LLC/SNAP
//                   (AA-AA-03 00-00-00 08-00, RFC 1042) and the IP datagram
//                   (trace/ip_datagram.hpp)
//   RTS             Frame Control (Control, 11), Duration, RA, TA        (8.3.1.2)
//   CTS, ACK        Frame Control (Control, 12 / 13), Duration, RA       (8.3.1.3, 8.3.1.4)
//   Action          Frame Control (Management, 13), Duration, DA, SA, BSSID (the
//                   transmitter's address), Sequence Control, the body   (8.3.3.1, 8.3.3.14)
//   FCS             CRC-32 over all of the above (8.2.4.8)
//
// The Retry bit, the Duration (the NAV value the MAC put in the frame) and the
// sequence number (the MAC's counter, 8.2.4.4) are the frame's own. Addresses:
// trace/addresses.hpp. Every MPDU is as long as the simulator's frame
// (mac::mpdu_bytes), so the durations Wireshark computes from length and rate are
// the airtimes the simulation used.

#include <cstdint>
#include <span>

#include "mac/frame.hpp"
#include "trace/byte_writer.hpp"
#include "trace/ip_datagram.hpp"

namespace wmnsim::trace {

// Frame Control, first octet: protocol version 0, type (bits 2-3), subtype (bits
// 4-7), IEEE 802.11-2012 8.2.4.1.3 Table 8-1.
inline constexpr std::uint8_t kFcAction = 0xd0;   // management (0), Action (13)
inline constexpr std::uint8_t kFcRts = 0xb4;      // control (1), RTS (11)
inline constexpr std::uint8_t kFcCts = 0xc4;      // control (1), CTS (12)
inline constexpr std::uint8_t kFcAck = 0xd4;      // control (1), ACK (13)
inline constexpr std::uint8_t kFcData = 0x08;     // data (2), Data (0)
inline constexpr std::uint8_t kFcQosData = 0x88;  // data (2), QoS Data (8)
// Frame Control, second octet (8.2.4.1.1).
inline constexpr std::uint8_t kFcToDs = 0x01;
inline constexpr std::uint8_t kFcFromDs = 0x02;
inline constexpr std::uint8_t kFcRetry = 0x08;

// The TID a QoS Data frame carries: the packet's 802.1D user priority (TIDs 0-7
// are user priorities, 8.2.4.5.2), else a user priority of the frame's access
// category (Table 9-1: AC_BK 1, AC_BE 0, AC_VI 5, AC_VO 6).
std::uint8_t qos_tid(const mac::Frame& frame);
std::uint8_t qos_tid(const mac::Frame& frame, const Packet* packet);

// CRC-32 of IEEE 802.3 (polynomial 0x04C11DB7, reflected, initial and final
// value 0xFFFFFFFF), which the FCS carries (IEEE 802.11-2012 8.2.4.8).
std::uint32_t crc32(std::span<const std::uint8_t> bytes);

// Appends the whole MPDU of `frame`, FCS included. `flows` describes the
// scenario's flows by index (the packet's Packet::flow).
void append_mpdu(Bytes& out, const mac::Frame& frame, std::span<const FlowTrace> flows);
// The same with `packet` in place of the frame's own (a data frame's body): a
// synthetic record (trace/pcap_trace.hpp, synthetic handshake) that reuses a real
// frame's addressing for a packet the simulation never made.
void append_mpdu(Bytes& out, const mac::Frame& frame, std::span<const FlowTrace> flows, const Packet* packet);

}  // namespace wmnsim::trace
