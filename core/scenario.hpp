#pragma once
// A scenario: one JSON file that describes one experiment (docs/scenario.md).
//
// parse_scenario() validates the whole document in one pass and either returns
// plain, fully resolved structs (every default filled in, every node reference
// turned into an index into Scenario::nodes, per-node MAC overrides merged into
// each radio) or throws one ScenarioError listing every problem found.
//
// Sections the engine does not simulate yet (the radio stack, transports, routing,
// controllers) are still validated and typed here, so a scenario written today
// keeps working when those layers land.

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/json_reader.hpp"  // ValidationIssue, EnumName
#include "core/time.hpp"

namespace wmnsim {

// Thrown for any problem in user input. what() holds one "path: message" line per
// issue (just "message" for an issue at the root).
class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<ValidationIssue> issues);
  const std::vector<ValidationIssue>& issues() const { return issues_; }

 private:
  std::vector<ValidationIssue> issues_;
};

// ---- simulation -------------------------------------------------------------------

struct SimulationSection {
  Time duration;                           // simulated time, > 0
  Time warmup;                             // statistics ignore [0, warmup); < duration
  std::uint64_t seed = 1;                  // master seed of all random streams
  Time measurement_interval = Time::s(1);  // time-series bin width
};

// ---- phy --------------------------------------------------------------------------

enum class PhyStandard { dot11b, dot11a, dot11g };
enum class Preamble { long_preamble, short_preamble };  // 802.11b/g DSSS only
enum class ReceptionModel { sinr, threshold, ns2 };

struct ReceptionSection {
  ReceptionModel model = ReceptionModel::sinr;
  // threshold, ns2: a frame survives an overlapping one if its power exceeds the other's
  // by this much (ns-2's CPThresh). sinr: margin a later, stronger frame needs to capture the receiver
  // (only with frame_capture).
  double capture_threshold_db = 10.0;
  bool frame_capture = false;
  // Power needed to detect and decode a preamble, and the energy that makes the
  // medium busy. Empty: phy/phy_setup.cpp's defaults (docs/phy.md: the noise floor and
  // -62 dBm for sinr, ns-2's RXThresh and CSThresh for threshold and ns2).
  std::optional<double> rx_sensitivity_dbm;
  std::optional<double> cs_threshold_dbm;
  // sinr: SINR a preamble needs at arrival to be detected; empty: no SINR condition.
  std::optional<double> preamble_detection_snr_db;
  // Signals weaker than this are not delivered at all: neither sensed nor counted as
  // interference. Empty: noise_dbm - 10 dB.
  std::optional<double> signal_floor_dbm;
};

struct AutoRateSection {
  double max_fer = 0.01;                // highest frame error rate a link may run at
  std::int64_t reference_bytes = 1500;  // frame size the FER target refers to
};

struct PhySection {
  PhyStandard standard = PhyStandard::dot11b;
  // Empty: "auto", the fastest rate per link whose FER at the link's SINR stays
  // below auto_rate.max_fer (paper 004).
  std::optional<double> data_rate_bps;
  double basic_rate_bps = 1e6;  // control frames and broadcasts
  Preamble preamble = Preamble::long_preamble;
  Time slot = Time::us(20);  // standard default: b 20 us, a/g 9 us
  Time sifs = Time::us(10);  // standard default: b/g 10 us, a 16 us
  double noise_dbm = -93.5;
  // Defaults for every radio that does not say otherwise.
  int channel = 6;
  double tx_power_dbm = 20.0;
  double antenna_gain_dbi = 0.0;
  ReceptionSection reception;
  AutoRateSection auto_rate;
};

// Legal rates of a standard, in bit/s, slowest first.
std::span<const double> rates_of(PhyStandard standard);
// Whether `channel` exists in the standard's band (2.4 GHz: 1..14, 5 GHz: 36..165).
bool channel_valid(PhyStandard standard, int channel);

// ---- mac --------------------------------------------------------------------------

enum class MacType { dcf, edca };
enum class AccessCategory { ac_bk, ac_be, ac_vi, ac_vo };  // index into access_categories

struct QueueLimit {
  enum class Unit { packets, bytes };
  Unit unit = Unit::packets;
  std::int64_t capacity = 50;
};

// At most one field is non-zero; both zero means one frame per channel access.
struct TxopLimit {
  Time time;                // txop_limit_us
  std::int64_t frames = 0;  // txop_limit_frames (paper 002 sets TXOP in packets)
};

