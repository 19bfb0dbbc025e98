#pragma once
// What a flow asks of its transport and its application, as a scenario's flow
// entry gives it (docs/scenario.md, `flows`), with the name tables.

#include <array>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "transport/rtt_estimator.hpp"  // RtoLimits

namespace wmnsim {

enum class TrafficType { saturated, cbr, poisson, on_off };
enum class PeriodDistribution { exponential, constant };
enum class TcpVariant { newreno, reno, fixed_window };
// What a SACK sender halves for ssthresh when loss recovery begins: flight_size,
// RFC 5681 eq. (4) and RFC 6675 (4.2) (FlightSize, without what limited transmit
// sent); pipe, ns-3's reading (TcpSocketBase::EnterRecovery hands the congestion
// control BytesInFlight, RFC 6675's pipe: FlightSize less what is SACKed and what
// IsLost marks, 4 segments less than FlightSize at the third duplicate ACK).
enum class SsthreshBasis { flight_size, pipe };
// The rate a WCCP sender restarts from after the first of a run of timeouts:
// rto, 003 Sec. III-E's r_p = 1/RTO of the doubled timer; srtt, ours (a departure,
// off by default): r_p = min(r_p, 1/srtt), the rate 003 starts a flow from at its
// first ACK but never above the rate before the timeout (1/RTO before any RTT
// sample).
enum class WccpTimeoutRestart { rto, srtt };

// The receiver's window when a flow's transport object gives none, in segments:
// ours (ns-2's window_ is 20), for TCP and for WCCP (003 is silent on it).
inline constexpr int kDefaultWindowPackets = 64;

// What the application offers; the transport decides what is sent.
struct TrafficConfig {
  TrafficType type = TrafficType::saturated;
  double rate_bps = 0.0;  // cbr/poisson: mean offered load; on_off: load while on
  Time packet_interval;   // payload_bytes * 8 / rate_bps (mean for poisson)
  double phase = 0.0;     // cbr only: the first packet leaves phase x packet_interval after the start
  Time jitter;            // cbr only: each packet leaves a uniform [0, jitter) after its nominal time
  Time on_mean;           // on_off only
  Time off_mean;          // on_off only
  PeriodDistribution periods = PeriodDistribution::exponential;
};

struct TcpConfig {
  TcpVariant variant = TcpVariant::newreno;
  bool delayed_ack = false;
  Time min_rto = transport::RtoLimits{}.min;
  Time initial_rto = transport::RtoLimits{}.initial;  // RFC 6298 2.1
  int window_packets = kDefaultWindowPackets;  // maximum window; the fixed window for fixed_window
  int initial_window_segments = 0;  // 0: RFC 5681 3.1 eq. (1) (3 segments for MSS 1460)
  bool limited_transmit = false;    // RFC 3042
  bool timestamps = false;          // RFC 7323 option: RTTM on every ACK, 12 bytes per segment
  bool sack = false;                // RFC 2018 option, RFC 6675 loss recovery
  SsthreshBasis ssthresh_from = SsthreshBasis::flight_size;  // SACK recovery only
  bool handshake = false;           // RFC 9293 3.5-3.6: SYN and FIN exchanges on the wire
};

struct WccpConfig {
  double beta = 5.0;  // 003 Eq. 15: at least beta packets per control interval
  // Where 003 is silent (transport/wccp_sender.hpp): TCP's receiver window, RTO
  // floor and fast retransmit, with TcpConfig's defaults.
  int window_packets = TcpConfig{}.window_packets;
  Time min_rto = TcpConfig{}.min_rto;
  Time initial_rto = TcpConfig{}.initial_rto;
  bool fast_retransmit = true;
  bool handshake = false;
  WccpTimeoutRestart timeout_restart = WccpTimeoutRestart::rto;  // 003's rule by default
};

inline constexpr std::array<EnumName<TrafficType>, 4> kTrafficTypes{
    {{"saturated", TrafficType::saturated},
     {"cbr", TrafficType::cbr},
     {"poisson", TrafficType::poisson},
     {"on_off", TrafficType::on_off}}};
inline constexpr std::array<EnumName<PeriodDistribution>, 2> kPeriodDistributions{
    {{"exponential", PeriodDistribution::exponential}, {"constant", PeriodDistribution::constant}}};
inline constexpr std::array<EnumName<TcpVariant>, 3> kTcpVariants{
    {{"newreno", TcpVariant::newreno},
     {"reno", TcpVariant::reno},
     {"fixed_window", TcpVariant::fixed_window}}};
inline constexpr std::array<EnumName<SsthreshBasis>, 2> kSsthreshBases{
    {{"flight_size", SsthreshBasis::flight_size}, {"pipe", SsthreshBasis::pipe}}};
inline constexpr std::array<EnumName<WccpTimeoutRestart>, 2> kWccpTimeoutRestarts{
    {{"rto", WccpTimeoutRestart::rto}, {"srtt", WccpTimeoutRestart::srtt}}};
constexpr std::string_view to_string(TrafficType v) { return enum_name(names(kTrafficTypes), v); }
constexpr std::string_view to_string(TcpVariant v) { return enum_name(names(kTcpVariants), v); }

}  // namespace wmnsim
