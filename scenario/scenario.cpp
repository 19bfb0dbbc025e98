// The scenario loader's entry points and the small top-level sections
// (simulation, outputs). Each larger section has its own file; see
// scenario_parse.hpp for the map.

#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "scenario/compat_preset.hpp"
#include "scenario/scenario_parse.hpp"

namespace wmnsim {

namespace {

// The longest name a folder entry can have on Linux's file systems (NAME_MAX): a
// path with a longer component can never be created, so the loader says so at the
// key rather than the run failing when it writes. `extra` bytes are appended to the
// last component by the writer (a pcap trace's "-ch6.pcap" or "-<node id>.pcap").
constexpr std::size_t kMaxFileNameBytes = 255;

void check_file_name_length(const std::string& path, std::size_t extra, const std::string& where,
                            IssueSink& issues) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string::npos ? path.size() : slash;
    const std::size_t length = end - start + (slash == std::string::npos ? extra : 0);
    if (length > kMaxFileNameBytes) {
      issues.add(where, "a file or folder name in this path is " + std::to_string(length) + " bytes long" +
                            (extra > 0 ? " with what the trace appends" : "") + "; at most " +
                            std::to_string(kMaxFileNameBytes) + " fit (NAME_MAX); shorten it");
      return;
    }
    if (slash == std::string::npos) return;
    start = slash + 1;
  }
}

constexpr std::array<std::string_view, 11> kTimeseriesKinds{
    "flow_goodput",             // delivered payload bits per interval, per flow
    "flow_rtt",                 // smoothed RTT of tcp and wccp flows
    "tcp_cwnd",                 // congestion window, per tcp flow
    "wccp_rate",                // permit rate of the leaky bucket, per wccp flow (003)
    "queue_length",             // interface queue, per node and radio
    "channel_busyness",         // busy fraction of the medium, per node (003)
    "channel_busyness_ns2",     // the same as ns-2's MAC counts it, per node (003)
    "contention_window",        // current CW, per node and radio
    "txop_limit",               // TXOP in force, per node and radio (002)
    "drops",                    // drops by cause, per node
    "weighted_intra_mesh_loss"  // bits lost after forwarding, times hops travelled (004)
};

void parse_simulation(JsonReader r, scenario_detail::ParseContext& ctx) {
  SimulationSection& sim = ctx.scenario.simulation;
  const auto duration = r.seconds("duration_s", NumberRange::positive(), Need::required, "120");
  if (duration) sim.duration = *duration;
  sim.warmup = r.seconds_or("warmup_s", Time::zero(), NumberRange::non_negative());
  if (duration && r.has("warmup_s") && sim.warmup >= sim.duration) {
    ctx.issues.add(r.path_of("warmup_s"), "warmup_s (" + describe_value(*r.get("warmup_s")) +
                                              ") must be less than duration_s (" +
                                              describe_value(*r.get("duration_s")) +
                                              "); statistics would cover nothing");
  }
  if (const nlohmann::json* seed = r.get("seed")) {
    // nlohmann keeps integers above 2^63 as unsigned, so the whole uint64 range reads exactly.
    if (seed->is_number_unsigned()) {
      sim.seed = seed->get<std::uint64_t>();
    } else if (seed->is_number_integer() && seed->get<std::int64_t>() >= 0) {
      sim.seed = static_cast<std::uint64_t>(seed->get<std::int64_t>());
    } else {
      ctx.issues.add(r.path_of("seed"),
                     "expected an integer 0..18446744073709551615, got " + describe_value(*seed));
    }
  }
  sim.measurement_interval =
      r.seconds_or("measurement_interval_s", Time::s(1), NumberRange::at_least(kMinPeriodS));
  // Bounded so that a scaled rate stays finite; the scaled rates meet the flows' limits.
  sim.offered_load_scale = r.number_or("offered_load_scale", 1.0, NumberRange::open_closed(0.0, 1e6));
  r.finish();
}

bool is_transport_series(std::string_view kind, const scenario_detail::ParseContext& ctx) {
  for (const transport::FlowSeriesKind& k : transport::series_kinds(ctx.registries.transports)) {
    if (k.name == kind) return true;
  }
  return false;
}