// Contention windows are sizes in slots, as the papers write them: the backoff is
// uniform in 0..cw-1, so 802.11b's CWmin = 31 is written 32. Always powers of two.
struct EdcaParams {
  int aifsn = 2;
  int cw_min = 16;
  int cw_max = 1024;
  TxopLimit txop;
};

// Everything a per-node or per-radio override may change.
struct MacParams {
  int cw_min = 32;    // dcf only
  int cw_max = 1024;  // dcf only
  int short_retry_limit = 7;
  int long_retry_limit = 4;
  // Empty: RTS/CTS off. n: RTS/CTS before every frame longer than n bytes (0: always).
  std::optional<std::int64_t> rts_threshold_bytes;
  QueueLimit queue;
  // Empty: unlimited. t: a packet that waited longer than t in the queue is dropped
  // (lifetime_expired) when the MAC would take it (docs/mac.md).
  std::optional<Time> queue_lifetime;
  std::array<EdcaParams, 4> access_categories{};  // edca only, by AccessCategory
  const EdcaParams& ac(AccessCategory c) const {
    return access_categories[static_cast<std::size_t>(c)];
  }
};

struct MacSection {
  MacType type = MacType::dcf;
  MacParams params;  // scenario-wide values; each radio carries its resolved copy
};

// ---- propagation ------------------------------------------------------------------

enum class PropagationModel { log_distance, two_ray, friis, range };
enum class ShadowingMode { per_link, per_frame };

struct ShadowingSection {
  double sigma_db = 0.0;                         // 0: no shadowing
  ShadowingMode mode = ShadowingMode::per_link;  // per_link: constant, symmetric per pair (004)
  // Master seed of the shadowing streams: part of the topology, not of the run
  // (docs/random.md). The loader resolves it: `shadowing.seed` if given, else the
  // placement seed of the random node groups (folded when several), else 1.
  std::uint64_t seed = 1;
};

struct PropagationSection {
  PropagationModel model = PropagationModel::log_distance;
  // log_distance (004 Eq. 1): Pr = Pt + K - 10 exponent log10(d / d0) - shadowing
  double exponent = 3.0;
  double reference_distance_m = 1.0;
  std::optional<double> reference_gain_db;  // K; empty: free-space gain at d0 and the channel
  // two_ray
  double antenna_height_m = 1.5;
  // friis, two_ray, and log_distance's default K; empty: the channel's centre frequency
  std::optional<double> frequency_hz;
  // friis, two_ray, log_distance
  double system_loss_db = 0.0;
  ShadowingSection shadowing;
  // range: decodable within rx_range_m, sensed within cs_range_m, and a concurrent
  // frame within interference_range_m of a receiver corrupts a reception.
  double rx_range_m = 250.0;
  double cs_range_m = 550.0;
  double interference_range_m = 550.0;  // default: cs_range_m
};

// ---- nodes and wired links --------------------------------------------------------

enum class NodeRole { mesh, gateway, host };

struct Position {
  double x_m = 0.0, y_m = 0.0, z_m = 0.0;
};

struct RadioConfig {
  int channel = 6;
  double tx_power_dbm = 20.0;
  double antenna_gain_dbi = 0.0;
  MacParams mac;  // scenario-wide MAC with the node's and the radio's overrides applied
};

struct NodeConfig {
  std::string id;
  NodeRole role = NodeRole::mesh;
  std::optional<Position> position;  // always set for mesh and gateway nodes, never for hosts
  std::vector<RadioConfig> radios;   // at least one for mesh and gateway nodes, none for hosts
  std::string defined_at;            // JSON pointer of the entry ("/nodes/2", "/node_groups/0")
};

struct WiredLinkConfig {
  std::size_t a = 0, b = 0;  // node indices
  double rate_bps = 100e6;
  Time delay = Time::ms(1);
  QueueLimit queue{QueueLimit::Unit::packets, 100};
};

// ---- routing ----------------------------------------------------------------------

enum class RoutingType { automatic, gateway_trees, static_tables };
enum class RoutingMetric { hop_count, airtime };

struct StaticRoute {
  std::size_t node = 0;
  std::optional<std::size_t> dst;  // empty: the default route "*"
  std::size_t next_hop = 0;
  std::string defined_at;  // JSON pointer, for the routing layer's own messages
};

struct RoutingSection {
  RoutingType type = RoutingType::automatic;
  RoutingMetric metric = RoutingMetric::hop_count;
  std::vector<StaticRoute> routes;  // static_tables only
};

