#include "runner/run_scenario.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/delay_distribution.hpp"
#include "core/fairness.hpp"
#include "core/sim_log.hpp"
#include "config/json_reader.hpp"
#include "runner/mac_sampler.hpp"
#include "runner/flow_sampler.hpp"
#include "runner/network.hpp"
#include "runner/hop_statistics.hpp"
#include "runner/routing_results.hpp"
#include "results/result_columns.hpp"
#include "runner/result_rows.hpp"
#include "scenario/registries.hpp"
#include "trace/air_observer_fanout.hpp"
#include "trace/event_trace.hpp"
#include "trace/pcap_trace.hpp"

namespace wmnsim {

namespace {

std::vector<mac::MacSampler::Radio> sampled_radios(Network& net) {
  std::vector<mac::MacSampler::Radio> radios;
  radios.reserve(net.macs().node_macs.items().size());  // held for the run: no spare capacity
  const Scenario& s = net.scenario();
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    const std::span<mac::Mac* const> macs = net.macs().node_macs[n];
    for (std::size_t r = 0; r < macs.size(); ++r) {
      radios.push_back({macs[r], s.nodes[n].id, r});
    }
  }
  return radios;
}

// Names nodes in log lines and applies the --log-node filter. Before the network
// is built: controllers starting at 0 act (and log) while it is.
void configure_log(Simulation& sim, const Scenario& s, const std::vector<std::string>& log_nodes) {
  SimLog& log = sim.scheduler().log();
  // The labels only name lines: with the log off (the level is the Simulation's,
  // for the whole run) none is written, so none is held (32 B per node; issue 43 §3).
  if (log.level() != spdlog::level::off) {
    std::vector<std::string> nodes;
    for (const NodeConfig& n : s.nodes) nodes.push_back(n.id);
    log.set_node_labels(std::move(nodes));
  }
  std::vector<std::uint32_t> filter;
  std::vector<ValidationIssue> unknown;
  for (const std::string& id : log_nodes) {
    const auto it = std::find_if(s.nodes.begin(), s.nodes.end(), [&](const NodeConfig& n) { return n.id == id; });
    if (it == s.nodes.end()) {
      unknown.push_back({"--log-node", "\"" + id + "\": no node has this id (the ids are under /nodes)"});
    } else {
      filter.push_back(static_cast<std::uint32_t>(it - s.nodes.begin()));
    }
  }
  if (!unknown.empty()) throw ScenarioError(std::move(unknown));
  log.set_node_filter(filter);
}

// Names radios (MAC addresses) in log lines as the samplers do: "B", "B/1".
void label_radios(Network& net) {
  if (net.simulation().scheduler().log().level() == spdlog::level::off) return;  // as configure_log's
  std::vector<std::string> radios;
  for (const mac::MacSampler::Radio& r : sampled_radios(net)) {
    const std::uint32_t address = r.mac->address();
    if (address >= radios.size()) radios.resize(address + 1);
    radios[address] = r.id();
  }
  net.simulation().scheduler().log().set_radio_labels(std::move(radios));
}

nlohmann::ordered_json drops_json(const std::array<DropTally, kDropCauseCount>& by_cause) {
  nlohmann::ordered_json j;
  for (std::size_t c = 0; c < kDropCauseCount; ++c) j[std::string(to_string(static_cast<DropCause>(c)))] = by_cause[c].packets;
  return j;
}
nlohmann::ordered_json drops_json(const DropCounters& d) { return drops_json(d.by_cause); }

// FlowMonitor's default delay histogram bin width (ns-3 FlowMonitor attribute
// DelayBinWidth, 0.001 s).
constexpr Time kDelayHistogramBinWidth = Time::ms(1);

// `stop`: where the run ended (the duration, or earlier when interrupted). The
// endpoints compute goodput over the configured window [begin, end); a run stopped
// before `end` delivered nothing after the stop, so the same bytes over the clipped
// window [begin, stop) are goodput * (end - begin) / (stop - begin).
void write_flows(Network& net, Results& out, Time stop) {
  const Scenario& s = net.scenario();
  const transport::MeasurementWindow window = net.window();
  const Time clipped_end = std::min(window.end, stop);
  const double goodput_scale =
      clipped_end >= window.end || window.end == Time::max() ? 1.0  // (open-ended: goodput is 0 anyway)
      : clipped_end > window.begin ? (window.end - window.begin).to_seconds() / (clipped_end - window.begin).to_seconds()
                                   : 0.0;
  std::vector<double> goodput;
  std::vector<std::vector<std::string>> routes;
  std::vector<double> hops;  // links on each flow's data route
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    goodput.push_back(net.flow(i).goodput_bps() * goodput_scale);
    routes.push_back(net.route_of(i));
    hops.push_back(routes.back().empty() ? 0.0 : static_cast<double>(routes.back().size() - 1));
  }
  double total = 0.0;
  for (double g : goodput) total += g;
  const std::vector<std::uint64_t> in_network = net.ledger().flow_in_network(net.pool());
  bool any_fair_share = false;
  for (const FlowConfig& f : s.flows) any_fair_share = any_fair_share || f.fair_share_bps.has_value();
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const FlowConfig& f = s.flows[i];
    const transport::FlowEndpoint& e = net.flow(i);
    const FlowEnds ends = net.routing().flows[i];
    const std::vector<std::string>& route = routes[i];
    const FlowDeliveries& d = net.ledger().flow_deliveries(static_cast<std::uint32_t>(i));
    nlohmann::ordered_json row;
    flow_column::id.set(row, f.id);
    flow_column::transport.set(row, f.transport_name);
    flow_column::src.set(row, s.nodes[ends.src].id);
    flow_column::dst.set(row, s.nodes[ends.dst].id);
    flow_column::hops.set(row, static_cast<std::uint64_t>(hops[i]));
    flow_column::goodput_bps.set(row, goodput[i]);
    flow_column::share.set(row, total > 0 ? goodput[i] / total : 0.0);
    flow_column::sent_packets.set(row, e.packets_sent());
    flow_column::delivered_packets.set(row, d.packets);
    put_flow_statistics(e, row);  // the transport's own (TCP: retransmissions, timeouts)
    nlohmann::ordered_json tail;  // the columns after them, which no statistic may take
    const DropCounters& drops = net.ledger().flow_drops(static_cast<std::uint32_t>(i));
    const auto of_cause = [&](DropCause c) { return drops.by_cause[static_cast<std::size_t>(c)].packets; };
    flow_column::dropped_packets.set(tail, drops.total.packets);
    // The MAC gave up at its retry limit: collisions, or channel errors under sinr
    // (003 Sec. II-B counts these "drops due to collision").
    flow_column::drops_retry_limit.set(tail, of_cause(DropCause::retry_limit));
    flow_column::drops_queue_overflow.set(tail, of_cause(DropCause::queue_overflow));
    flow_column::drops_queue_early_drop.set(tail, of_cause(DropCause::queue_early_drop));
    flow_column::drops_rate_limit.set(tail, of_cause(DropCause::rate_limit));
    flow_column::drops_no_route.set(tail, of_cause(DropCause::no_route));
    flow_column::drops_ttl_expired.set(tail, of_cause(DropCause::ttl_expired));
    flow_column::drops_lifetime_expired.set(tail, of_cause(DropCause::lifetime_expired));
    flow_column::drops_false_duplicate.set(tail, of_cause(DropCause::false_duplicate));
    static_assert(kDropCauseCount == 8, "a new drop cause needs its flow column");
    flow_column::delay_mean_s.set(tail, d.mean_delay_s());
    flow_column::delay_max_s.set(tail, d.window_delay_max_s);
    // FlowMonitor-style columns (docs/results.md, "Per-flow statistics").
    const DelayDistribution::Summary delays = d.window_delays.summary();
    flow_column::delay_p50_s.set(tail, delays.p50_s);
    flow_column::delay_p95_s.set(tail, delays.p95_s);
    flow_column::delay_p99_s.set(tail, delays.p99_s);
    flow_column::jitter_s.set(tail, d.window_jitter.mean_s());
    const FlowSent& sent = net.ledger().flow_sent(static_cast<std::uint32_t>(i));
    flow_column::tx_packets.set(tail, sent.tx_packets);
    flow_column::tx_bytes.set(tail, sent.tx_bytes);
    flow_column::rx_packets.set(tail, d.packets);
    flow_column::rx_bytes.set(tail, d.bytes);
    flow_column::lost_packets.set(tail, sent.lost_packets);
    flow_column::in_network_packets.set(tail, in_network[i]);
    if (any_fair_share) {
      flow_column::fair_ratio.set(tail, f.fair_share_bps ? std::optional<double>(goodput[i] / *f.fair_share_bps)
                                                         : std::nullopt);
    }
    flow_column::route.set(tail, route);
    append_columns(row, tail);
    out.flows.push_back(std::move(row));
    nlohmann::ordered_json bins = nlohmann::ordered_json::array();
    for (const DelayDistribution::Bin& b : d.window_delays.histogram(kDelayHistogramBinWidth)) {
      bins.push_back({b.index, b.count});
    }
    out.flow_delay_histograms.push_back(
        {{"flow", f.id}, {"bin_width_s", kDelayHistogramBinWidth.to_seconds()}, {"bins", std::move(bins)}});
  }
  // Flows of different transports may report different statistics.
  same_keys(out.flows);
  summary_column::jain_fairness_index.set(out.summary, jain_fairness_index(goodput));
  summary_column::total_goodput_bps.set(out.summary, total);
  // U = sum over flows of rate x hops: the airtime-weighted work the mesh did (001 Sec. 3).
  double utilization = 0.0;
  for (std::size_t i = 0; i < s.flows.size(); ++i) utilization += goodput[i] * hops[i];
  summary_column::effective_utilization_bps.set(out.summary, utilization);
  if (any_fair_share) {
    // 001 Sec. 5: each flow's rate against its fair share, and the utilisation
    // against the fair allocation's U_opt = sum of fair share x hops (same flows).
    double min_ratio = 0.0, max_ratio = 0.0, u = 0.0, u_opt = 0.0;
    bool first = true;
    for (std::size_t i = 0; i < s.flows.size(); ++i) {
      if (!s.flows[i].fair_share_bps) continue;
      const double fair = *s.flows[i].fair_share_bps;
      const double ratio = goodput[i] / fair;
      min_ratio = first ? ratio : std::min(min_ratio, ratio);
      max_ratio = first ? ratio : std::max(max_ratio, ratio);
      first = false;
      u += goodput[i] * hops[i];
      u_opt += fair * hops[i];
    }
    summary_column::min_fair_ratio.set(out.summary, min_ratio);
    summary_column::max_fair_ratio.set(out.summary, max_ratio);
    summary_column::utilization_ratio.set(out.summary, u_opt > 0 ? std::optional<double>(u / u_opt) : std::nullopt);
  }
}