// The samples the requested time series will hold (an upper bound: flow kinds count
// every flow, MAC kinds every radio and, under EDCA, every access category), against
// kMaxTimeseriesSamples, so that no interval writes gigabytes.
void check_timeseries_volume(const nlohmann::json& doc, scenario_detail::ParseContext& ctx) {
  const Scenario& s = ctx.scenario;
  if (s.simulation.duration <= Time::zero() || s.simulation.measurement_interval <= Time::zero()) return;
  double radios = 0.0;
  for (const NodeConfig& n : s.nodes) radios += static_cast<double>(n.radios.size());
  const double flows = static_cast<double>(s.flows.size()), nodes = static_cast<double>(s.nodes.size());
  double series = 0.0;
  for (const std::string& kind : s.timeseries) {
    if (kind == "flow_goodput" || kind == "wccp_rate" || is_transport_series(kind, ctx)) {
      series += flows;
    } else if (kind == "weighted_intra_mesh_loss") {
      series += nodes;
    } else if (kind == "contention_window" || kind == "txop_limit") {
      series += radios * (s.mac.type == MacType::edca ? 4.0 : 1.0);
    } else {
      series += radios;
    }
  }
  const double bins = std::ceil(static_cast<double>(s.simulation.duration.picoseconds()) /
                                static_cast<double>(s.simulation.measurement_interval.picoseconds()));
  ctx.scenario.timeseries_samples = bins * series;
  if (bins * series <= kMaxTimeseriesSamples) return;
  const double shortest = s.simulation.duration.to_seconds() * series / kMaxTimeseriesSamples;
  const std::string path =
      doc.contains("simulation") && doc["simulation"].contains("measurement_interval_s")
          ? "/simulation/measurement_interval_s"
          : "/outputs/timeseries";
  char text[256];
  std::snprintf(text, sizeof text,
                "the time series would hold %.3g samples (%.3g intervals x %.0f series); at most %.0e "
                "(at the cap 0.7 GB of results and 3 GB of memory): use measurement_interval_s >= %.3g "
                "or fewer kinds",
                bins * series, bins, series, kMaxTimeseriesSamples, shortest);
  ctx.issues.add(path, text);
}

// The "nodes" list of a trace output (outputs.pcap, outputs.event_trace): node ids,
// each defined and listed once. Any node may be listed: every node has a radio or
// a wired link (a host without one is refused), and the pcap trace writes both.
std::vector<std::size_t> parse_traced_nodes(JsonReader& r, scenario_detail::ParseContext& ctx) {
  std::vector<std::size_t> nodes;
  const nlohmann::json* list = r.array("nodes");
  if (!list) return nodes;
  // Refused rather than read as "every node" (the default) or "none" (a trace
  // that would write nothing): the two readings are opposite, so neither is guessed.
  if (list->empty()) {
    ctx.issues.add(r.path_of("nodes"), "an empty list names no node to trace; remove \"nodes\" to trace every "
                                       "node, or list the nodes to trace");
  }
  // Looked up in the ids' index, duplicates by a flag per node: a list of every
  // node of a large mesh costs its length, not its length x the nodes.
  std::vector<bool> listed(ctx.scenario.nodes.size(), false);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = pointer_join(r.path_of("nodes"), i);
    const nlohmann::json& v = (*list)[i];
    if (!v.is_string()) {
      ctx.issues.add(path, "expected a node id (a string), got " + describe_value(v));
      continue;
    }
    const std::string& id = v.get_ref<const std::string&>();
    const auto node = ctx.nodes.find(id);
    if (!node || *node >= listed.size()) {
      ctx.issues.add(path, "node " + quote_short(id) + " is not defined");
    } else if (listed[*node]) {
      ctx.issues.add(path, "node " + quote_short(id) + " is listed twice; remove one");
    } else {
      listed[*node] = true;
      nodes.push_back(*node);
    }
  }
  return nodes;
}

