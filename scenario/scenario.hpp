#pragma once
// A scenario: one JSON file that describes one experiment (docs/scenario.md).
//
// parse_scenario() validates the whole document in one pass and either returns
// plain, fully resolved structs (every default filled in, every node reference
// turned into an index into Scenario::nodes, per-node MAC overrides merged into
// each radio) or throws one ScenarioError listing every problem found.
//
// Each layer owns the types of its own section (phy/phy_config.hpp,
// mac/mac_params.hpp, transport/transport_config.hpp, core/routing_config.hpp,
// control/controller_config.hpp); this header puts them together into one Scenario.

#include <nlohmann/json.hpp>

#include <any>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/limits.hpp"
#include "control/controller_config.hpp"
#include "core/event_kind.hpp"
#include "core/input_error.hpp"  // ScenarioError
#include "core/routing.hpp"
#include "core/routing_config.hpp"
#include "core/time.hpp"
#include "core/topology.hpp"
#include "mac/mac_params.hpp"
#include "phy/phy_config.hpp"
#include "transport/flow_build_context.hpp"  // FlowBuild
#include "transport/transport_config.hpp"

namespace wmnsim {

struct Registries;  // scenario/registries.hpp

// ---- simulation -------------------------------------------------------------------

struct SimulationSection {
  Time duration;                           // simulated time, > 0
  Time warmup;                             // statistics ignore [0, warmup); < duration
  std::uint64_t seed = 1;                  // master seed of all random streams
  Time measurement_interval = Time::s(1);  // time-series bin width
  // Multiplies every cbr, poisson and on_off flow's rate: offered load swept relative
  // to a scenario's own rates (001 App. A.4 runs 50-150 % of each topology's share).
  double offered_load_scale = 1.0;
};

// ---- nodes and wired links --------------------------------------------------------

struct RadioConfig {
  int channel = 6;
  double tx_power_dbm = 20.0;
  double antenna_gain_dbi = 0.0;
  // The scenario-wide MAC with the node's and the radio's overrides applied. Radios
  // that resolve to the same settings without an override of their own (a node
  // group's, a node's radios without a "mac" key, the nodes without one) share one
  // immutable object: a copy is 304 B, and the scenario is held for the whole run
  // (issue 43 §3, docs/performance.md "Memory per node"). Never null.
  std::shared_ptr<const MacParams> mac = std::make_shared<const MacParams>();
};

struct NodeConfig {
  std::string id;
  // The entry that defines the node: "nodes"' (or, from_group, "node_groups'") entry
  // number `entry`. Numbers, not the JSON pointer's text: the scenario is held for
  // the whole run, and a 32-byte string per node was the most of its records left
  // (issue 43 §3, docs/performance.md "Memory per node").
  std::uint32_t entry = 0;
  // Beside `entry`, in the 8 bytes before `position`: no padding of their own (88 B: the
  // id 32, these 8, the position 24 and the radios 24).
  NodeRole role = NodeRole::mesh;
  bool from_group = false;
  MaybePosition position;  // always set for mesh and gateway nodes, never for hosts
  std::vector<RadioConfig> radios;   // at least one for mesh and gateway nodes, none for hosts

  // JSON pointer of the entry ("/nodes/2", "/node_groups/0").
  std::string defined_at() const {
    return (from_group ? "/node_groups/" : "/nodes/") + std::to_string(entry);
  }
};

struct WiredLinkConfig {
  std::size_t a = 0, b = 0;  // node indices
  double rate_bps = 100e6;
  Time delay = Time::ms(1);
  link::QueueLimit queue{link::QueueLimit::Unit::packets, 100};
  link::QueueDisciplineChoice queue_discipline;  // queue.discipline, both directions
};

// ---- flows ------------------------------------------------------------------------

struct FlowConfig {
  std::string id;
  std::string transport_name = "udp";    // the registry entry ("udp", "tcp", "wccp" or registered)
  std::any transport_params;              // what the entry's parse produced (empty: no keys)
  transport::FlowBuild transport_build;   // the entry's build hook (empty: not simulated)
  bool sends_acks = false;                // the entry's: ACKs come back (routed both ways)
  // Node indices. Empty: "@gateway", the gateway routing attaches the other end to.
  std::optional<std::size_t> src;
  std::optional<std::size_t> dst;
  Time start;
  std::optional<Time> stop;           // empty: until the end of the simulation
  std::int64_t payload_bytes = 1460;  // per packet; the MSS for tcp
  // The flow's fair share, when the experiment knows it (001's capacity models):
  // results then report goodput/fair share and U/U_opt.
  std::optional<double> fair_share_bps;
  TrafficConfig traffic;
  // edca only, when the flow names them: its packets are tagged with the category's
  // user priority, which decides over any controller's rule (mac/access_classifier.hpp).
  // Unnamed: untagged, so the MAC's classifier decides (AC_BE unless a controller,
  // such as 002's ACK priority, says otherwise). A transport's ACKs default to the
  // flow's named category.
  std::optional<AccessCategory> access_category;
  std::optional<AccessCategory> ack_access_category;