// `summaries`: the MACs' delay summaries, shared with the radios table.
void write_nodes(Network& net, Results& out, Time stop, DelaySummaries& summaries) {
  const Scenario& s = net.scenario();
  const Time elapsed = net.simulation().now();
  const Time clipped_end = std::min(net.window().end, stop);
  const double window_s = clipped_end > net.window().begin ? (clipped_end - net.window().begin).to_seconds() : 0.0;
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    const Node& node = net.node(n);
    const DropCounters& d = net.ledger().node_drops(static_cast<std::uint32_t>(n));
    nlohmann::ordered_json row;
    node_column::id.set(row, s.nodes[n].id);
    node_column::role.set(row, std::string(to_string(s.nodes[n].role)));
    node_column::originated.set(row, node.counters().originated);
    node_column::forwarded.set(row, node.counters().forwarded);
    node_column::delivered.set(row, node.counters().delivered);
    node_column::drops.set(row, d.total.packets);
    for (std::size_t c = 0; c < kDropCauseCount; ++c) node_drops(static_cast<DropCause>(c)).set(row, d.by_cause[c].packets);
    node_column::drops_local.set(row, d.local.packets);
    node_column::drops_intra_mesh.set(row, d.intra_mesh.packets);
    node_column::drops_intra_mesh_queue_overflow.set(
        row, d.intra_mesh_by_cause[static_cast<std::size_t>(DropCause::queue_overflow)].packets);
    node_column::weighted_loss_bps.set(
        row, window_s > 0 ? static_cast<double>(d.window_total.hop_weighted_bits) / window_s : 0.0);
    // MAC totals summed over the node's radios (busyness: the mean); hosts have none.
    const std::span<mac::Mac* const> macs = net.macs().node_macs[n];
    nlohmann::ordered_json mac_sum;
    for (const mac::Mac* m : macs) {
      const nlohmann::ordered_json totals = mac::MacSampler::totals(*m, elapsed);
      for (const auto& [key, value] : totals.items()) {
        if (!mac_sum.contains(key)) {
          mac_sum[key] = value;
        } else if (value.is_number_float()) {
          mac_sum[key] = mac_sum[key].get<double>() + value.get<double>();
        } else {
          mac_sum[key] = mac_sum[key].get<std::uint64_t>() + value.get<std::uint64_t>();
        }
      }
    }
    if (macs.size() > 1) {
      for (const auto* busy : {&mac_column::channel_busyness, &mac_column::channel_busyness_ns2}) {
        busy->set(mac_sum, busy->of(mac_sum) / static_cast<double>(macs.size()));
      }
    }
    node_column::radios.set(row, static_cast<std::uint64_t>(macs.size()));
    for (auto& [key, value] : mac_sum.items()) row[key] = value;
    if (!macs.empty()) {
      // MAC service delay (head of the queue to ACK or drop) and queueing delay
      // (arrival in the queue to its head), the node's radios pooled; the radios
      // table has them per radio. One radio's pool is its own distribution (the same
      // delays, and the same sum: 0.0 + x), whose summary the radios table reuses.
      if (macs.size() == 1) {
        put_delay_columns(row, kMacServiceDelay, summaries.of(macs[0]->service_delays()));
        put_delay_columns(row, kMacQueueingDelay, summaries.of(macs[0]->queueing_delays()));
      } else {
        DelayDistribution service, queueing;
        for (const mac::Mac* m : macs) {
          service.merge(m->service_delays());
          queueing.merge(m->queueing_delays());
        }
        put_delay_columns(row, kMacServiceDelay, service);
        put_delay_columns(row, kMacQueueingDelay, queueing);
      }
    }
    out.nodes.push_back(std::move(row));
  }
  same_keys(out.nodes);
}