// outputs.pcap: where a trace goes and what it holds (docs/traces.md).
PcapOutput parse_pcap(JsonReader r, scenario_detail::ParseContext& ctx) {
  PcapOutput p;
  if (auto path = r.string("path", Need::required, "\"trace\"")) {
    if (path->empty() || path->back() == '/') {
      ctx.issues.add(r.path_of("path"), "expected a file name prefix such as \"trace\" or \"out/trace\", got " +
                                            quote_short(*path) + "; the files are <path>-ch<channel>.pcap or "
                                            "<path>-<node id>.pcap");
    } else {
      p.path = *path;
    }
  }
  p.per = r.choice_or("per", PcapSplit::channel, names(kPcapSplits));
  if (!p.path.empty()) {
    // "-ch<channel>.pcapng" or "-<node id>.pcapng" (ids are short: config/limits.hpp).
    std::size_t suffix = std::string_view("-ch165.pcapng").size();
    if (p.per == PcapSplit::node) {
      for (const NodeConfig& n : ctx.scenario.nodes) suffix = std::max(suffix, n.id.size() + 8);
    }
    check_file_name_length(p.path, suffix, r.path_of("path"), ctx.issues);
  }
  p.failed = r.choice_or("failed", PcapFailed::none, names(kPcapFailed));
  const bool failed = p.failed != PcapFailed::none;
  p.synthetic_handshake = r.boolean_or("synthetic_handshake", false);
  if (r.has("format")) {
    p.format = r.choice_or("format", PcapFormat::pcapng, names(kPcapFormats));
    if (p.format == PcapFormat::pcap && failed) {
      ctx.issues.add(r.path_of("format"), "\"pcap\" has no packet comments to carry why a frame failed (failed: \"" +
                                              std::string(enum_name(names(kPcapFailed), p.failed)) +
                                              "\"); use \"pcapng\", or remove format");
    } else if (p.format == PcapFormat::pcap && p.synthetic_handshake) {
      ctx.issues.add(r.path_of("format"), "\"pcap\" has no packet comments to mark the synthetic handshake's "
                                          "records (synthetic_handshake: true); use \"pcapng\", or remove format");
    }
  } else {
    p.format = failed || p.synthetic_handshake ? PcapFormat::pcapng : PcapFormat::pcap;
  }
  p.snap_length = r.integer_or("snap_length", p.snap_length, PcapOutput::kMinSnapLength, PcapOutput::kMaxSnapLength);
  p.max_bytes = r.integer_or("max_bytes", p.max_bytes, PcapOutput::kMinMaxBytes, PcapOutput::kMaxMaxBytes);
  p.nodes = parse_traced_nodes(r, ctx);
  if (p.per == PcapSplit::node) {
    // One file per traced node, each open through the run with its buffer: bounded,
    // so that a large mesh does not run out of open files or memory mid-run.
    std::size_t files = p.nodes.size();
    if (p.nodes.empty()) {
      files = static_cast<std::size_t>(std::count_if(ctx.scenario.nodes.begin(), ctx.scenario.nodes.end(),
                                                     [](const NodeConfig& n) { return !n.radios.empty(); }));
    }
    if (files > PcapOutput::kMaxNodeFiles) {
      ctx.issues.add(r.path_of("per"), "\"node\" writes one file per traced node, " + std::to_string(files) +
                                           " here, each open through the run with a 256 KiB buffer; at most " +
                                           std::to_string(PcapOutput::kMaxNodeFiles) +
                                           " (within the usual limit of 1024 open files): list the nodes to trace "
                                           "under nodes, or use \"channel\"");
    }
  }
  r.finish();
  return p;
}

// outputs.event_trace: where the event trace goes and what it keeps (docs/traces.md
// "Event trace").
EventTraceOutput parse_event_trace(JsonReader r, scenario_detail::ParseContext& ctx) {
  EventTraceOutput e;
  if (auto path = r.string("path", Need::required, "\"events.bin\"")) {
    if (path->empty() || path->back() == '/') {
      ctx.issues.add(r.path_of("path"), "expected a file name such as \"events.bin\", got " + quote_short(*path));
    } else {
      e.path = *path;
      check_file_name_length(e.path, 0, r.path_of("path"), ctx.issues);
    }
  }
  e.nodes = parse_traced_nodes(r, ctx);
  if (const nlohmann::json* list = r.array("kinds")) {
    if (list->empty()) {
      ctx.issues.add(r.path_of("kinds"), "an empty list names no kind to write; remove \"kinds\" to write every "
                                         "kind, or list the kinds to write");
    }
    e.kinds = 0;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_join(r.path_of("kinds"), i);
      const auto kind = check_enum((*list)[i], path, ctx.issues, names(kEventKinds));
      if (!kind) continue;
      if ((e.kinds & kind_bit(*kind)) != 0) {
        ctx.issues.add(path, "\"" + std::string(enum_name(names(kEventKinds), *kind)) + "\" is listed twice; remove one");
      }
      e.kinds |= kind_bit(*kind);
    }
  }
  e.start = r.seconds_or("start_s", e.start, NumberRange::non_negative());
  if (const auto end = r.seconds("end_s", NumberRange::non_negative())) {
    e.end = *end;
    if (e.end < e.start) {
      ctx.issues.add(r.path_of("end_s"), "the window ends (" + format_number(e.end.to_seconds()) +
                                             " s) before it starts (start_s " + format_number(e.start.to_seconds()) +
                                             " s)");
    }
  }
  e.max_records = r.integer_or("max_records", e.max_records, 1, EventTraceOutput::kMaxMaxRecords);
  r.finish();
  return e;
}

