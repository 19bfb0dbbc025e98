#include "transport/transport_entry.hpp"

#include <algorithm>
#include <iterator>

#include "transport/tcp_flow.hpp"
#include "transport/tcp_settings.hpp"
#include "transport/transport_config.hpp"
#include "transport/udp_flow.hpp"
#include "transport/wccp_flow.hpp"

namespace wmnsim::transport {

namespace {

// 003 Sec. III-E chooses 5. The bound keeps T_c = beta / r_p (r_p >= 1/RTO, RTO <= 60 s)
// within hours, inside the engine's time range; a larger beta is no control loop.
constexpr double kMaxWccpBeta = 1000.0;

// The largest window, initial or not, in segments: ours, far above any path's
// bandwidth-delay product here.
constexpr std::int64_t kMaxWindowSegments = 100000;

// The keys tcp and wccp share (WCCP takes them from TCP, 003 being silent), declared
// once: the same range, default and meaning in both objects.
const IntegerParameter& window_packets_key() {
  static const IntegerParameter key({.key = "window_packets",
                                     .unit = "segments",
                                     .min = 1,
                                     .max = kMaxWindowSegments,
                                     .fallback = kDefaultWindowPackets,
                                     .description = "the receiver's window: the most segments in flight (tcp's "
                                                    "fixed_window: the window itself)",
                                     .source = "ours (ns-2: 20, window_; 003 gives none)"});
  return key;
}

const TimeParameter& min_rto_key() {
  // At most RttEstimator's cap (RFC 6298 2.5): a floor above the cap is no RTO. The
  // cap's picoseconds divided exactly, so the schema's maximum is the cap itself.
  static const TimeParameter key({.key = "min_rto_s",
                                  .range = NumberRange::open_closed(
                                      0.0, static_cast<double>(RtoLimits{}.max.picoseconds()) / 1e12),
                                  .fallback = RtoLimits{}.min,
                                  .description = "lower bound of the retransmission timeout",
                                  .source = "RFC 6298 2.4-2.5; ns-2 minrto_, Linux TCP_RTO_MIN"});
  return key;
}

const TimeParameter& initial_rto_key() {
  // RFC 6298 2.1's RTO before the first RTT sample (clamped to [min_rto, max] as every RTO is);
  // ns-2.27, which 003 ran, had 6 s (rtxcur_init_; docs/transport.md), ns-2.35 3 s.
  static const TimeParameter key({.key = "initial_rto_s",
                                  .range = NumberRange::open_closed(
                                      0.0, static_cast<double>(RtoLimits{}.max.picoseconds()) / 1e12),
                                  .fallback = RtoLimits{}.initial,
                                  .description = "the retransmission timeout before the first RTT sample",
                                  .source = "RFC 6298 2.1 (1 s); ns-2 rtxcur_init_ (6 s in ns-2.27, 3 s in "
                                            "ns-2.35), Linux TCP_TIMEOUT_INIT (1 s)"});
  return key;
}

const BooleanParameter& handshake_key() {
  static const BooleanParameter key({.key = "handshake",
                                     .fallback = TcpConfig{}.handshake,
                                     .description = "open with SYN, SYN-ACK and ACK before the first data, and close a "
                                                    "finished or stopped transfer with FIN, FIN-ACK and ACK, as "
                                                    "segments on the air (resent after a timeout); false: the "
                                                    "connection starts established at start_s, as ns-2's TCP agents",
                                     .source = "RFC 9293 3.5-3.6, RFC 6298 5.7; ns-3's TcpSocketBase always "
                                               "handshakes"});
  return key;
}

// The keys of a flow's "tcp" object, declared once (config/parameter_table.hpp).
struct TcpKeys {
  ChoiceParameter<TcpVariant> variant;
  BooleanParameter delayed_ack;
  IntegerParameter initial_window_segments;
  BooleanParameter limited_transmit;
  BooleanParameter timestamps;
  BooleanParameter sack;
  ChoiceParameter<SsthreshBasis> ssthresh_from;
};

const TcpKeys& tcp_keys() {
  static const TcpKeys keys{
      ChoiceParameter<TcpVariant>({.key = "variant",
                                   .names = names(kTcpVariants),
                                   .fallback = TcpConfig{}.variant,
                                   .description = "congestion control; fixed_window: a fixed congestion window",
                                   .source = "RFC 6582, RFC 5681; 000 Sec. 5.5 (fixed_window)"}),
      BooleanParameter({.key = "delayed_ack",
                        .fallback = TcpConfig{}.delayed_ack,
                        .description = "the receiver ACKs every second segment (at most 200 ms late)",
                        .source = "RFC 1122 4.2.3.2"}),
      // Absent: RFC 5681 3.1's IW (docs/transport.md, "TCP defaults").
      IntegerParameter({.key = "initial_window_segments",
                        .unit = "segments",
                        .min = 1,
                        .max = kMaxWindowSegments,
                        .description = "initial congestion window; absent: min(4 MSS, max(2 MSS, 4380 bytes)), 3 "
                                       "segments for MSS 1460 and 4 up to 1095 bytes (ns-2.35 uses 2, Linux 10)",
                        .source = "RFC 5681 3.1"}),
      BooleanParameter({.key = "limited_transmit",
                        .fallback = TcpConfig{}.limited_transmit,
                        .description = "send a new segment on each of the first two duplicate ACKs",
                        .source = "RFC 3042"}),
      BooleanParameter({.key = "timestamps",
                        .fallback = TcpConfig{}.timestamps,
                        .description = "the timestamps option: 12 more header bytes on every segment, an RTT "
                                       "sample from every ACK that advances SND.UNA",
                        .source = "RFC 7323"}),
      BooleanParameter({.key = "sack",
                        .fallback = TcpConfig{}.sack,
                        .description = "SACK blocks on the ACKs while data is held out of order (up to 4, 3 with "
                                       "timestamps: 12 to 36 bytes), and SACK loss recovery in place of the "
                                       "variant's fast recovery",
                        .source = "RFC 2018, RFC 6675"}),
      ChoiceParameter<SsthreshBasis>(
          {.key = "ssthresh_from",
           .names = names(kSsthreshBases),
           .fallback = TcpConfig{}.ssthresh_from,
           .description = "with sack: what ssthresh (and cwnd) is half of when loss recovery begins. flight_size: "
                          "FlightSize, without what limited transmit sent; pipe: RFC 6675's pipe, FlightSize less "
                          "the SACKed bytes and those IsLost marks (4 segments less at the third duplicate ACK "
                          "after one lost segment), as ns-3 3.44 reads it. A timeout halves FlightSize either way",
           .source = "RFC 5681 eq. (4), RFC 6675 (4.2) (flight_size); ns-3 TcpSocketBase::EnterRecovery (pipe)"}),
  };
  return keys;
}

const ObjectParameter& tcp_object() {
  static const ObjectParameter object({
      .key = "tcp",
      .members = {tcp_keys().variant, tcp_keys().delayed_ack, min_rto_key(), initial_rto_key(), window_packets_key(),
                  tcp_keys().initial_window_segments, tcp_keys().limited_transmit, tcp_keys().timestamps,
                  tcp_keys().sack, tcp_keys().ssthresh_from, handshake_key()},
      .description = "the TCP sender's and receiver's settings (docs/transport.md)",
      .source = "",
  });
  return object;
}

// The keys of a flow's "wccp" object.
struct WccpKeys {
  NumberParameter beta;
  BooleanParameter fast_retransmit;
  ChoiceParameter<WccpTimeoutRestart> timeout_restart;
};

const WccpKeys& wccp_keys() {
  static const WccpKeys keys{
      NumberParameter({.key = "beta",
                       .range = NumberRange::open_closed(0.0, kMaxWccpBeta),
                       .fallback = WccpConfig{}.beta,
                       .description = "at least beta packets per control interval",
                       .source = "003 Sec. III-E, Eq. 15"}),
      BooleanParameter({.key = "fast_retransmit",
                        .fallback = WccpConfig{}.fast_retransmit,
                        .description = "resend a lost segment on the third duplicate ACK or a partial ACK, at "
                                       "the next permit, without changing the rate",
                        .source = "ours (003 names only the timeout)"}),
      ChoiceParameter<WccpTimeoutRestart>(
          {.key = "timeout_restart",
           .names = names(kWccpTimeoutRestarts),
           .fallback = WccpConfig{}.timeout_restart,
           .description = "the rate after the first timeout of a run: rto, 003's r_p = 1/RTO of the doubled timer; "
                          "srtt, a departure from 003 (ours, for a faster recovery): r_p = min(r_p, 1/srtt), the "
                          "rate of 003's start-up but never above the rate before the timeout (1/RTO before any RTT "
                          "sample)",
           .source = "003 Sec. III-E (rto); ours (srtt)"}),
  };
  return keys;
}

const ObjectParameter& wccp_object() {
  static const ObjectParameter object({
      .key = "wccp",
      .members = {wccp_keys().beta, window_packets_key(), min_rto_key(), initial_rto_key(),
                  wccp_keys().fast_retransmit, wccp_keys().timeout_restart, handshake_key()},
      .description = "the WCCP sender's settings (docs/transport.md, \"WCCP\")",
      .source = "",
  });
  return object;
}

std::unique_ptr<FlowEndpoint> build_udp(FlowBuildContext& site) {
  const FlowSpec& f = site.flow;
  UdpSourceConfig c;
  c.address = f.address;
  c.payload_bytes = f.payload_bytes;
  c.traffic = f.traffic;
  c.start = f.start;
  c.stop = f.stop;
  c.initial_backlog = static_cast<std::size_t>(site.saturated_backlog);
  c.user_priority = f.user_priority;
  auto flow = std::make_unique<UdpFlow>(site.scheduler, site.pool, site.src, c, site.arrivals, site.window);
  site.dst.set_endpoint(f.address.flow, flow->sink());
  if (flow->source().saturated()) site.src.set_backlog_source(f.address.flow, flow->backlog(), site.saturated_backlog);
  return flow;
}

std::unique_ptr<FlowEndpoint> build_tcp(FlowBuildContext& site) {
  const FlowSpec& f = site.flow;
  const auto& tcp = std::any_cast<const TcpConfig&>(f.params);
  auto flow = std::make_unique<TcpFlow>(site.scheduler, site.pool, site.src, site.dst, tcp_sender_config(tcp, f),
                                        tcp_receiver_config(tcp, f, site.window), f.traffic, site.arrivals);
  site.src.set_endpoint(f.address.flow, flow->sender());
  site.dst.set_endpoint(f.address.flow, flow->receiver());
  return flow;
}

std::unique_ptr<FlowEndpoint> build_wccp(FlowBuildContext& site) {
  const FlowSpec& f = site.flow;
  const auto& wccp = std::any_cast<const WccpConfig&>(f.params);
  const WccpSenderConfig c = wccp_sender_config(wccp, f);
  TcpReceiverConfig r;
  r.address = f.address;
  r.mss = f.payload_bytes;
  // The receiver advertises exactly the sender's window, so that the shared core's
  // duplicate-ACK test (RFC 5681 2, which includes "the advertised window is
  // unchanged") counts the same ACKs as WCCP's own did before the split (issue 46):
  // a receiver with another window would change WCCP's fast retransmit.
  r.window_packets = c.window_packets;
  r.window = site.window;
  r.ack_user_priority = f.ack_user_priority;
  auto flow = std::make_unique<WccpFlow>(site.scheduler, site.pool, site.src, site.dst, c, r, f.traffic, site.arrivals);
  site.src.set_endpoint(f.address.flow, flow->sender());
  site.dst.set_endpoint(f.address.flow, flow->receiver());
  return flow;
}

}  // namespace

TransportRegistry builtin_transports() {
  TransportRegistry r;
  r.add(udp_entry());
  r.add(tcp_entry());
  r.add(wccp_entry());
  return r;
}

std::vector<FlowSeriesKind> series_kinds(const TransportRegistry& transports) {
  std::vector<FlowSeriesKind> kinds;
  for (const TransportEntry& e : transports.entries()) {
    for (const FlowSeriesKind& k : e.series) {
      if (std::none_of(kinds.begin(), kinds.end(), [&](const FlowSeriesKind& x) { return x.name == k.name; })) {
        kinds.push_back(k);
      }
    }
  }
  return kinds;
}

TransportEntry udp_entry() {
  TransportEntry e;
  e.name = "udp";
  e.header_bytes = 28;  // UDP (8) + IPv4 (20)
  e.build = build_udp;
  e.summary = "datagrams with 28 bytes of UDP/IP headers, no ACKs and no keys of its own.";
  e.source = "RFC 768";
  return e;
}

TransportEntry tcp_entry() {
  TransportEntry e;
  e.name = "tcp";
  e.header_bytes = 40;  // TCP (20) + IPv4 (20)
  e.sends_acks = true;
  e.build = build_tcp;
  e.series.assign(std::begin(TcpFlow::kSeries), std::end(TcpFlow::kSeries));
  e.parse = [](JsonReader& flow) {
    const TcpKeys& k = tcp_keys();
    TcpConfig c;
    JsonReader t = tcp_object().open(flow);
    c.variant = k.variant.read_or(t);
    c.delayed_ack = k.delayed_ack.read_or(t);
    c.min_rto = min_rto_key().read_or(t);
    c.initial_rto = initial_rto_key().read_or(t);
    c.window_packets = static_cast<int>(window_packets_key().read_or(t));
    c.initial_window_segments = static_cast<int>(k.initial_window_segments.read(t).value_or(0));
    c.limited_transmit = k.limited_transmit.read_or(t);
    c.timestamps = k.timestamps.read_or(t);
    c.sack = k.sack.read_or(t);
    c.ssthresh_from = k.ssthresh_from.read_or(t);
    if (c.ssthresh_from == SsthreshBasis::pipe && !c.sack) {
      // The pipe needs the SACK scoreboard; ns-3 without SACK guesses one from the
      // duplicate ACKs, which wmnsim does not model.
      t.issues().add(t.path_of("ssthresh_from"),
                     "\"pipe\" needs \"sack\": true (the pipe is read from the SACK scoreboard); set sack to "
                     "true or ssthresh_from to \"flight_size\"");
    }
    c.handshake = handshake_key().read_or(t);
    t.finish();
    return std::any(c);
  };
  e.summary = "40 bytes of TCP/IP headers, ACKs back (docs/transport.md, whose \"TCP defaults\" lists every "
              "default beside ns-2's and Linux's).";
  e.source = "RFC 9293";
  e.parameters = {tcp_object()};
  return e;
}

TransportEntry wccp_entry() {
  TransportEntry e;
  e.name = "wccp";
  e.header_bytes = 52;  // TCP/IP (40) and the congestion header (12, transport/header_sizes.hpp)
  e.sends_acks = true;
  e.companion_controller = "wccp";
  e.build = build_wccp;
  e.series.assign(std::begin(WccpFlow::kSeries), std::end(WccpFlow::kSeries));
  e.parse = [](JsonReader& flow) {
    const WccpKeys& k = wccp_keys();
    WccpConfig c;
    JsonReader w = wccp_object().open(flow);
    c.beta = k.beta.read_or(w);
    c.window_packets = static_cast<int>(window_packets_key().read_or(w));
    c.min_rto = min_rto_key().read_or(w);
    c.initial_rto = initial_rto_key().read_or(w);
    c.fast_retransmit = k.fast_retransmit.read_or(w);
    c.timeout_restart = k.timeout_restart.read_or(w);
    c.handshake = handshake_key().read_or(w);
    w.finish();
    return std::any(c);
  };
  e.summary = "a rate-based sender over TCP's reliability, 52 bytes of headers (TCP/IP and a 12-byte congestion "
              "header), ACKs back with the header copied (docs/transport.md, \"WCCP\"). Its in-network half is "
              "the `wccp` controller, added with its defaults on every wireless node when no `wccp` controller is "
              "listed.";
  e.source = "003 Sec. III-E";
  e.parameters = {wccp_object()};
  return e;
}

}  // namespace wmnsim::transport