// A flow that was on during the run and delivered no packet at all: the results
// would show goodput 0 among the others, easy to miss and almost never intended.
void warn_silent_flows(const Network& net, Results& out, Time stop) {
  const Scenario& s = net.scenario();
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const FlowConfig& f = s.flows[i];
    if (f.start >= std::min(s.simulation.duration, stop)) continue;  // never on: cut by a shorter or stopped run
    const auto flow = static_cast<std::uint32_t>(i);
    if (net.ledger().flow_deliveries(flow).packets > 0) continue;
    const DropCounters& drops = net.ledger().flow_drops(flow);
    std::string causes;
    for (std::size_t c = 0; c < kDropCauseCount; ++c) {
      if (drops.by_cause[c].packets == 0) continue;
      causes += (causes.empty() ? "" : ", ") + std::string(to_string(static_cast<DropCause>(c))) + " " +
                std::to_string(drops.by_cause[c].packets);
    }
    std::string route;
    for (const std::string& id : net.route_of(i)) route += (route.empty() ? "" : " -> ") + id;
    std::string message = "flow \"" + f.id + "\" delivered nothing (sent " +
                          std::to_string(net.flow(i).packets_sent()) + ", dropped " +
                          std::to_string(drops.total.packets) + (causes.empty() ? "" : ": " + causes) +
                          "); route " + route;
    out.warnings.push_back({pointer_join("/flows", i), std::move(message)});
  }
}