// ---- flows ------------------------------------------------------------------------

enum class Transport { udp, tcp, wccp };
enum class TrafficType { saturated, cbr, poisson, on_off };
enum class PeriodDistribution { exponential, constant };
enum class TcpVariant { newreno, reno, fixed_window };

// What the application offers; the transport decides what is sent.
struct TrafficConfig {
  TrafficType type = TrafficType::saturated;
  double rate_bps = 0.0;  // cbr/poisson: mean offered load; on_off: load while on
  Time packet_interval;   // payload_bytes * 8 / rate_bps (mean for poisson)
  Time on_mean;           // on_off only
  Time off_mean;          // on_off only
  PeriodDistribution periods = PeriodDistribution::exponential;
};

struct TcpConfig {
  TcpVariant variant = TcpVariant::newreno;
  bool delayed_ack = false;
  Time min_rto = Time::ms(200);
  int window_packets = 64;  // maximum window; the fixed window for fixed_window
  int initial_window_segments = 0;  // 0: RFC 5681 3.1 eq. (1) (3 segments for MSS 1460)
  bool limited_transmit = false;    // RFC 3042
  bool timestamps = false;          // RFC 7323 option: RTTM on every ACK, 12 bytes per segment
};

struct WccpConfig {
  double beta = 5.0;  // 003 Eq. 15: at least beta packets per control interval
};

struct FlowConfig {
  std::string id;
  Transport transport = Transport::udp;
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
  TcpConfig tcp;                                               // tcp only
  WccpConfig wccp;                                             // wccp only
  AccessCategory access_category = AccessCategory::ac_be;      // edca only
  AccessCategory ack_access_category = AccessCategory::ac_be;  // edca, tcp/wccp ACKs
};

// ---- controllers ------------------------------------------------------------------

enum class ControllerType {
  counter_starvation,
  gateway_rate_control,
  tcc,
  lscc,
  edca_ack_priority,
  edca_txop,
  wccp,
};

// 000: the gateways' one-hop neighbours raise their minimum contention window.
struct CounterStarvationParams {
  double cw_min_factor = 4.0;         // times the scenario's cw_min (000: 32 -> 128)
  std::optional<int> cw_min;          // absolute window instead of the factor
  std::vector<std::size_t> gateways;  // whose neighbours; default: every gateway
  // EDCA: the categories whose CWmin is raised; empty: all. DCF has one category.
  std::vector<AccessCategory> access_categories;
};

enum class GatewayScheme {
  fifo,
  fq,
  fred,
  aggregate_rate_limit,
  aggregate_rate_limit_fq,
  per_flow_rate_limit,
  source_rate_limit,
};
enum class CapacityModel { collision_domain, clique };

struct FredParams {
  int min_th_packets = 5;
  int max_th_packets = 15;
  double max_p = 0.1;
  double queue_weight = 0.002;
  int min_q_packets = 2;
};

// 001: queueing and rate control at one gateway.
struct GatewayRateControlParams {
  std::size_t gateway = 0;
  GatewayScheme scheme = GatewayScheme::per_flow_rate_limit;
  CapacityModel capacity_model = CapacityModel::collision_domain;
  std::optional<double> fair_rate_bps;  // per-flow share; empty: from capacity_model
  int buffer_packets = 25;              // shared buffer (fifo, fred, aggregate_rate_limit)
  int per_flow_buffer_packets = 5;      // per-flow buffers (fq and the rest)
  FredParams fred;
  Time flow_idle_timeout = Time::s(1);  // a flow silent this long counts as inactive
};

// 004: IEEE 802.11s intra-mesh congestion control, TCC or (link_selective) LSCC.
struct CongestionNotificationParams {
  bool link_selective = false;
  double forward_share = 0.8;         // buffer share reserved for forwarded packets
  double congestion_threshold = 0.6;  // buffer fill that signals congestion
  double too_short_threshold = 0.2;   // fill at timer expiry that lengthens the duration
  double too_long_threshold = 0.1;    // forwarded fill that shortens it
  Time initial_duration = Time::ms(100);
  double increase_factor = 1.2;
  double decrease_factor = 0.8;
  // lscc only
  double blocked_local_limit = 0.5;   // share of the local buffer blocked packets may use
  double look_ahead_threshold = 0.4;  // forwarded fill that starts look-ahead signalling
  double look_ahead_share = 0.02;     // neighbours above this share of the buffer are signalled
};

