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

constexpr double kMaxWccpBeta = 1000.0;  // see the parse of "beta"

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
  WccpSenderConfig c;
  c.address = f.address;
  c.mss = f.payload_bytes;
  c.window_packets = static_cast<std::uint32_t>(wccp.window_packets);
  c.beta = wccp.beta;
  c.fast_retransmit = wccp.fast_retransmit;
  c.rto.min = wccp.min_rto;
  c.application = f.traffic.type == TrafficType::saturated ? TcpApplication::bulk : TcpApplication::written;
  if (c.application == TcpApplication::written && f.payload_bytes > 0) {
    c.desired_rate_pps = f.traffic.rate_bps / (8.0 * f.payload_bytes);  // while on, for on_off
  }
  c.start = f.start;
  c.stop = f.stop;
  c.user_priority = f.user_priority;
  TcpReceiverConfig r;
  r.address = f.address;
  r.mss = f.payload_bytes;
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
  e.doc = R"md(`udp`: datagrams with 28 bytes of UDP/IP headers, no ACKs and no keys of its own.)md";
  return e;
}

TransportEntry tcp_entry() {
  TransportEntry e;
  e.name = "tcp";
  e.keys = {"tcp"};
  e.header_bytes = 40;  // TCP (20) + IPv4 (20)
  e.sends_acks = true;
  e.build = build_tcp;
  e.series.assign(std::begin(TcpFlow::kSeries), std::end(TcpFlow::kSeries));
  e.parse = [](JsonReader& flow) {
    TcpConfig c;
    JsonReader t = flow.object("tcp");
    c.variant = t.choice_or("variant", TcpVariant::newreno, names(kTcpVariants));
    c.delayed_ack = t.boolean_or("delayed_ack", false);
    // At most RttEstimator's cap (RFC 6298 2.5: 60 s): a floor above the cap is no RTO.
    c.min_rto = t.seconds_or("min_rto_s", Time::ms(200), NumberRange::open_closed(0.0, 60.0));
    c.window_packets = static_cast<int>(t.integer_or("window_packets", 64, 1, 100000));
    // Absent: RFC 5681 3.1's IW (docs/transport.md, "TCP defaults").
    c.initial_window_segments = static_cast<int>(t.integer("initial_window_segments", 1, 100000).value_or(0));
    c.limited_transmit = t.boolean_or("limited_transmit", false);
    c.timestamps = t.boolean_or("timestamps", false);
    c.sack = t.boolean_or("sack", false);
    t.finish();
    return std::any(c);
  };
  e.schema = R"json({
  "properties": {
    "tcp": {
      "type": "object",
      "properties": {
        "variant": {
          "enum": [
            "newreno",
            "reno",
            "fixed_window"
          ],
          "description": "congestion control",
          "default": "newreno"
        },
        "delayed_ack": {
          "type": "boolean",
          "default": false,
          "description": "receiver ACKs every second segment"
        },
        "min_rto_s": {
          "type": "number",
          "description": "lower bound of the retransmission timeout (seconds), at most the 60-s cap (RFC 6298 2.5)",
          "exclusiveMinimum": 0,
          "maximum": 60,
          "default": 0.2
        },
        "window_packets": {
          "type": "integer",
          "description": "maximum window; the window itself for fixed_window",
          "minimum": 1,
          "maximum": 100000,
          "default": 64
        },
        "initial_window_segments": {
          "type": "integer",
          "description": "initial congestion window in segments; absent: RFC 5681 3.1's min(4 MSS, max(2 MSS, 4380 bytes)), 3 segments for MSS 1460 (ns-2.35 uses 2, Linux 10)",
          "minimum": 1,
          "maximum": 100000
        },
        "limited_transmit": {
          "type": "boolean",
          "default": false,
          "description": "RFC 3042: send a new segment on each of the first two duplicate ACKs"
        },
        "timestamps": {
          "type": "boolean",
          "default": false,
          "description": "RFC 7323 timestamps option (12 bytes per segment): an RTT sample from every ACK that advances SND.UNA"
        },
        "sack": {
          "type": "boolean",
          "default": false,
          "description": "RFC 2018 SACK option (up to 4 blocks, 3 with timestamps, on ACKs while data is held out of order) and RFC 6675 loss recovery"
        }
      },
      "additionalProperties": false
    }
  }
})json";
  e.doc = R"md(`tcp`: 40 bytes of TCP/IP headers, ACKs back (docs/transport.md). The `tcp` object:
`variant` `newreno` (default), `reno` or `fixed_window` (000 Sec. 5.5: a
fixed congestion window); `delayed_ack` (false); `min_rto_s` (0.2, at most 60);
`window_packets` (64: the maximum window, or the fixed window for `fixed_window`);
`initial_window_segments` (absent: RFC 5681 3.1's min(4 MSS, max(2 MSS, 4380 bytes)),
3 segments for MSS 1460 and 4 up to 1095 bytes; 1 to 100000; ns-2.35's agents
use 2, Linux 10); `limited_transmit` (false: RFC 3042); `timestamps` (false: RFC
7323, 12 more header bytes on every segment and an RTT sample from every ACK);
`sack` (false: RFC 2018 blocks on the ACKs, 12 to 36 bytes, and RFC 6675 loss
recovery in place of the variant's fast recovery).
docs/transport.md's "TCP defaults" lists every default beside ns-2's and Linux's.)md";
  return e;
}

TransportEntry wccp_entry() {
  TransportEntry e;
  e.name = "wccp";
  e.keys = {"wccp"};
  e.header_bytes = 52;  // TCP/IP (40) and the congestion header (12, transport/header_sizes.hpp)
  e.sends_acks = true;
  e.companion_controller = "wccp";
  e.build = build_wccp;
  e.series.assign(std::begin(WccpFlow::kSeries), std::end(WccpFlow::kSeries));
  e.parse = [](JsonReader& flow) {
    WccpConfig c;
    JsonReader w = flow.object("wccp");
    // 003 Sec. III-E chooses 5. The bound keeps T_c = beta / r_p (r_p >= 1/RTO, RTO <= 60 s)
    // within hours, inside the engine's time range; a larger beta is no control loop.
    c.beta = w.number_or("beta", 5.0, NumberRange::open_closed(0.0, kMaxWccpBeta));
    c.window_packets = static_cast<int>(w.integer_or("window_packets", 64, 1, 100000));
    c.min_rto = w.seconds_or("min_rto_s", Time::ms(200), NumberRange::open_closed(0.0, 60.0));
    c.fast_retransmit = w.boolean_or("fast_retransmit", true);
    w.finish();
    return std::any(c);
  };
  e.schema = R"json({
  "properties": {
    "wccp": {
      "type": "object",
      "properties": {
        "beta": {
          "type": "number",
          "description": "003 Eq. 15: at least beta packets per control interval",
          "exclusiveMinimum": 0,
          "maximum": 1000,
          "default": 5
        },
        "window_packets": {
          "type": "integer",
          "description": "at most this many segments outstanding (the receiver's window; 003 gives none)",
          "minimum": 1,
          "maximum": 100000,
          "default": 64
        },
        "min_rto_s": {
          "type": "number",
          "description": "lower bound of the retransmission timeout (seconds), as tcp's",
          "exclusiveMinimum": 0,
          "maximum": 60,
          "default": 0.2
        },
        "fast_retransmit": {
          "type": "boolean",
          "default": true,
          "description": "resend a lost segment on the third duplicate ACK or a partial ACK, at the next permit, without changing the rate (003 names only the timeout)"
        }
      },
      "additionalProperties": false
    }
  }
})json";
  e.doc = R"md(`wccp` (003 Sec. III-E): a rate-based sender over TCP's reliability, 52 bytes of
headers (TCP/IP and a 12-byte congestion header), ACKs back with the header copied
(docs/transport.md, "WCCP"). The `wccp` object: `beta` (5, Eq. 15, at most 1000); `window_packets`
(64); `min_rto_s` (0.2, at most 60); `fast_retransmit` (true). Its in-network half is the `wccp`
controller, added with its defaults on every wireless node when no `wccp`
controller is listed.)md";
  return e;
}

}  // namespace wmnsim::transport