// Time series kinds the scenario format has but no layer records yet: refused,
// never accepted and left empty.
void reject_unsupported_outputs(const Scenario& scenario) {
  for (std::size_t i = 0; i < scenario.timeseries.size(); ++i) {
    const std::string& kind = scenario.timeseries[i];
    if (const char* why = why_not_recorded(kind)) {
      throw NotSupportedError("/outputs/timeseries/" + std::to_string(i) + ": \"" + kind +
                              "\" is not recorded yet: " + why + "; remove it from the list");
    }
  }
}

// ---- outputs.pcap (docs/traces.md) ----

constexpr const char* kPcapPath = "/outputs/pcap/path";

trace::PcapTraceOptions pcap_options(const Scenario& s) {
  const PcapOutput& p = *s.outputs.pcap;
  trace::PcapTraceOptions o;
  o.path = p.path;
  o.per = p.per == PcapSplit::node ? trace::TraceSplit::node : trace::TraceSplit::channel;
  o.snap_length = static_cast<std::uint32_t>(p.snap_length);
  o.max_bytes = static_cast<std::uint64_t>(p.max_bytes);
  o.format = p.format == PcapFormat::pcapng ? trace::CaptureFormat::pcapng : trace::CaptureFormat::pcap;
  o.synthetic_handshake = p.synthetic_handshake;
  o.failed = p.failed == PcapFailed::all              ? trace::FailedFrames::all
             : p.failed == PcapFailed::decoded_header ? trace::FailedFrames::decoded_header
                                                      : trace::FailedFrames::none;
  if (!p.nodes.empty()) {
    o.nodes.assign(s.nodes.size(), false);
    for (const std::size_t n : p.nodes) o.nodes[n] = true;
  }
  return o;
}

