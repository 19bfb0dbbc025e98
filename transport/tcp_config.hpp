#pragma once
// The parameters of a TCP sender and receiver (transport/tcp_settings.hpp maps a
// flow's settings to them; docs/transport.md lists every choice and its
// RFC clause).

#include <cstdint>
#include <optional>

#include "transport/transport_config.hpp"  // TcpVariant
#include "transport/flow_address.hpp"
#include "transport/measurement_window.hpp"
#include "transport/rtt_estimator.hpp"

namespace wmnsim::transport {

// Where the sender's data comes from.
enum class TcpApplication {
  bulk,     // an infinite file: always data to send (saturated traffic; the papers' FTP)
  finite,   // finite_bytes, then done
  written,  // whatever write() hands over (a TrafficGenerator for cbr/poisson/on_off)
};

struct TcpSenderConfig {
  FlowAddress address;
  TcpVariant variant = TcpVariant::newreno;
  std::uint32_t mss = 1460;  // payload bytes per full segment (the flow's payload_bytes)
  // The receiver's window in segments (the window assumed until the first ACK
  // advertises one); for fixed_window, the window itself.
  std::uint32_t window_packets = kDefaultWindowPackets;
  // Initial window in segments; 0: RFC 5681 3.1's min(4 MSS, max(2 MSS, 4380 bytes)),
  // 3 segments for MSS 1460. ns-2.35's Agent/TCP: windowInit_ 2 (1 before 2001);
  // Linux: 10 (RFC 6928).
  std::uint32_t initial_window_segments = 0;
  // RFC 3042: a new segment on each of the first two duplicate ACKs.
  bool limited_transmit = false;
  // RFC 7323: the timestamps option on every segment; an RTT sample from every
  // ACK that advances SND.UNA (RTTM), which also times retransmitted segments.
  bool timestamps = false;
  // RFC 2018 SACK option with RFC 6675 loss recovery (the receiver must send
  // blocks: TcpReceiverConfig::sack). No SYN, so no SACK-permitted negotiation.
  bool sack = false;
  // With sack: what ssthresh halves when loss recovery begins (transport_config.hpp).
  SsthreshBasis ssthresh_from = SsthreshBasis::flight_size;
  RtoLimits rto;
  TcpApplication application = TcpApplication::bulk;
  std::uint64_t finite_bytes = 0;  // finite only
  Time start;                      // the application opens the connection
  std::optional<Time> stop;        // the application stops offering data
  bool trace_cwnd = false;         // record (time, cwnd bytes) at every change
  bool trace_rtt = false;          // record (time, RTT sample seconds)
  std::optional<std::uint8_t> user_priority;  // copied into every data segment (802.1D UP)
  bool handshake = false;          // SYN and FIN exchanges on the wire (reliable_sender.hpp)
};

struct TcpReceiverConfig {
  FlowAddress address;  // of the data: ACKs go address.dst -> address.src
  std::uint32_t mss = 1460;
  std::uint32_t window_packets = kDefaultWindowPackets;  // advertised window: window_packets * mss bytes
  bool delayed_ack = false;
  // RFC 1122 4.2.3.2 allows up to 500 ms; 200 ms as BSD and Linux. ns-2's
  // DelAck sink uses 100 ms (interval_).
  Time delayed_ack_timeout = Time::ms(200);
  MeasurementWindow window;  // goodput
  std::optional<std::uint8_t> ack_user_priority;  // copied into every ACK (802.1D UP)
  bool timestamps = false;  // RFC 7323: echo TS.Recent in every ACK
  bool sack = false;        // RFC 2018: SACK blocks on every ACK while data is held out of order
};

}  // namespace wmnsim::transport