void parse_outputs(JsonReader r, scenario_detail::ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  s.timeseries = {"flow_goodput"};
  if (const nlohmann::json* list = r.array("timeseries")) {
    s.timeseries.clear();
    const std::vector<std::string> allowed = timeseries_kinds(ctx.registries);
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_join(r.path_of("timeseries"), i);
      const auto k = check_choice((*list)[i], path, ctx.issues, allowed);
      if (!k) continue;
      if (std::find(s.timeseries.begin(), s.timeseries.end(), allowed[*k]) != s.timeseries.end()) {
        ctx.issues.add(path, "\"" + allowed[*k] + "\" is listed twice; remove one");
        continue;
      }
      s.timeseries.push_back(allowed[*k]);
    }
  }
  const auto file_name = [&](std::string_view key) {
    auto file = r.string(key);
    if (file && file->empty()) {
      ctx.issues.add(r.path_of(key), "expected a file name, got an empty string");
      file.reset();
    }
    if (file) check_file_name_length(*file, 0, r.path_of(key), ctx.issues);
    return file;
  };
  s.outputs.results_file = file_name("results_file");
  s.outputs.timeseries_file = file_name("timeseries_file");
  if (r.get("pcap") != nullptr) s.outputs.pcap = parse_pcap(r.object("pcap"), ctx);
  if (r.get("event_trace") != nullptr) s.outputs.event_trace = parse_event_trace(r.object("event_trace"), ctx);
  s.outputs.hops = r.boolean_or("hops", false);
  r.finish();
}

}  // namespace

std::span<const std::string_view> timeseries_kinds() { return kTimeseriesKinds; }

std::vector<std::string> timeseries_kinds(const Registries& registries) {
  std::vector<std::string> kinds(kTimeseriesKinds.begin(), kTimeseriesKinds.end());
  for (const transport::FlowSeriesKind& k : transport::series_kinds(registries.transports)) {
    if (std::find(kinds.begin(), kinds.end(), k.name) == kinds.end()) kinds.emplace_back(k.name);
  }
  return kinds;
}

RoutingInput routing_input(const Scenario& scenario) {
  RoutingInput in;
  // The places the routing layer's messages name, as JSON pointers and keys.
  in.tables_at = "/routing/tables";
  in.links_at = "/links";
  in.auto_routing = "\"type\": \"auto\"";
  for (const NodeConfig& n : scenario.nodes) {
    in.nodes.push_back({n.id, n.role, n.position, pointer_join(in.tables_at, n.id)});
  }
  in.routing = scenario.routing;
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    const FlowConfig& f = scenario.flows[i];
    const std::string at = pointer_join("/flows", i);
    in.flows.push_back({f.src, f.dst, f.sends_acks, f.transport_name, at, pointer_join(at, "src"), pointer_join(at, "dst")});
  }
  // At a fixed data rate a link whose FER at that rate is above
  // /phy/auto_rate/max_fer is not used (scenario/phy_builder.hpp usable_link_rate),
  // so a slower rate may join the network too.
  // Under the range model, reach is a distance and power plays no part.
  in.unreachable_advice = scenario.propagation.model == PropagationModel::range
                              ? "move the nodes closer, raise /propagation/rx_range_m"
                              : "move the nodes closer, raise tx_power_dbm";
  if (scenario.phy.data_rate_bps && scenario.phy.reception.model == ReceptionModel::sinr) {
    in.unreachable_advice +=
        ", lower /phy/data_rate_bps (links that lose /phy/auto_rate/max_fer or more of their frames "
        "at it are not used)";
  }
  in.unreachable_advice += " or add a wired link under " + in.links_at;
  return in;
}

std::optional<std::size_t> Scenario::find_node(std::string_view id) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].id == id) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> Scenario::find_flow(std::string_view id) const {
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (flows[i].id == id) return i;
  }
  return std::nullopt;
}

Scenario parse_scenario(const nlohmann::json& doc) { return parse_scenario(doc, Registries{}); }