  // The transport's parameters as its entry parsed them (tcp: TcpConfig; wccp:
  // WccpConfig). Throws std::bad_any_cast for another type.
  template <class P>
  const P& params_as() const {
    return std::any_cast<const P&>(transport_params);
  }
};

// ---- outputs ----------------------------------------------------------------------

// outputs.pcap (docs/traces.md): one pcap file per channel or per node.
enum class PcapSplit { channel, node };
inline constexpr std::array<EnumName<PcapSplit>, 2> kPcapSplits{
    {{"channel", PcapSplit::channel}, {"node", PcapSplit::node}}};

// The file format: classic pcap, or pcapng (interface names, name resolution,
// packet comments).
enum class PcapFormat { pcap, pcapng };
inline constexpr std::array<EnumName<PcapFormat>, 2> kPcapFormats{
    {{"pcap", PcapFormat::pcap}, {"pcapng", PcapFormat::pcapng}}};

// The frames a radio did not decode that the trace writes: none; those it locked
// onto (detected the preamble and PLCP header of) and lost; all that reached it.
enum class PcapFailed { none, decoded_header, all };
inline constexpr std::array<EnumName<PcapFailed>, 3> kPcapFailed{
    {{"none", PcapFailed::none}, {"decoded-header", PcapFailed::decoded_header}, {"all", PcapFailed::all}}};

struct PcapOutput {
  std::string path;  // file name prefix: <path>-ch<channel>.pcap or <path>-<node id>.pcap (.pcapng)
  PcapSplit per = PcapSplit::channel;
  PcapFailed failed = PcapFailed::none;
  // TCP flows without a handshake of their own get one in the trace, marked as
  // synthetic by a packet comment (trace/pcap_trace.hpp).
  bool synthetic_handshake = false;
  // Default: pcap, unless `failed` asks for failed frames or a synthetic handshake
  // is asked for: only pcapng's packet comments can carry why a frame failed or
  // that a record is synthetic.
  PcapFormat format = PcapFormat::pcap;
  // Octets kept of each record (radiotap header included), as libpcap's snaplen.
  std::int64_t snap_length = 65535;
  static constexpr std::int64_t kMinSnapLength = 64;       // radiotap and the longest MAC header fit
  static constexpr std::int64_t kMaxSnapLength = 262144;   // libpcap's MAXIMUM_SNAPLEN
  // Node indices: per node, the nodes with a file; per channel, the transmitters
  // whose frames are written. Empty: every node.
  std::vector<std::size_t> nodes;
  // per node: at most this many files (each an open file and a 256 KiB buffer
  // through the run; docs/scenario.md, Limits).
  static constexpr std::size_t kMaxNodeFiles = 500;
  // The most bytes the trace's files hold together: writing stops there (the run
  // goes on, and warns), as the time series are bounded (docs/scenario.md, Limits).
  std::int64_t max_bytes = kDefaultMaxBytes;
  static constexpr std::int64_t kDefaultMaxBytes = std::int64_t{1} << 30;  // 1 GiB, as 10^7 samples of results
  static constexpr std::int64_t kMinMaxBytes = std::int64_t{1} << 20;
  static constexpr std::int64_t kMaxMaxBytes = std::int64_t{1} << 40;
};

// outputs.event_trace (docs/traces.md "Event trace"): one record per event of
// interest, filtered, into one file that wmnsim.trace.load() reads.
struct EventTraceOutput {
  std::string path;
  std::vector<std::size_t> nodes;        // node indices whose events are written; empty: every node
  std::uint32_t kinds = kAllEventKinds;  // kind_bit() of each kind written
  Time start = Time::zero();             // the window, both ends included
  Time end = Time::max();
  // The most records the file holds (64 octets each): the rest are not written, as
  // the time series are bounded (docs/scenario.md, Limits).
  std::int64_t max_records = kDefaultMaxRecords;
  static constexpr std::int64_t kDefaultMaxRecords = std::int64_t{1} << 24;  // 1 GiB of records
  static constexpr std::int64_t kMaxMaxRecords = std::int64_t{1} << 34;      // 1 TiB
};

struct OutputsSection {
  std::optional<std::string> results_file;     // the CLI's -o wins
  std::optional<std::string> timeseries_file;  // CSV; default: inside the results
  std::optional<PcapOutput> pcap;              // none: no trace
  std::optional<EventTraceOutput> event_trace;  // none: no event trace
  bool hops = false;  // the per-hop table (runner/hop_statistics.hpp)
};

// The allowed outputs.timeseries kinds.
std::span<const std::string_view> timeseries_kinds();

// ---- the scenario -----------------------------------------------------------------

struct Scenario {
  nlohmann::json document;  // the scenario as given (after overrides), for the results file
  std::string name;
  std::string description;
  SimulationSection simulation;
  std::vector<std::string> timeseries;  // outputs.timeseries kinds requested
  // An upper bound of the samples those series hold (intervals x series), taken from
  // the run's sample budget (core/sample_budget.hpp) before the controllers' histories.
  double timeseries_samples = 0.0;
  PhySection phy;
  MacSection mac;
  PropagationSection propagation;
  std::vector<NodeConfig> nodes;  // explicit nodes first, then node_groups in order
  std::vector<WiredLinkConfig> links;
  RoutingSection routing;
  std::vector<FlowConfig> flows;
  std::vector<ControllerConfig> controllers;
  OutputsSection outputs;

