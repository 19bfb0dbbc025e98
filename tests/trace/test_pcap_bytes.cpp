// The octets of a trace, checked field by field against the published formats:
// radiotap.org (header, field numbers, alignment), IEEE 802.11-2012 8.2/8.3 (MAC
// headers, FCS), RFC 1042 (LLC/SNAP), RFC 791 (IPv4 and its checksum), RFC 768
// (UDP), RFC 793 and RFC 7323 (TCP and its timestamps option), and the pcap file
// format (nanosecond variant). Expected values are written out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "core/aodv_message.hpp"
#include "mac/congestion_notification.hpp"
#include "mac/frame.hpp"
#include "trace/addresses.hpp"
#include "trace/ip_datagram.hpp"
#include "trace/mpdu.hpp"
#include "trace/pcap_file.hpp"
#include "trace/radiotap.hpp"

namespace wmnsim::trace {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

std::uint16_t le16(const Bytes& b, std::size_t at) { return static_cast<std::uint16_t>(b[at] | (b[at + 1] << 8)); }
std::uint32_t le32(const Bytes& b, std::size_t at) {
  return std::uint32_t{b[at]} | (std::uint32_t{b[at + 1]} << 8) | (std::uint32_t{b[at + 2]} << 16) |
         (std::uint32_t{b[at + 3]} << 24);
}
std::uint16_t be16(const Bytes& b, std::size_t at) { return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]); }
std::uint32_t be32(const Bytes& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}
Bytes slice(const Bytes& b, std::size_t at, std::size_t n) { return Bytes(b.begin() + at, b.begin() + at + n); }

// ---- radiotap ---------------------------------------------------------------------

RadiotapInfo received_frame() {
  RadiotapInfo i;
  i.tsft_us = 0x0102030405060708ull;
  i.flags = kRadiotapFcsAtEnd;
  i.rate_500kbps = 22;  // 11 Mbit/s
  i.frequency_mhz = 2437;
  i.channel_flags = kChannelCck | kChannel2Ghz;
  i.antenna_signal_dbm = -71;
  i.antenna_noise_dbm = -94;
  return i;
}

