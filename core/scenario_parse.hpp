#pragma once
// Internals of the scenario loader, shared by its section parsers
// (scenario_radio.cpp, scenario_nodes.cpp, scenario_traffic.cpp,
// scenario_controllers.cpp). Not part of the public API.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_reader.hpp"
#include "core/scenario.hpp"

namespace wmnsim {
// A user's string quoted for a message: "text", cut to 60 bytes with "..." (an id
// or a key may be a megabyte long; the sentence around it must survive).
// Defined in json_reader.cpp.
std::string quote_short(std::string_view s);
}  // namespace wmnsim

namespace wmnsim::scenario_detail {

// ---- enum name tables: one place for parsing and printing --------------------------

inline constexpr std::array<EnumName<PhyStandard>, 3> kPhyStandards{
    {{"802.11b", PhyStandard::dot11b},
     {"802.11a", PhyStandard::dot11a},
     {"802.11g", PhyStandard::dot11g}}};
inline constexpr std::array<EnumName<Preamble>, 2> kPreambles{
    {{"long", Preamble::long_preamble}, {"short", Preamble::short_preamble}}};
inline constexpr std::array<EnumName<ReceptionModel>, 3> kReceptionModels{
    {{"sinr", ReceptionModel::sinr}, {"threshold", ReceptionModel::threshold}, {"ns2", ReceptionModel::ns2}}};
inline constexpr std::array<EnumName<MacType>, 2> kMacTypes{
    {{"dcf", MacType::dcf}, {"edca", MacType::edca}}};
inline constexpr std::array<EnumName<AccessCategory>, 4> kAccessCategories{
    {{"ac_bk", AccessCategory::ac_bk},
     {"ac_be", AccessCategory::ac_be},
     {"ac_vi", AccessCategory::ac_vi},
     {"ac_vo", AccessCategory::ac_vo}}};
inline constexpr std::array<EnumName<PropagationModel>, 4> kPropagationModels{
    {{"log_distance", PropagationModel::log_distance},
     {"two_ray", PropagationModel::two_ray},
     {"friis", PropagationModel::friis},
     {"range", PropagationModel::range}}};
inline constexpr std::array<EnumName<ShadowingMode>, 2> kShadowingModes{
    {{"per_link", ShadowingMode::per_link}, {"per_frame", ShadowingMode::per_frame}}};
inline constexpr std::array<EnumName<NodeRole>, 3> kNodeRoles{
    {{"mesh", NodeRole::mesh}, {"gateway", NodeRole::gateway}, {"host", NodeRole::host}}};
inline constexpr std::array<EnumName<RoutingType>, 3> kRoutingTypes{
    {{"auto", RoutingType::automatic},
     {"gateway_trees", RoutingType::gateway_trees},
     {"static", RoutingType::static_tables}}};
inline constexpr std::array<EnumName<RoutingMetric>, 2> kRoutingMetrics{
    {{"hop_count", RoutingMetric::hop_count}, {"airtime", RoutingMetric::airtime}}};
inline constexpr std::array<EnumName<Transport>, 3> kTransports{
    {{"udp", Transport::udp}, {"tcp", Transport::tcp}, {"wccp", Transport::wccp}}};
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
inline constexpr std::array<EnumName<ControllerType>, 7> kControllerTypes{
    {{"counter_starvation", ControllerType::counter_starvation},
     {"gateway_rate_control", ControllerType::gateway_rate_control},
     {"tcc", ControllerType::tcc},
     {"lscc", ControllerType::lscc},
     {"edca_ack_priority", ControllerType::edca_ack_priority},
     {"edca_txop", ControllerType::edca_txop},
     {"wccp", ControllerType::wccp}}};
inline constexpr std::array<EnumName<GatewayScheme>, 7> kGatewaySchemes{
    {{"fifo", GatewayScheme::fifo},
     {"fq", GatewayScheme::fq},
     {"fred", GatewayScheme::fred},
     {"aggregate_rate_limit", GatewayScheme::aggregate_rate_limit},
     {"aggregate_rate_limit_fq", GatewayScheme::aggregate_rate_limit_fq},
     {"per_flow_rate_limit", GatewayScheme::per_flow_rate_limit},
     {"source_rate_limit", GatewayScheme::source_rate_limit}}};
inline constexpr std::array<EnumName<CapacityModel>, 2> kCapacityModels{
    {{"collision_domain", CapacityModel::collision_domain}, {"clique", CapacityModel::clique}}};
inline constexpr std::array<EnumName<TxopScaling>, 2> kTxopScalings{
    {{"flows", TxopScaling::flows}, {"half_txop_half_cw", TxopScaling::half_txop_half_cw}}};

// Spans for the reader's templates (deduction does not see through std::array).
template <typename E, std::size_t N>
std::span<const EnumName<E>> names(const std::array<EnumName<E>, N>& table) {
  return {table.data(), table.size()};
}

// ---- ids and references ----------------------------------------------------------

// Ids of nodes and flows: letters, digits, '_', '-', '.'. Keeping '@' and '*' out
// leaves them free for "@gateway" and the default route "*".
bool valid_id(std::string_view id);

// The ids of one kind ("node", "flow") in definition order, for lookups and for
// "not defined (known: ...)" messages.
class IdIndex {
 public:
  explicit IdIndex(std::string kind) : kind_(std::move(kind)) {}