  std::optional<std::size_t> find_node(std::string_view id) const;
  std::optional<std::size_t> find_flow(std::string_view id) const;
};

// Limits on any JSON text the loader reads (docs/scenario.md, "Limits"): containers
// nested at most this deep (the deepest scenario key is 7 levels down; the values
// built from the text are walked recursively, so the limit keeps the stack bounded),
// keys at most this long, and scenario files at most this large.
inline constexpr std::size_t kMaxJsonDepth = 64;
inline constexpr std::size_t kMaxJsonKeyBytes = 256;  // object keys (paths in messages stay short)
inline constexpr std::size_t kMaxScenarioBytes = std::size_t{64} << 20;

// Limits on what a scenario sets in motion: kMinPeriodS (config/limits.hpp, where
// every registered entry can read it), and:
// Nodes in a scenario, explicit and generated: 100,000 set up in about 30 s and
// 1.9 GB with 1,000 flows (docs/performance.md, "Whole network"); nothing grows
// with nodes x nodes (docs/scenario.md, "Limits", names what grows faster than the
// nodes). Links are capped by phy::Medium::kMaxLinks.
inline constexpr std::size_t kMaxNodes = 100000;
// A node's radios: one per channel of the 2.4 GHz (1..14) and 5 GHz (36..64,
// 100..144, 149..165 in steps of 4) bands, 39 (docs/scenario.md, Limits).
inline constexpr std::size_t kMaxRadiosPerNode = 39;
// Samples all time series of one run may hold together, with every history its
// controllers keep (one budget: core/sample_budget.hpp): 10^7 samples are 0.71 GB of
// results JSON and a peak of 3.1 GB resident in `wmnsim run` (measured: docs/scenario.md,
// "Limits", "output volume").
inline constexpr double kMaxTimeseriesSamples = 1e7;

// Parses JSON text; `source` names it in messages (a file name, "<string>").
// Malformed JSON -> ScenarioError with "line L, column C"; nesting deeper than
// kMaxJsonDepth, a number beyond the range of a double and duplicate keys ->
// ScenarioError with the JSON path. Never recursive in the depth of the text.
nlohmann::json parse_json_text(const std::string& text, std::string_view source);

// Reads a JSON file with parse_json_text. A missing or unreadable file, a folder, or
// a file larger than kMaxScenarioBytes -> ScenarioError naming it as `what` ("cannot
// read sweep spec ...": the same reader serves sweep specs and experiment files).
nlohmann::json read_json_file(const std::filesystem::path& path, std::string_view what = "scenario file");

// Validates everything, collects all issues, throws ScenarioError. Controllers,
// transports and queue disciplines are looked up in `registries` (the built-ins
// unless given).
Scenario parse_scenario(const nlohmann::json& doc);
Scenario parse_scenario(const nlohmann::json& doc, const Registries& registries);

// read_json_file + parse_scenario; a scenario without "name" is named after the file.
Scenario load_scenario_file(const std::filesystem::path& path);
Scenario load_scenario_file(const std::filesystem::path& path, const Registries& registries);

// --set overrides: each assignment is "/json/pointer=value"; the value is parsed as
// JSON if it parses, else taken as a string. Missing intermediate objects are
// created; "-" or an index equal to the size appends to an array. A pointer through
// a non-object/array, or a bad array index, is a ScenarioError naming the pointer.
nlohmann::json apply_overrides(nlohmann::json doc, const std::vector<std::string>& assignments);

// What the routing layer (core/routing.hpp) needs of the scenario, and the
// routing of a scenario over `links`.
RoutingInput routing_input(const Scenario& scenario);
inline Routing compute_routing(const Scenario& scenario, std::span<const RoutingLink> links) {
  return compute_routing(routing_input(scenario), links);
}

// to_string() of every enum lives beside the enum, in its layer.

}  // namespace wmnsim