// 002: TCP ACK prioritisation with EDCA.
struct EdcaAckPriorityParams {
  int data_aifsn_increase = 4;  // extra AIFS slots for TCP data
  int ack_cw_min = 4;           // CWmin of the ACK access category
};

enum class TxopScaling { flows, half_txop_half_cw };

// 002: TXOP = number of flows a radio forwards.
struct EdcaTxopParams {
  TxopScaling scaling = TxopScaling::flows;
  bool dynamic = true;  // follow flows as they come and go
  Time flow_idle_timeout = Time::s(1);
};

// 003: the in-network half of WCCP.
struct WccpControllerParams {
  double busyness_threshold = 0.92;  // th_b
  double alpha = 0.1;
};

using ControllerParams =
    std::variant<CounterStarvationParams, GatewayRateControlParams, CongestionNotificationParams,
                 EdcaAckPriorityParams, EdcaTxopParams, WccpControllerParams>;

struct ControllerConfig {
  ControllerType type = ControllerType::counter_starvation;
  std::string id;                  // given, or "<type>#<index>"
  std::vector<std::size_t> nodes;  // where it acts; empty for counter_starvation and
                                   // gateway_rate_control, which name their gateways
  Time start;
  std::optional<Time> stop;
  ControllerParams params;
};

// ---- outputs ----------------------------------------------------------------------

struct OutputsSection {
  std::optional<std::string> results_file;     // the CLI's -o wins
  std::optional<std::string> timeseries_file;  // CSV; default: inside the results
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

// Limits on what a scenario sets in motion (docs/scenario.md, "Limits"). Anything the
// scenario makes happen again and again (a source's packets, on/off switches, a
// controller's timer, the time-series samples) has a mean period of at least
// kMinPeriodS: at most 10^6 events per simulated second from each. The fastest
// 802.11a/g frame exchange takes over 50 us, so a faster source only fills queues.
inline constexpr double kMinPeriodS = 1e-6;
// Nodes in a scenario, explicit and generated. The routing finds shortest paths to
// every node (work ~ nodes x links, up to nodes^3 when everyone hears everyone):
// about 2 s for 1000 nodes of a sparse mesh, a minute and 2.6 GB for 10,000 (issue 17
// measures and targets that size); 004, the largest study, has 44.
inline constexpr std::size_t kMaxNodes = 10000;
// Samples all time series of one run may hold together: 10^7 rows are about 1 GB
// of results JSON and half that in memory.
inline constexpr double kMaxTimeseriesSamples = 1e7;

// Parses JSON text; `source` names it in messages (a file name, "<string>").
// Malformed JSON -> ScenarioError with "line L, column C"; nesting deeper than
// kMaxJsonDepth, a number beyond the range of a double and duplicate keys ->
// ScenarioError with the JSON path. Never recursive in the depth of the text.
nlohmann::json parse_json_text(const std::string& text, std::string_view source);

// Reads a JSON file with parse_json_text. A missing or unreadable file, a folder, or
// a file larger than kMaxScenarioBytes -> ScenarioError naming it.
nlohmann::json read_json_file(const std::filesystem::path& path);

// Validates everything, collects all issues, throws ScenarioError.
Scenario parse_scenario(const nlohmann::json& doc);

// read_json_file + parse_scenario; a scenario without "name" is named after the file.
Scenario load_scenario_file(const std::filesystem::path& path);

// --set overrides: each assignment is "/json/pointer=value"; the value is parsed as
// JSON if it parses, else taken as a string. Missing intermediate objects are
// created; "-" or an index equal to the size appends to an array. A pointer through
// a non-object/array, or a bad array index, is a ScenarioError naming the pointer.
nlohmann::json apply_overrides(nlohmann::json doc, const std::vector<std::string>& assignments);

// Names as written in JSON ("802.11b", "dcf", "ac_be", ...), for results and logs.
std::string_view to_string(PhyStandard);
std::string_view to_string(MacType);
std::string_view to_string(AccessCategory);
std::string_view to_string(PropagationModel);
std::string_view to_string(NodeRole);
std::string_view to_string(RoutingType);
std::string_view to_string(RoutingMetric);
std::string_view to_string(Transport);
std::string_view to_string(TrafficType);
std::string_view to_string(TcpVariant);
std::string_view to_string(ControllerType);
std::string_view to_string(GatewayScheme);

}  // namespace wmnsim
