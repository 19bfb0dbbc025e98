#pragma once
// B, the capacity of one medium resource in 001's capacity models, measured the way
// 001 App. A.2 describes it: "the throughput that can be achieved at the MAC layer
// in a one-hop network with infrastructure". Where Bianchi's figure
// (control::one_hop_mac_capacity_bps) is a model of one collision-free station
// sending data only, this is a run: the scenario's PHY, propagation and MAC, one
// station and its access point, and one saturated flow of the scenario's own
// transport, so a TCP flow's ACKs take their airtime and ns-2's MAC details (the
// dequeue after each exchange, the reception model) take their toll.
//
// The one-hop network (one_hop_scenario):
//  - "ap", a gateway at the origin, and "sta" at the distance from the scenario's
//    gateway (or, without one, its first positioned node) to the nearest other
//    positioned node: both carry that node's entry (its radios, its MAC override),
//    so the link is one the mesh has; a node from `node_groups` is taken bare;
//  - one flow, sta -> ap: the scenario's flow with the smallest payload (the one
//    Bianchi's B is computed for, scenario/capacity_problem.hpp), with its transport
//    and parameters, from 0 s to the end, and saturated (its traffic "saturated";
//    TCP keeps its backlog);
//  - kOneHopWarmup, then kOneHopMeasured of measurement, seed kOneHopSeed whatever
//    the scenario's: B is a property of the PHY and MAC, the same for every run of
//    a network; no wired links, controllers or outputs.
// B is that flow's goodput (bit/s of payload, as the fair shares are), or, the
// other reading of "the throughput ... at the MAC layer" (MeasuredBCounts), that
// plus its TCP ACKs' bytes delivered in the window: what the MAC carried both ways.
// With "auto" data rates each link rate is measured on its own: the one-hop run at
// that rate (`data_rate_bps`), the rest as above.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>

#include "control/gateway_rate_control_params.hpp"
#include "core/time.hpp"
#include "scenario/registries.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

inline constexpr Time kOneHopWarmup = Time::s(10);
inline constexpr Time kOneHopMeasured = Time::s(100);
inline constexpr std::uint64_t kOneHopSeed = 1;

// The one-hop scenario document (above), at the data rate `data_rate_bps`
// (empty: the scenario's own). Throws std::invalid_argument for a scenario with no
// positioned node or no flow.
nlohmann::json one_hop_scenario(const Scenario& scenario, std::optional<double> data_rate_bps = {});

// What one run of it measured, in bit/s over its measurement window.
struct OneHopThroughput {
  double data_goodput_bps = 0.0;  // the flow's goodput (flow_column::goodput_bps)
  double tcp_ack_bps = 0.0;       // the IP bytes of its TCP ACKs delivered to the station
  double b(MeasuredBCounts counts) const {
    return counts == MeasuredBCounts::data ? data_goodput_bps : data_goodput_bps + tcp_ack_bps;
  }
};

// Runs it.
OneHopThroughput measure_one_hop(const Scenario& scenario, const Registries& registries,
                                 std::optional<double> data_rate_bps = {});

// B in bit/s, as `counts` reads it, at the scenario's data rate.
double measure_mac_capacity_bps(const Scenario& scenario, MeasuredBCounts counts = MeasuredBCounts::data);
double measure_mac_capacity_bps(const Scenario& scenario, const Registries& registries,
                                MeasuredBCounts counts = MeasuredBCounts::data);

}  // namespace wmnsim
