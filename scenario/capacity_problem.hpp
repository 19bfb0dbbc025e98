#pragma once
// 001's capacity models (control/capacity_model.hpp) for a scenario: the problem
// built from the network a run builds, its PHY (scenario/phy_builder.hpp) and its
// routing (core/routing.hpp). docs/capacity.md describes the choices:
//
//  - links: a directed pair of radios on one channel, of two nodes, where each
//    decodes the other (SignalReach::decodable both ways: 001 A's edge rule,
//    d_ij <= T_i and d_ij <= T_j, with the PHY's decoding range as T);
//  - contention, for the clique model ("omniscient", from the PHY; between the links
//    the routes use, the only ones the model reads): two links on one
//    channel contend when they share a node, or when an endpoint of one reaches an
//    endpoint of the other, either way, so that it is sensed or interferes there:
//    SignalReach::sensed or ::interferes under the threshold, range and ns2
//    reception models; under sinr, where every signal above the floor counts as
//    interference, a signal decodable or at least at the CCA threshold;
//  - streams: one per scenario flow, by flow index, along the routing's path in the
//    flow's data direction; wired hops are left out, and so are a TCP flow's ACKs
//    (001's model counts data only);
//  - B: Bianchi's one-station saturation throughput (control::one_hop_mac_capacity_bps)
//    at the scenario's fixed data rate (with "auto", per link at the link's rate),
//    the scenario-wide MAC parameters, and the smallest payload of the scenario's
//    flows with its transport's headers; or a figure the caller gives; or one the
//    caller measures at each data rate the links use (with "auto", per distinct rate).

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "control/capacity_model.hpp"
#include "core/routing.hpp"
#include "core/time.hpp"
#include "phy/radio.hpp"
#include "scenario/phy_builder.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

struct CapacityOptions {
  // B in bit/s instead of Bianchi's figure, for every resource.
  std::optional<double> mac_capacity_bps;
  // Or B measured at a data rate (runner/one_hop_capacity.hpp): called with empty
  // for the scenario's fixed rate, or with "auto" once per distinct rate of the
  // links (its bit/s), each link's B then its rate's.
  std::function<double(std::optional<double> data_rate_bps)> measured_mac_capacity_bps;
};

struct ScenarioCapacity {
  control::CapacityProblem problem;  // streams = Scenario::flows, by index
  // Per link of problem.links: the radios at its ends (sender, receiver).
  std::vector<std::pair<phy::RadioId, phy::RadioId>> link_radios;
  // What B came from: the payload and header bytes per frame, and Bianchi's figure
  // at the fixed data rate (empty with "auto" rates, where each link has its own).
  std::uint32_t payload_bytes = 0;
  std::uint32_t header_bytes = 0;
  std::optional<double> bianchi_bps;
  bool b_given = false;     // CapacityOptions::mac_capacity_bps was used
  bool b_measured = false;  // CapacityOptions::measured_mac_capacity_bps was used
};

// At most this many link visits to find the collision domains (the bound that
// capacity_problem computes first: per link near the routes, the links at its
// ends and at their neighbours). Contention and the domains cost the routes' links
// and their neighbourhoods, so this bounds crowds in which every radio hears every
// other. Set so that every network the model's former cap of 20,000 links took is
// still taken (141 radios within range of one another, 19,740 links: 1.56e9);
// 153 such radios (23,256 links) need 2.16e9.
inline constexpr std::size_t kMaxCapacityDomainVisits = 2000000000;

// Throws std::invalid_argument for a given B that is not a positive number, and
// ScenarioError (at the root) when the domains would take more than
// `max_domain_visits` link visits.
ScenarioCapacity capacity_problem(const Scenario& scenario, const phy::PhyNetwork& net, const Routing& routing,
                                  const CapacityOptions& options = {},
                                  std::size_t max_domain_visits = kMaxCapacityDomainVisits);

// The transport and IP header bytes of a flow's data packets (its transport's
// registry figure; 28, UDP's, for a transport the registry does not know).
std::uint32_t header_bytes_of(const FlowConfig& flow);

// Which flows send at time `at`: start <= at < stop (001's G(s) = infinity), by flow index.
std::vector<bool> active_flows(const Scenario& scenario, Time at);

}  // namespace wmnsim