TEST(Radiotap, ReceivedFrameFieldsAtTheirAlignedOffsets) {
  Bytes b;
  append_radiotap(b, received_frame());
  ASSERT_EQ(b.size(), 24u);
  EXPECT_EQ(b[0], 0);               // it_version
  EXPECT_EQ(le16(b, 2), 24);        // it_len
  // Bits 0 TSFT, 1 Flags, 2 Rate, 3 Channel, 5 dBm Antenna Signal, 6 dBm Antenna Noise.
  EXPECT_EQ(le32(b, 4), 0b110'1111u);
  EXPECT_EQ(slice(b, 8, 8), (Bytes{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));  // u64 at 8, little-endian
  EXPECT_EQ(b[16], 0x10);           // Flags: FCS at end
  EXPECT_EQ(b[17], 22);             // Rate
  EXPECT_EQ(le16(b, 18), 2437);     // Channel frequency, u16 aligned to 2
  EXPECT_EQ(le16(b, 20), 0x00a0);   // CCK | 2 GHz
  EXPECT_EQ(static_cast<std::int8_t>(b[22]), -71);
  EXPECT_EQ(static_cast<std::int8_t>(b[23]), -94);
}

TEST(Radiotap, TransmittedFrameCarriesTxPowerBit10) {
  RadiotapInfo i = received_frame();
  i.antenna_signal_dbm.reset();
  i.antenna_noise_dbm.reset();
  i.tx_power_dbm = 20;
  i.rate_500kbps = 108;  // 54 Mbit/s
  i.frequency_mhz = 5180;
  i.channel_flags = kChannelOfdm | kChannel5Ghz;
  Bytes b;
  append_radiotap(b, i);
  ASSERT_EQ(b.size(), 23u);
  EXPECT_EQ(le16(b, 2), 23);
  EXPECT_EQ(le32(b, 4), 0x40fu);  // bits 0-3 and 10
  EXPECT_EQ(b[17], 108);
  EXPECT_EQ(le16(b, 18), 5180);
  EXPECT_EQ(le16(b, 20), 0x0140);  // OFDM | 5 GHz
  EXPECT_EQ(b[22], 20);
}

TEST(Radiotap, AlignsFromTheHeadersOwnStart) {
  // Fields align to their size counted from the header's first octet, not from the
  // buffer's: a header appended after 3 octets has the same layout, shifted.
  Bytes alone, shifted{0xee, 0xee, 0xee};
  append_radiotap(alone, received_frame());
  append_radiotap(shifted, received_frame());
  EXPECT_EQ(Bytes(shifted.begin() + 3, shifted.end()), alone);
}

TEST(Radiotap, PowersRoundAndClampToSignedOctets) {
  EXPECT_EQ(dbm_s8(-70.4), -70);
  EXPECT_EQ(dbm_s8(-70.6), -71);
  EXPECT_EQ(dbm_s8(-300.0), -128);
  EXPECT_EQ(dbm_s8(300.0), 127);
}

// ---- 802.11 -----------------------------------------------------------------------

TEST(Mpdu, Crc32IsIeee8023s) {
  // The CRC-32 check value of "123456789" (the catalogue value of CRC-32/ISO-HDLC).
  const std::string text = "123456789";
  EXPECT_EQ(crc32(Bytes(text.begin(), text.end())), 0xcbf43926u);
}

struct UdpFrame {
  PacketPool pool;
  mac::Frame frame;
  std::vector<FlowTrace> flows{{IpProtocol::udp, 3}};
  UdpFrame() {
    frame.kind = mac::FrameKind::qos_data;
    frame.transmitter = mac::MacAddress(7);
    frame.receiver = mac::MacAddress(0x010203);
    frame.duration = Time::us(44);
    frame.sequence = 0xabc;
    frame.retry = true;
    frame.access_category = AccessCategory::ac_vi;
    frame.packet = pool.make(Time::zero());
    Packet& p = *frame.packet;
    p.id = 0x12345;
    p.src = 3;
    p.dst = 9;
    p.flow = 0;
    p.ttl = 61;
    p.user_priority = 5;
    p.size_bytes = 28 + 100;
    p.transport.payload_bytes = 100;
  }
};

TEST(Mpdu, QosDataThreeAddressHeaderAsLongAsTheSimulatedFrame) {
  UdpFrame u;
  Bytes b;
  append_mpdu(b, u.frame, u.flows);
  // 26-octet header (3 addresses + QoS Control) + 8 LLC/SNAP + 128 IP + 4 FCS: the
  // simulator's frame, octet for octet (a longer record would shift every
  // duration Wireshark computes from it).
  ASSERT_EQ(b.size(), 26u + 8 + 128 + 4);
  EXPECT_EQ(b.size(), mac::mpdu_bytes(mac::FrameKind::qos_data, 128));
  EXPECT_EQ(b[0], 0x88);                  // type Data, subtype QoS Data (Table 8-1)
  EXPECT_EQ(b[1], 0x08);                  // Retry; To DS and From DS clear
  EXPECT_EQ(le16(b, 2), 44);              // Duration: the NAV the MAC set, in us
  EXPECT_EQ(slice(b, 4, 6), (Bytes{0x02, 0x00, 0x00, 0x01, 0x02, 0x03}));   // RA: radio 0x010203
  EXPECT_EQ(slice(b, 10, 6), (Bytes{0x02, 0x00, 0x00, 0x00, 0x00, 0x07}));  // TA: radio 7
  EXPECT_EQ(slice(b, 16, 6), (Bytes{0x02, 0x00, 0x00, 0x00, 0x00, 0x07}));  // BSSID: the TA
  EXPECT_EQ(le16(b, 22), 0xabc << 4);     // Sequence Control: sequence number above fragment 0
  EXPECT_EQ(le16(b, 24), 5);              // QoS Control: TID = user priority 5
  EXPECT_EQ(slice(b, 26, 8), (Bytes{0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00}));  // RFC 1042
  // FCS over everything before it, little-endian.
  EXPECT_EQ(le32(b, b.size() - 4), crc32(slice(b, 0, b.size() - 4)));
}

TEST(Mpdu, BroadcastAndPlainData) {
  UdpFrame u;
  u.frame.kind = mac::FrameKind::data;
  u.frame.receiver = mac::MacAddress::broadcast();
  u.frame.retry = false;
  Bytes b;
  append_mpdu(b, u.frame, u.flows);
  EXPECT_EQ(b.size(), mac::mpdu_bytes(mac::FrameKind::data, 128));
  EXPECT_EQ(b[0], 0x08);
  EXPECT_EQ(b[1], 0x00);
  EXPECT_EQ(slice(b, 4, 6), (Bytes(6, 0xff)));
}

TEST(Mpdu, TidFallsBackToTheAccessCategorysUserPriority) {
  UdpFrame u;
  u.frame.packet->user_priority.reset();
  EXPECT_EQ(qos_tid(u.frame), 5);  // AC_VI
  u.frame.access_category = AccessCategory::ac_bk;
  EXPECT_EQ(qos_tid(u.frame), 1);
  u.frame.access_category = AccessCategory::ac_vo;
  EXPECT_EQ(qos_tid(u.frame), 6);
}

TEST(Mpdu, ControlFramesHaveTheirStandardSizes) {
  mac::Frame f;
  f.transmitter = mac::MacAddress(1);
  f.receiver = mac::MacAddress(2);
  f.duration = Time::us(300);
  for (const auto& [kind, fc] : {std::pair{mac::FrameKind::rts, 0xb4}, std::pair{mac::FrameKind::cts, 0xc4},
                                std::pair{mac::FrameKind::ack, 0xd4}}) {
    f.kind = kind;
    Bytes b;
    append_mpdu(b, f, {});
    EXPECT_EQ(b.size(), mac::mpdu_bytes(kind)) << mac::to_string(kind);
    EXPECT_EQ(b[0], fc);
    EXPECT_EQ(b[1], 0);
    EXPECT_EQ(le16(b, 2), 300);
    EXPECT_EQ(slice(b, 4, 6), (Bytes{0x02, 0, 0, 0, 0, 0x02}));
    if (kind == mac::FrameKind::rts) {
      EXPECT_EQ(slice(b, 10, 6), (Bytes{0x02, 0, 0, 0, 0, 0x01}));
    }
    EXPECT_EQ(le32(b, b.size() - 4), crc32(slice(b, 0, b.size() - 4)));
  }
}

TEST(Mpdu, CongestionNotificationActionFrame) {
  auto body = std::make_shared<mac::CongestionNotification>(4);
  body->set_duration(AccessCategory::ac_bk, Time::us(250));  // 3 units of 100 us, rounded up
  body->set_duration(AccessCategory::ac_vo, Time::ms(2));    // 20 units
  mac::Frame f;
  f.kind = mac::FrameKind::action;
  f.transmitter = mac::MacAddress(1);
  f.receiver = mac::MacAddress::broadcast();
  f.sequence = 17;
  f.management = body;
  Bytes b;
  append_mpdu(b, f, {});
  ASSERT_EQ(b.size(), f.size_bytes());  // 24 + 18 + 4
  EXPECT_EQ(b[0], 0xd0);                // management, Action
  EXPECT_EQ(slice(b, 16, 6), slice(b, 10, 6));  // BSSID: the transmitter
  EXPECT_EQ(le16(b, 22), 17 << 4);
  EXPECT_EQ(b[24], 13);   // Category: Mesh
  EXPECT_EQ(b[25], 3);    // Congestion Control Notification
  EXPECT_EQ(b[26], 116);  // Congestion Notification element
  EXPECT_EQ(b[27], 14);
  EXPECT_EQ(slice(b, 28, 6), (Bytes{0x02, 0, 0, 0, 0, 0x04}));
  EXPECT_EQ(le16(b, 34), 3);   // AC_BK
  EXPECT_EQ(le16(b, 36), 0);   // AC_BE
  EXPECT_EQ(le16(b, 38), 0);   // AC_VI
  EXPECT_EQ(le16(b, 40), 20);  // AC_VO
}

// ---- IP, UDP, TCP -----------------------------------------------------------------

TEST(IpDatagram, Ipv4HeaderAndUdp) {
  UdpFrame u;
  Bytes b;
  append_ip_datagram(b, *u.frame.packet, u.flows[0]);
  ASSERT_EQ(b.size(), 128u);         // the packet's real size
  EXPECT_EQ(b[0], 0x45);             // IPv4, IHL 5
  EXPECT_EQ(b[1], 5 << 5);           // precedence = user priority 5
  EXPECT_EQ(be16(b, 2), 128);        // Total Length
  EXPECT_EQ(be16(b, 4), 0x2345);     // Identification: packet id, low 16 bits
  EXPECT_EQ(b[8], 61);               // TTL
  EXPECT_EQ(b[9], 17);               // UDP
  EXPECT_EQ(be32(b, 12), 0x0a000004u);  // node 3 -> 10.0.0.4
  EXPECT_EQ(be32(b, 16), 0x0a00000au);  // node 9 -> 10.0.0.10
  // A correct header checksum makes the header sum to 0xffff (RFC 1071).
  EXPECT_EQ(ones_complement_sum(slice(b, 0, 20)), 0xffffu);
  EXPECT_EQ(be16(b, 20), data_src_port(0));  // the data direction: source port first
  EXPECT_EQ(be16(b, 22), data_dst_port(0));
  EXPECT_EQ(be16(b, 24), 108);               // UDP length: header + payload
  // UDP checksum over pseudo-header + datagram sums to 0xffff.
  Bytes pseudo{0x0a, 0, 0, 4, 0x0a, 0, 0, 10, 0, 17, 0, 108};
  EXPECT_EQ(ones_complement_sum(slice(b, 20, 108), ones_complement_sum(pseudo)), 0xffffu);
  for (std::size_t i = 28; i < b.size(); ++i) ASSERT_EQ(b[i], 0) << i;  // zero payload
}

TEST(IpDatagram, KnownIpv4Checksum) {
  // RFC 1071's procedure on a header worked by hand: 45 00 0073 0000 4000 40 11
  // xxxx c0a8 0001 c0a8 00c7 has checksum 0xb861.
  Bytes h{0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
          0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  EXPECT_EQ(finish_checksum(ones_complement_sum(h)), 0xb861);
}

TEST(IpDatagram, TcpAckWithTimestampsAndSackBlocks) {
  // RFC 2018 3 after RFC 7323's option: NOP NOP TS(10), NOP NOP SACK(2 + 8 * 2).
  PacketPool pool;
  const FlowTrace tcp{IpProtocol::tcp, 0};
  PacketPtr ack = pool.make(Time::zero());
  ack->src = 2;
  ack->dst = 0;
  ack->flow = 3;
  ack->size_bytes = 40 + 12 + 20;
  ack->transport.ack_valid = true;
  ack->transport.ack = (1ull << 32) + 6000;
  ack->transport.timestamps = true;
  ack->transport.add_sack((1ull << 32) + 8000, (1ull << 32) + 9000);
  ack->transport.add_sack((1ull << 32) + 7000, (1ull << 32) + 7500);
  Bytes a;
  append_ip_datagram(a, *ack, tcp);
  ASSERT_EQ(a.size(), 72u);
  EXPECT_EQ(a[32], 13 << 4);  // data offset: 52 octets
  EXPECT_EQ(slice(a, 40, 2), (Bytes{1, 1}));
  EXPECT_EQ(a[42], 8);
  EXPECT_EQ(slice(a, 52, 4), (Bytes{1, 1, 5, 18}));
  EXPECT_EQ(be32(a, 56), 8000u);
  EXPECT_EQ(be32(a, 60), 9000u);
  EXPECT_EQ(be32(a, 64), 7000u);
  EXPECT_EQ(be32(a, 68), 7500u);
  Bytes pseudo{0x0a, 0, 0, 3, 0x0a, 0, 0, 1, 0, 6, 0, 52};  // TCP length 52
  EXPECT_EQ(ones_complement_sum(slice(a, 20, 52), ones_complement_sum(pseudo)), 0xffffu);
}

// AODV's messages (core/aodv_message.hpp) are UDP port 654 both ways (RFC 3561
// Sec. 4) with the RFC's formats (Sec. 5); broadcasts go to 255.255.255.255.
TEST(IpDatagram, AodvRreqAndRrepOnPort654) {
  PacketPool pool;
  PacketPtr p = pool.make(Time::zero());
  p->src = 4;
  p->dst = aodv::kBroadcastAddress;
  p->ttl = 3;
  aodv::Rreq m;
  m.flags = aodv::Rreq::kUnknownSeq;
  m.hop_count = 2;
  m.rreq_id = 7;
  m.dst = 9;
  m.orig = 1;
  m.orig_seq = 12;
  aodv::encode(*p, m);
  Bytes b;
  append_ip_datagram(b, *p, FlowTrace{});
  ASSERT_EQ(b.size(), 52u);  // IP 20 + UDP 8 + RREQ 24
  EXPECT_EQ(b[9], 17);
  EXPECT_EQ(be32(b, 16), 0xffffffffu);
  EXPECT_EQ(be16(b, 20), 654);
  EXPECT_EQ(be16(b, 22), 654);
  EXPECT_EQ(be16(b, 24), 32);
  EXPECT_EQ(slice(b, 28, 4), (Bytes{1, 0x08, 0, 2}));  // type, U flag, reserved, hop count
  EXPECT_EQ(be32(b, 32), 7u);
  EXPECT_EQ(be32(b, 36), 0x0a00000au);  // node 9
  EXPECT_EQ(be32(b, 44), 0x0a000002u);  // node 1
  EXPECT_EQ(be32(b, 48), 12u);
  Bytes pseudo{0x0a, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0, 17, 0, 32};
  EXPECT_EQ(ones_complement_sum(slice(b, 20, 32), ones_complement_sum(pseudo)), 0xffffu);

  aodv::Rrep r;
  r.hop_count = 1;
  r.dst = 9;
  r.dst_seq = 3;
  r.orig = 1;
  r.lifetime = Time::ms(6000);
  p->dst = 5;
  aodv::encode(*p, r);
  Bytes c;
  append_ip_datagram(c, *p, FlowTrace{});
  ASSERT_EQ(c.size(), 48u);  // IP 20 + UDP 8 + RREP 20
  EXPECT_EQ(c[28], 2);
  EXPECT_EQ(c[31], 1);
  EXPECT_EQ(be32(c, 16), 0x0a000006u);
  EXPECT_EQ(be32(c, 44), 6000u);  // lifetime in ms
}

TEST(IpDatagram, TcpDataSegmentAndAck) {
  PacketPool pool;
  const FlowTrace tcp{IpProtocol::tcp, 0};
  PacketPtr data = pool.make(Time::zero());
  data->src = 0;
  data->dst = 2;
  data->flow = 3;
  data->size_bytes = 40 + 12 + 1000;
  data->transport.seq = (1ull << 32) + 5000;  // modulo 2^32 on the wire
  data->transport.payload_bytes = 1000;
  data->transport.timestamps = true;
  data->transport.ts_val = Time::ms(1500);
  Bytes b;
  append_ip_datagram(b, *data, tcp);
  ASSERT_EQ(b.size(), 1052u);
  EXPECT_EQ(b[9], 6);
  EXPECT_EQ(be16(b, 20), data_src_port(3));
  EXPECT_EQ(be16(b, 22), data_dst_port(3));
  EXPECT_EQ(be32(b, 24), 5000u);
  EXPECT_EQ(be32(b, 28), 0u);
  EXPECT_EQ(b[32], 8 << 4);   // data offset: 32 octets with the timestamps option
  EXPECT_EQ(b[33], 0x10);     // ACK (RFC 793: every segment past the SYN), acknowledging nothing
  data->transport.syn = true;  // an opening SYN, without ACK
  data->transport.payload_bytes = 0;
  data->transport.seq = 0;
  Bytes syn;
  append_ip_datagram(syn, *data, tcp);
  EXPECT_EQ(syn[33], 0x02);
  EXPECT_EQ(be32(syn, 24), 0xffffffffu);  // the initial sequence number 2^32 - 1: data starts at 0
  data->transport.syn = false;
  data->transport.ack = 1;  // the sender's ACK of the receiver's FIN: the number without ack_valid
  Bytes last;
  append_ip_datagram(last, *data, tcp);
  EXPECT_EQ(be32(last, 28), 1u);
  EXPECT_EQ(last[33], 0x10);
  data->transport.ack = 0;
  EXPECT_EQ(be16(b, 34), 65535);
  EXPECT_EQ(slice(b, 40, 4), (Bytes{1, 1, 8, 10}));  // NOP NOP TS len 10 (RFC 7323 App. A)
  EXPECT_EQ(be32(b, 44), 1'500'000u);                // TSval in microseconds
  Bytes pseudo{0x0a, 0, 0, 1, 0x0a, 0, 0, 3, 0, 6, 0x04, 0x08};  // TCP length 1032
  EXPECT_EQ(ones_complement_sum(slice(b, 20, 1032), ones_complement_sum(pseudo)), 0xffffu);

  PacketPtr ack = pool.make(Time::zero());
  ack->src = 2;
  ack->dst = 0;
  ack->flow = 3;
  ack->size_bytes = 40;
  ack->transport.ack_valid = true;
  ack->transport.ack = 6000;
  ack->transport.window_bytes = 1 << 20;  // saturates: no window scaling
  Bytes a;
  append_ip_datagram(a, *ack, tcp);
  ASSERT_EQ(a.size(), 40u);
  EXPECT_EQ(be16(a, 20), data_dst_port(3));  // the reverse direction
  EXPECT_EQ(be16(a, 22), data_src_port(3));
  EXPECT_EQ(be32(a, 28), 6000u);
  EXPECT_EQ(a[32], 5 << 4);
  EXPECT_EQ(a[33], 0x10);  // ACK
  EXPECT_EQ(be16(a, 34), 65535);
}

// ---- pcap file --------------------------------------------------------------------

class PcapFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("wmnsim_pcap_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  Bytes read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
  }
  std::filesystem::path dir_;
};

TEST_F(PcapFileTest, HeaderRecordsAndSnapLength) {
  const auto path = dir_ / "t.pcap";
  {
    PcapFile f(path, 100);
    f.write(Time::ps(2'000'000'123'456'789), Bytes(150, 0x5a));  // 2000.000123456789 s
    f.write(Time::us(5), Bytes(10, 0x11));
    EXPECT_FALSE(std::filesystem::exists(path));  // only the temporary file so far
    f.commit();
  }
  const Bytes b = read(path);
  ASSERT_EQ(b.size(), 24u + 16 + 100 + 16 + 10);
  EXPECT_EQ(le32(b, 0), 0xa1b23c4du);  // nanosecond pcap
  EXPECT_EQ(le16(b, 4), 2);
  EXPECT_EQ(le16(b, 6), 4);
  EXPECT_EQ(le32(b, 16), 100u);  // SnapLen
  EXPECT_EQ(le32(b, 20), 127u);  // LINKTYPE_IEEE802_11_RADIOTAP
  EXPECT_EQ(le32(b, 24), 2000u);
  EXPECT_EQ(le32(b, 28), 123456u);  // nanoseconds (picoseconds truncated)
  EXPECT_EQ(le32(b, 32), 100u);     // captured: cut to the snap length
  EXPECT_EQ(le32(b, 36), 150u);     // original length
  EXPECT_EQ(b[40], 0x5a);
  EXPECT_EQ(le32(b, 140 + 4), 5000u);
  EXPECT_EQ(le32(b, 140 + 8), 10u);
  EXPECT_EQ(le32(b, 140 + 12), 10u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), {}), 1);  // no temporary left
}

TEST_F(PcapFileTest, WithoutCommitNothingIsLeft) {
  {
    PcapFile f(dir_ / "t.pcap", 100);
    f.write(Time::us(1), Bytes(10, 0));
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), {}), 0);
}