trace::TracedNetwork traced_network(const Network& net) {
  const Scenario& s = net.scenario();
  trace::TracedNetwork t;
  for (const NodeConfig& n : s.nodes) t.node_ids.push_back(n.id);
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const std::string& name = s.flows[i].transport_name;
    // WCCP (003) runs over TCP; a registered transport the trace cannot name goes
    // out as IP protocol 253 (experimental).
    const trace::IpProtocol protocol = name == "udp"                    ? trace::IpProtocol::udp
                                       : name == "tcp" || name == "wccp" ? trace::IpProtocol::tcp
                                                                         : trace::IpProtocol::experimental;
    trace::FlowTrace flow;
    flow.protocol = protocol;
    flow.data_src_node = net.routing().flows[i].src;
    flow.data_dst_node = net.routing().flows[i].dst;
    // TCP and WCCP without a handshake of their own (transport/transport_config.hpp).
    if (s.outputs.pcap && s.outputs.pcap->synthetic_handshake) {
      const auto* tcp = std::any_cast<TcpConfig>(&s.flows[i].transport_params);
      const auto* wccp = std::any_cast<WccpConfig>(&s.flows[i].transport_params);
      const bool handshake = (tcp != nullptr && tcp->handshake) || (wccp != nullptr && wccp->handshake);
      flow.synthetic_handshake = protocol == trace::IpProtocol::tcp && !handshake;
      if (const auto fields = net.flow(i).connection_fields()) {
        flow.receiver_window_bytes = fields->receiver_window_bytes;
        flow.sender_user_priority = fields->sender_user_priority;
        flow.receiver_user_priority = fields->receiver_user_priority;
      }
    }
    t.flows.push_back(flow);
  }
  // Numbered as Network::wired_link: link k's direction d is wire 2k + d.
  for (const WiredLinkConfig& link : s.links) {
    t.wires.push_back({static_cast<std::uint32_t>(link.a), static_cast<std::uint32_t>(link.b)});
    t.wires.push_back({static_cast<std::uint32_t>(link.b), static_cast<std::uint32_t>(link.a)});
  }
  return t;
}

// The wired links' packets, told to the pcap trace as each starts its serialization
// (the medium, which the trace watches, does not see them), so the wired file is
// in time order. Watching only reads.
class WireTaps {
 public:
  WireTaps(Network& net, trace::PcapTrace& pcap) {
    for (std::size_t k = 0; k < net.scenario().links.size(); ++k) {
      for (std::size_t d = 0; d < 2; ++d) {
        link::WiredLink& link = net.wired_link(k, d);
        taps_.push_back(std::make_unique<Tap>(pcap, link, 2 * k + d));
        link.set_wire_observer(taps_.back().get());
      }
    }
  }
  ~WireTaps() {
    for (auto& tap : taps_) tap->link.set_wire_observer(nullptr);
  }
  WireTaps(const WireTaps&) = delete;
  WireTaps& operator=(const WireTaps&) = delete;

 private:
  struct Tap final : link::WireObserver {
    Tap(trace::PcapTrace& p, link::WiredLink& l, std::size_t w) : pcap(p), link(l), wire(w) {}
    void on_serialization_start(const Packet& packet, Time start) override { pcap.on_wire(wire, packet, start); }
    trace::PcapTrace& pcap;
    link::WiredLink& link;
    std::size_t wire;
  };
  std::vector<std::unique_ptr<Tap>> taps_;
};

// The trace files must be writable and must not overwrite the scenario's other
// outputs: checked before the run, as check_output_files does for those.
void check_pcap_files(const Network& net, const std::vector<std::string>& other_outputs = {}) {
  const Scenario& s = net.scenario();
  std::vector<OutputFile> files;
  const trace::TracedNetwork traced = traced_network(net);
  const auto paths = trace::trace_files(*net.phy().medium, pcap_options(s), traced);
  const auto owners = trace::trace_file_owners(*net.phy().medium, pcap_options(s), traced);
  for (std::size_t f = 0; f < paths.size(); ++f) {
    files.push_back({std::string(kPcapPath) + ", the capture of " + owners[f], paths[f]});
  }
  std::vector<ValidationIssue> issues;
  for (const std::string& problem : check_output_files({}, files)) issues.push_back({kPcapPath, problem});
  const auto same = [](const std::filesystem::path& a, const std::filesystem::path& b) {
    return std::filesystem::absolute(a).lexically_normal() == std::filesystem::absolute(b).lexically_normal();
  };
  for (const OutputFile& f : files) {
    for (const auto& other : {s.outputs.results_file, s.outputs.timeseries_file}) {
      if (other && same(f.path, *other)) {
        issues.push_back({kPcapPath, "the trace file " + f.path.string() + " is also an output file of " +
                                         "/outputs; choose another path"});
      }
    }
    for (const std::string& other : other_outputs) {
      if (same(f.path, other)) {
        issues.push_back({kPcapPath, "the trace file " + f.path.string() +
                                         " is also the run's -o or --csv file; choose another path"});
      }
    }
  }
  if (!issues.empty()) throw ScenarioError(std::move(issues));
}