Scenario parse_scenario(const nlohmann::json& doc, const Registries& registries) {
  Scenario s;
  s.document = doc;
  if (!doc.is_object()) {
    throw ScenarioError({{"", "expected an object, got " + describe_value(doc) +
                                  "; a scenario is one JSON object"}});
  }
  IssueSink issues;
  scenario_detail::ParseContext ctx{s, issues, registries};
  // A compatibility preset fills in the keys the scenario leaves out before anything is
  // read (scenario/compat_preset.hpp); the document recorded (and hashed) is the one
  // given, `compat` included.
  const nlohmann::json effective = apply_compat_preset(doc);
  JsonReader top(effective, "", issues);

  top.string("$schema");  // editors use it to find the schema; the loader ignores it
  if (const nlohmann::json* compat = top.get("compat")) {
    check_choice(*compat, "/compat", issues, compat_preset_names());
  }
  s.name = top.string("name").value_or("");
  s.description = top.string("description").value_or("");
  if (top.get("simulation", Need::required, "{\"duration_s\": 120}") != nullptr) {
    parse_simulation(top.object("simulation"), ctx);
  }
  // Order matters: MAC defaults depend on the PHY standard, radios on both, and
  // everything after the nodes refers to them by id.
  scenario_detail::parse_phy(top.object("phy"), ctx);
  scenario_detail::parse_propagation(top.object("propagation"), ctx);
  scenario_detail::check_phy_against_propagation(effective, ctx);
  scenario_detail::parse_mac(top.object("mac"), ctx);
  scenario_detail::parse_nodes(top.array("nodes"), top.array("node_groups"), ctx);
  scenario_detail::parse_links(top.array("links"), ctx);
  scenario_detail::parse_routing(top.object("routing"), ctx);
  scenario_detail::parse_flows(top.array("flows", Need::required), ctx);
  scenario_detail::parse_controllers(top.array("controllers"), ctx);
  parse_outputs(top.object("outputs"), ctx);
  check_timeseries_volume(doc, ctx);
  top.finish();

  if (!issues.empty()) throw ScenarioError(issues.take());
  return s;
}

Scenario load_scenario_file(const std::filesystem::path& path) { return load_scenario_file(path, Registries{}); }

Scenario load_scenario_file(const std::filesystem::path& path, const Registries& registries) {
  Scenario s = parse_scenario(read_json_file(path), registries);
  if (s.name.empty()) s.name = path.stem().string();
  return s;
}

// ---- enum names ---------------------------------------------------------------------


// ---- ids ------------------------------------------------------------------------------

namespace scenario_detail {

bool valid_id(std::string_view id) {
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

std::optional<std::string> read_id(JsonReader& r, std::string_view kind) {
  auto id = r.string("id", Need::required, "\"A\"");
  if (id && !valid_id(*id)) {
    r.issues().add(r.path_of("id"), "invalid " + std::string(kind) + " id " + quote_short(*id) +
                                        ": use letters, digits, '_', '-' and '.' only");
  }
  return id;
}

bool IdIndex::define(const std::string& id, std::size_t index, const std::string& entry_path,
                     const std::string& id_path, IssueSink& issues) {
  const auto [it, inserted] = by_id_.try_emplace(id, Entry{index, entry_path});
  if (!inserted) {
    issues.add(id_path, "duplicate " + kind_ + " id \"" + id + "\" (first defined at " +
                            it->second.path + "); ids must be unique");
    return false;
  }
  ordered_.push_back(id);
  return true;
}

std::optional<std::size_t> IdIndex::find(std::string_view id) const {
  const auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second.index;
}

std::optional<std::size_t> IdIndex::resolve(const nlohmann::json& v, const std::string& path,
                                            IssueSink& issues) const {
  if (!v.is_string()) {
    issues.add(path, "expected a " + kind_ + " id (a string), got " + describe_value(v));
    return std::nullopt;
  }
  return resolve_id(v.get<std::string>(), path, issues);
}

std::optional<std::size_t> IdIndex::resolve_id(const std::string& id, const std::string& path,
                                               IssueSink& issues) const {
  if (const auto i = find(id)) return i;
  std::string msg = kind_ + " " + quote_short(id) + " is not defined";
  if (issues.full()) {
    // counted, not listed: no suggestion to compute
  } else if (ordered_.empty()) {
    msg += " (no " + kind_ + "s are defined)";
  } else {
    if (const auto guess = closest_match(id, ordered_)) msg += "; did you mean \"" + *guess + "\"?";
    msg += " (known: " + join_list(ordered_, false) + ")";
  }
  issues.add(path, std::move(msg));
  return std::nullopt;
}

}  // namespace scenario_detail

}  // namespace wmnsim
