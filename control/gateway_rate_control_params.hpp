#pragma once
// The parameters of 001's gateway rate control (control/gateway_rate_control.hpp).

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "control/controller_entry.hpp"
#include "link/packet_classifier.hpp"
#include "link/fair_queue.hpp"  // FairQueueParams
#include "link/fred_queue.hpp"  // FredParams
#include "link/token_bucket.hpp"

namespace wmnsim {

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
// Which flows the shares are computed for (docs/controllers.md, "Fair shares").
//  - activity: the classes the gateway sees packets of, each dropped after an idle
//    timeout; wmnsim's own reading of 001 Sec. 5.3.3 ("the presence or absence of
//    packets"), for gateways that are not told which flows run;
//  - offline: 001 App. A ("flow rates used in our analysis in Sect. 5 were computed
//    off-line"): the flows the scenario declares active (start_s <= t < stop_s),
//    the shares computed when the controller starts and again only at the
//    scenario's own starts and stops.
enum class ShareMode { activity, offline };
// Where B, the capacity of a medium resource, comes from (docs/capacity.md):
// Bianchi's one-station saturation throughput, or a one-hop run on the scenario's
// PHY and MAC (001 App. A.2: "the throughput that can be achieved at the MAC layer
// in a one-hop network with infrastructure"; runner/one_hop_capacity.hpp).
enum class MacCapacitySource { bianchi, measured };
// What a measured B counts (001 App. A.2 says only "the throughput that can be
// achieved at the MAC layer"; docs/capacity.md, "Two readings of a measured B"):
//  - data: the one-hop flow's goodput, its TCP ACKs left out (they take airtime but
//    carry no payload): the unit of the fair shares;
//  - data_and_tcp_acks: what the MAC carried both ways, the data's payload plus the
//    TCP ACKs' bytes (an ACK's bytes are its headers). The same as `data` for UDP.
enum class MeasuredBCounts { data, data_and_tcp_acks };

// 001: queueing and rate control at one gateway.
struct GatewayRateControlParams {
  std::size_t gateway = 0;
  GatewayScheme scheme = GatewayScheme::per_flow_rate_limit;
  CapacityModel capacity_model = CapacityModel::collision_domain;
  std::optional<double> fair_rate_bps;  // per-flow share; empty: from capacity_model
  int buffer_packets = 25;              // shared buffer (fifo, fred, aggregate_rate_limit)
  int per_flow_buffer_packets = link::FairQueueParams{}.per_class_packets;  // per-flow buffers (fq and the rest)
  link::FredParams fred;
  ShareMode share_mode = ShareMode::activity;
  Time flow_idle_timeout = Time::s(1);  // a flow silent this long counts as inactive
  // Instead of flow_idle_timeout: silent for this many of its class's packet
  // intervals at its share (a data packet's bits over its token rate).
  std::optional<double> flow_idle_timeout_intervals;
  MacCapacitySource mac_capacity = MacCapacitySource::bianchi;
  std::optional<double> mac_capacity_bps;  // a given B (bit/s of payload), over mac_capacity
  MeasuredBCounts measured_b_counts = MeasuredBCounts::data;  // mac_capacity measured: what B counts
  link::ClassifyBy classify = link::ClassifyBy::subscriber;  // 001 Sec. 4.3.2: per mesh router
  std::int64_t burst_bytes = link::TokenBucket::kDefaultDepthBytes;  // the shapers' bucket depth
  Time report_interval = Time::s(1);    // of the per-class arrival rates
};

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
inline constexpr std::array<EnumName<ShareMode>, 2> kShareModes{
    {{"activity", ShareMode::activity}, {"offline", ShareMode::offline}}};
inline constexpr std::array<EnumName<MacCapacitySource>, 2> kMacCapacitySources{
    {{"bianchi", MacCapacitySource::bianchi}, {"measured", MacCapacitySource::measured}}};
constexpr std::string_view to_string(ShareMode v) { return enum_name(names(kShareModes), v); }
inline constexpr std::array<EnumName<MeasuredBCounts>, 2> kMeasuredBCounts{
    {{"data", MeasuredBCounts::data}, {"data_and_tcp_acks", MeasuredBCounts::data_and_tcp_acks}}};
constexpr std::string_view to_string(MeasuredBCounts v) { return enum_name(names(kMeasuredBCounts), v); }
constexpr std::string_view to_string(MacCapacitySource v) { return enum_name(names(kMacCapacitySources), v); }
constexpr std::string_view to_string(GatewayScheme v) { return enum_name(names(kGatewaySchemes), v); }
constexpr std::string_view to_string(CapacityModel v) { return enum_name(names(kCapacityModels), v); }

namespace control {
// Its registry entry (control/controller_registry.hpp): parse, schema, doc, factory.
ControllerEntry gateway_rate_control_entry();
}  // namespace control

}  // namespace wmnsim