// ---- outputs.event_trace (docs/traces.md "Event trace") ----

constexpr const char* kEventTracePath = "/outputs/event_trace/path";

trace::EventTraceOptions event_trace_options(const Scenario& s) {
  const EventTraceOutput& e = *s.outputs.event_trace;
  trace::EventTraceOptions o;
  o.path = e.path;
  if (!e.nodes.empty()) {
    o.nodes.assign(s.nodes.size(), false);
    for (const std::size_t n : e.nodes) o.nodes[n] = true;
  }
  o.kinds = e.kinds;
  o.start = e.start;
  o.end = e.end;
  o.max_records = static_cast<std::uint64_t>(e.max_records);
  return o;
}

// As the pcap files: writable, and none of the run's other output files.
void check_event_trace_file(const Network& net, const std::vector<std::string>& other_outputs = {}) {
  const Scenario& s = net.scenario();
  const std::filesystem::path path = s.outputs.event_trace->path;
  std::vector<ValidationIssue> issues;
  for (const std::string& problem : check_output_files({}, {{kEventTracePath, path}})) {
    issues.push_back({kEventTracePath, problem});
  }
  const auto same = [](const std::filesystem::path& a, const std::filesystem::path& b) {
    return std::filesystem::absolute(a).lexically_normal() == std::filesystem::absolute(b).lexically_normal();
  };
  for (const auto& other : {s.outputs.results_file, s.outputs.timeseries_file}) {
    if (other && same(path, *other)) {
      issues.push_back({kEventTracePath, "the event trace " + path.string() + " is also an output file of " +
                                             "/outputs; choose another path"});
    }
  }
  for (const std::string& other : other_outputs) {
    if (same(path, other)) {
      issues.push_back({kEventTracePath, "the event trace " + path.string() +
                                             " is also the run's -o or --csv file; choose another path"});
    }
  }
  if (s.outputs.pcap) {
    for (const auto& f : trace::trace_files(*net.phy().medium, pcap_options(s), traced_network(net))) {
      if (same(path, f)) {
        issues.push_back({kEventTracePath, "the event trace " + path.string() +
                                               " is also a file of /outputs/pcap; choose another path"});
      }
    }
  }
  if (!issues.empty()) throw ScenarioError(std::move(issues));
}

// The trace, subscribed to every MAC and node of `net`, into `trace`.
void start_event_trace(Network& net, std::optional<trace::EventTrace>& trace) {
  const Scenario& s = net.scenario();
  std::vector<mac::Mac*> macs;
  for (const auto& m : net.macs().macs) macs.push_back(m.get());
  std::vector<Node*> nodes;
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    nodes.push_back(&net.node(i));
    ids.push_back(s.nodes[i].id);
  }
  try {
    trace.emplace(event_trace_options(s), *net.phy().medium, macs, nodes, ids);
  } catch (const trace::CaptureWriteError& e) {
    throw ScenarioError(std::vector<ValidationIssue>{{kEventTracePath, e.what()}});
  }
}

}  // namespace

const char* why_not_recorded(std::string_view /*timeseries_kind*/) {
  // Every kind of the scenario format is recorded since WCCP (003) landed; a new
  // kind whose layer is still missing is named here with the reason.
  return nullptr;
}

void check_runnable(const Scenario& scenario) { check_runnable(scenario, Registries{}); }

void check_runnable(const Scenario& scenario, const Registries& registries) {
  reject_unsupported_outputs(scenario);
  // The network a run builds, built the same way: what it refuses, a run refuses.
  Simulation sim(scenario.simulation.seed, scenario.name, spdlog::level::off);
  Network net(sim, scenario, registries.controllers);
  if (scenario.outputs.pcap) check_pcap_files(net);
  if (scenario.outputs.event_trace) check_event_trace_file(net);
}

Results run_scenario(const Scenario& scenario, const RunOptions& options) {
  return run_scenario(scenario, options, Registries{});
}