TEST_F(PcapFileTest, AFolderThatDoesNotExistIsAnErrorNamingThePath) {
  try {
    PcapFile f(dir_ / "missing" / "t.pcap", 100);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing/t.pcap"), std::string::npos) << e.what();
  }
}

// pcapng (draft-ietf-opsawg-pcapng): blocks in order, each length at both ends.
TEST_F(PcapFileTest, PcapngBlocksInterfacesNamesAndComments) {
  const auto path = dir_ / "t.pcapng";
  CaptureLayout layout;
  layout.format = CaptureFormat::pcapng;
  layout.interfaces = {"A", "GW"};
  layout.names = {NameRecord{NameRecord::Kind::ipv4, {10, 0, 0, 3}, "GW"},
                  NameRecord{NameRecord::Kind::eui48, {2, 0, 0, 0, 0, 2}, "GW"}};
  {
    PcapFile f(path, 100, layout);
    f.write(Time::ps(2'000'000'123'456'789), Bytes(150, 0x5a), 1, "failed: collision, interferer A");
    f.write(Time::us(5), Bytes(10, 0x11));
    f.commit();
  }
  const Bytes b = read(path);
  std::vector<std::pair<std::uint32_t, std::size_t>> blocks;  // type, offset
  for (std::size_t at = 0; at < b.size();) {
    const std::uint32_t length = le32(b, at + 4);
    ASSERT_EQ(length % 4, 0u);
    ASSERT_LE(at + length, b.size());
    EXPECT_EQ(le32(b, at + length - 4), length);  // the trailing copy
    blocks.emplace_back(le32(b, at), at);
    at += length;
  }
  ASSERT_EQ(blocks.size(), 6u);
  EXPECT_EQ(blocks[0].first, 0x0a0d0d0au);  // Section Header
  EXPECT_EQ(le32(b, 8), 0x1a2b3c4du);       // byte-order magic
  EXPECT_EQ(le16(b, 12), 1);                // version 1.0
  for (int i : {1, 2}) {
    const std::size_t at = blocks[static_cast<std::size_t>(i)].second;
    EXPECT_EQ(blocks[static_cast<std::size_t>(i)].first, 1u);  // Interface Description
    EXPECT_EQ(le16(b, at + 8), 127);                           // LINKTYPE_IEEE802_11_RADIOTAP
    EXPECT_EQ(le32(b, at + 12), 100u);                         // SnapLen
    EXPECT_EQ(le16(b, at + 16), 2);                            // if_name
    const std::string name = i == 1 ? "A" : "GW";
    EXPECT_EQ(le16(b, at + 18), name.size());
    EXPECT_EQ(std::string(b.begin() + static_cast<std::ptrdiff_t>(at + 20),
                          b.begin() + static_cast<std::ptrdiff_t>(at + 20 + name.size())),
              name);
    EXPECT_EQ(le16(b, at + 24), 9);  // if_tsresol
    EXPECT_EQ(b[at + 28], 9);        // nanoseconds
  }
  const std::size_t nrb = blocks[3].second;
  EXPECT_EQ(blocks[3].first, 4u);  // Name Resolution
  EXPECT_EQ(le16(b, nrb + 8), 1);  // nrb_record_ipv4
  EXPECT_EQ(le16(b, nrb + 10), 4 + 3);
  EXPECT_EQ(b[nrb + 12], 10);
  EXPECT_EQ(b[nrb + 15], 3);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b[nrb + 16])), "GW");
  EXPECT_EQ(le16(b, nrb + 20), 3);  // nrb_record_eui48, after padding to 4
  EXPECT_EQ(le16(b, nrb + 22), 6 + 3);
  const std::size_t epb = blocks[4].second;
  EXPECT_EQ(blocks[4].first, 6u);   // Enhanced Packet
  EXPECT_EQ(le32(b, epb + 8), 1u);  // interface GW
  const std::uint64_t ns = (std::uint64_t{le32(b, epb + 12)} << 32) | le32(b, epb + 16);
  EXPECT_EQ(ns, 2'000'000'123'456ull);  // picoseconds truncated
  EXPECT_EQ(le32(b, epb + 20), 100u);   // captured: cut to the snap length
  EXPECT_EQ(le32(b, epb + 24), 150u);   // original length
  EXPECT_EQ(b[epb + 28], 0x5a);
  const std::size_t option = epb + 28 + 100;
  EXPECT_EQ(le16(b, option), 1);  // opt_comment
  const std::string comment = "failed: collision, interferer A";
  ASSERT_EQ(le16(b, option + 2), comment.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b[option + 4]), comment.size()), comment);
  // The second record: interface 0, no options at all.
  EXPECT_EQ(le32(b, blocks[5].second + 8), 0u);
  EXPECT_EQ(le32(b, blocks[5].second + 4), 28u + 12u + 4u);  // 10 octets padded to 12, the trailing length
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::trace