  // Records `id` as defined by the entry at `entry_path` with `index`. A duplicate
  // records an issue at `id_path` naming the first definition and returns false.
  bool define(const std::string& id, std::size_t index, const std::string& entry_path,
              const std::string& id_path, IssueSink& issues);
  std::optional<std::size_t> find(std::string_view id) const;
  // A JSON value that must name a defined id.
  std::optional<std::size_t> resolve(const nlohmann::json& v, const std::string& path,
                                     IssueSink& issues) const;
  // The same for an id already read as a string.
  std::optional<std::size_t> resolve_id(const std::string& id, const std::string& path,
                                        IssueSink& issues) const;
  bool empty() const { return ordered_.empty(); }

 private:
  struct Entry {
    std::size_t index;
    std::string path;
  };
  std::string kind_;
  std::map<std::string, Entry, std::less<>> by_id_;
  std::vector<std::string> ordered_;
};

// Reads an "id" key (required) and checks its spelling.
std::optional<std::string> read_id(JsonReader& r, std::string_view kind);

// ---- shared context --------------------------------------------------------------

struct ParseContext {
  Scenario& scenario;
  IssueSink& issues;
  IdIndex nodes{"node"};
  IdIndex flows{"flow"};
  IdIndex controllers{"controller"};
  // For the shadowing seed (ShadowingSection::seed), resolved after the nodes.
  bool shadowing_seed_given = false;
  std::vector<std::uint64_t> placement_seeds{};  // of the random node groups, in order
  double grid_points = 0.0;  // enumerated by random_grid groups so far (at most 10^6)
};

// ---- section parsers: each reads one top-level key -------------------------------

// A contention window: a size in slots, a power of two 1..32768.
std::optional<int> check_window(const nlohmann::json& v, const std::string& path,
                                IssueSink& issues);
// A radio channel that must exist in the standard's band.
std::optional<int> check_channel(const nlohmann::json& v, const std::string& path,
                                 IssueSink& issues, PhyStandard standard);
void parse_phy(JsonReader r, ParseContext& ctx);
void parse_propagation(JsonReader r, ParseContext& ctx);
// Cross-section rules between phy and propagation (after both are read).
void check_phy_against_propagation(const nlohmann::json& doc, ParseContext& ctx);
void parse_mac(JsonReader r, ParseContext& ctx);
// A MAC override object: every key optional, `base` supplies the rest. Used for
// /mac itself (base = standard defaults) and for per-node and per-radio overrides.
MacParams parse_mac_params(JsonReader& r, const MacParams& base, MacType type);
QueueLimit parse_queue(JsonReader r, const QueueLimit& base);

void parse_nodes(const nlohmann::json* nodes, const nlohmann::json* groups, ParseContext& ctx);
void parse_links(const nlohmann::json* links, ParseContext& ctx);
void parse_routing(JsonReader r, ParseContext& ctx);
void parse_flows(const nlohmann::json* flows, ParseContext& ctx);
void parse_controllers(const nlohmann::json* controllers, ParseContext& ctx);

}  // namespace wmnsim::scenario_detail