Results run_scenario(const Scenario& scenario, const RunOptions& options, const Registries& registries) {
  reject_unsupported_outputs(scenario);
  Simulation sim(scenario.simulation.seed, scenario.name, options.log_level);
  if (options.fingerprint) sim.scheduler().enable_fingerprint();
  configure_log(sim, scenario, options.log_nodes);
  Network net(sim, scenario, registries.controllers, options.sample_budget);
  label_radios(net);
  // The trace only reads (phy/air_observer.hpp): it leaves the run's events as they are.
  std::optional<trace::PcapTrace> pcap;
  if (scenario.outputs.pcap) {
    check_pcap_files(net, options.other_output_files);
    try {
      pcap.emplace(*net.phy().medium, pcap_options(scenario), traced_network(net));
    } catch (const trace::CaptureWriteError& e) {
      throw ScenarioError(std::vector<ValidationIssue>{{kPcapPath, e.what()}});
    }
  }
  std::optional<WireTaps> wire_taps;
  if (pcap) wire_taps.emplace(net, *pcap);
  // The synthetic close goes into the trace when the transfer completes; the
  // listeners are taken back before the trace goes (this ends first).
  struct CompletionsWatched {
    Network& net;
    std::vector<std::uint32_t> flows;
    ~CompletionsWatched() {
      for (const std::uint32_t i : flows) net.flow(i).set_completion_listener(nullptr);
    }
  } completions{net, {}};
  if (pcap && scenario.outputs.pcap->synthetic_handshake) {
    const std::vector<trace::FlowTrace>& traced = pcap->network().flows;
    for (std::uint32_t i = 0; i < traced.size(); ++i) {
      if (!traced[i].synthetic_handshake) continue;
      net.flow(i).set_completion_listener(
          [&pcap, &sim, i](std::uint64_t data_end) { pcap->on_flow_completed(i, data_end, sim.scheduler().now()); });
      completions.flows.push_back(i);
    }
  }
  // Likewise the event trace; beside a pcap trace, both watch the air through a fanout.
  std::optional<trace::EventTrace> events;
  std::optional<trace::AirObserverFanout> air;
  if (scenario.outputs.event_trace) {
    check_event_trace_file(net, options.other_output_files);
    start_event_trace(net, events);
    std::vector<phy::AirObserver*> observers;
    if (pcap) observers.push_back(&*pcap);
    observers.push_back(&*events);
    air.emplace(*net.phy().medium, std::move(observers));
  }
  // Routes and controllers report to the trace while it exists (this ends first).
  struct DecisionsWatched {
    Network& net;
    ~DecisionsWatched() { net.observe_decisions(nullptr); }
  } decisions_watched{net};
  if (events) net.observe_decisions(&*events);
  const Time interval = scenario.simulation.measurement_interval;
  std::optional<HopStatistics> hop_statistics;
  if (scenario.outputs.hops) hop_statistics.emplace(net);
  FlowSampler flow_sampler(net, registries.transports, interval, scenario.timeseries);
  mac::MacSampler mac_sampler(sim, [&net] { return sampled_radios(net); }, interval, scenario.timeseries);
  flow_sampler.start();
  mac_sampler.start();

  const auto wall_start = std::chrono::steady_clock::now();
  bool finished = false;
  try {
    finished = sim.run_until(scenario.simulation.duration, options.control);
  } catch (const trace::EventTraceWriteError& e) {
    throw ScenarioError(std::vector<ValidationIssue>{{kEventTracePath, e.what()}});
  } catch (const trace::CaptureWriteError& e) {
    // A trace that no longer fits the disk, as at commit below and as the results
    // file (exit 2, the earlier file kept): the user's to fix, not an internal error.
    throw ScenarioError(std::vector<ValidationIssue>{{kPcapPath, e.what()}});
  }
  const auto wall_end = std::chrono::steady_clock::now();

  Results out;
  out.scenario = scenario.document;
  out.seed = scenario.simulation.seed;
  out.stats.simulated = sim.now();
  out.stats.events_executed = sim.scheduler().executed();
  if (const Fingerprint* fp = sim.scheduler().fingerprint()) out.stats.fingerprint = *fp;
  out.stats.wall_time_s = std::chrono::duration<double>(wall_end - wall_start).count();
  out.stats.interrupted = !finished;
  const Network::SetupTimes& setup = net.setup_times();
  out.stats.setup_s = {{"phy", setup.phy_s},
                       {"routing_links", setup.routing_links_s},
                       {"routing", setup.routing_s},
                       {"layers", setup.layers_s}};
  // Stopped early, the tables still cover what was measured up to the stop, with
  // the measurement window clipped to it (docs/results.md, "Partial results"); the
  // trace holds the frames up to the stop.
  out.stats.partial = !finished;
  if (pcap) {
    try {
      pcap->commit();
    } catch (const trace::CaptureWriteError& e) {
      throw ScenarioError(std::vector<ValidationIssue>{{kPcapPath, e.what()}});
    }
    if (const auto cut = pcap->cut_at()) {
      out.warnings.push_back({"/outputs/pcap/max_bytes",
                              "the trace stops at " + format_number(cut->to_seconds()) + " s simulated: its files reached " +
                                  std::to_string(scenario.outputs.pcap->max_bytes) +
                                  " bytes (max_bytes); raise max_bytes, trace fewer nodes or a shorter run"});
    }
  }

  if (events) {
    try {
      events->commit();
    } catch (const trace::CaptureWriteError& e) {
      throw ScenarioError(std::vector<ValidationIssue>{{kEventTracePath, e.what()}});
    }
    if (const auto cut = events->cut_at()) {
      out.warnings.push_back({"/outputs/event_trace/max_records",
                              "the event trace stops at " + format_number(cut->to_seconds()) + " s simulated: it holds " +
                                  std::to_string(scenario.outputs.event_trace->max_records) +
                                  " records (max_records); raise max_records, or narrow nodes, kinds or the window"});
    }
  }
  write_flows(net, out, sim.now());
  DelaySummaries delay_summaries;  // of the MACs' delays, for the nodes and the radios tables
  write_nodes(net, out, sim.now(), delay_summaries);
  if (const aodv::Aodv* agent = net.aodv()) out.routing = aodv_results(scenario, *agent);
  if (hop_statistics) out.hops = hop_statistics->rows();
  warn_silent_flows(net, out, sim.now());
  for (const RunWarning& w : out.warnings) sim.log().warn("{}: {}", w.path, w.message);
  for (std::size_t i = 0; i < net.controller_count(); ++i) {
    const control::Controller& c = net.controller(i);
    nlohmann::ordered_json row;
    controller_column::id.set(row, c.id());
    controller_column::type.set(row, c.config().type);
    controller_column::statistics.set(row, nlohmann::ordered_json(c.statistics()));
    out.controllers.push_back(std::move(row));
    if (c.history_cut()) {
      out.warnings.push_back(
          {pointer_join("/controllers", i),
           "its statistics' history stops where the run's sample budget ran out: the time series and every "
           "controller's history hold at most " + format_number(kMaxTimeseriesSamples) +
               " samples together (docs/scenario.md, Limits); shorten the run or record fewer series"});
      sim.log().warn("{}: {}", out.warnings.back().path, out.warnings.back().message);
    }
  }
  flow_sampler.write(out);
  mac_sampler.write(out, &delay_summaries);  // its time series and the radios table

  const DropCounters& all = net.ledger().all_drops();
  const Time clipped_end = std::min(net.window().end, sim.now());
  const double window_s = clipped_end > net.window().begin ? (clipped_end - net.window().begin).to_seconds() : 0.0;
  // 004 Sec. 4.2: dropped bits per second, each weighted by the hops it had made.
  summary_column::weighted_intra_mesh_loss_bps.set(
      out.summary, window_s > 0 ? static_cast<double>(all.window_total.hop_weighted_bits) / window_s : 0.0);
  summary_column::drops_local.set(out.summary, all.local.packets);
  summary_column::drops_intra_mesh.set(out.summary, all.intra_mesh.packets);
  summary_column::drops_intra_mesh_by_cause.set(out.summary, drops_json(all.intra_mesh_by_cause));
  summary_column::drops.set(out.summary, drops_json(all));

  // Every packet is delivered, dropped with a cause, or still in the network.
  const Conservation c = net.conservation();
  summary_column::packets.set(out.summary, nlohmann::ordered_json{{"originated", c.originated},
                                                                  {"delivered", c.delivered},
                                                                  {"dropped", c.dropped},
                                                                  {"in_network", c.in_network},
                                                                  {"stale_copy_drops", c.stale_copy_drops}});
  if (!c.holds() && c.unaccounted == 0) {
    throw std::logic_error("packet conservation broken: " + std::to_string(c.originated) + " originated, " +
                           std::to_string(c.delivered) + " delivered, " + std::to_string(c.dropped) + " dropped, " +
                           std::to_string(c.in_network) + " in the network (a bug: please report it with the scenario)");
  }
  if (!c.holds()) {
    throw std::logic_error("packet conservation broken: " + std::to_string(c.unaccounted) +
                           " packets vanished without a record, the first packet " + std::to_string(c.first_unaccounted) +
                           " after " + std::to_string(c.first_unaccounted_hops) +
                           " hops (its log lines: --log-level debug; a bug: please report it with the scenario)");
  }
  return out;
}

}  // namespace wmnsim
