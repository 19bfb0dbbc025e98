#pragma once
// 001's capacity models: per-stream max-min fair shares of a mesh network under the
// collision-domain or the clique model of medium contention (Jamshaid et al., "The
// efficacy of centralized flow rate control in 802.11-based WMNs", Appendix A;
// docs/capacity.md).
//
// The feasibility model (A.2) is M L R <= B, R >= 0 (Eq. 7, 8):
//  - L, the link-usage matrix (A.2.1): L[l][s] = 1 when stream s uses link l;
//  - M, the medium-usage matrix (A.2.2): M[u][l] = 1 when link l is in resource u,
//    a collision domain (Eq. 6) or a maximal clique of the link-contention graph
//    (Eq. 4); B[u] the capacity of resource u.
// A stream's row of M L counts its hops inside the resource. The fairness criterion
// is max-min (A.3), computed by progressive filling; a silent stream (G(s) = 0)
// gets 0 and leaves its capacity to the others.
//
// This file is a pure model: no simulation, no scenario. scenario/capacity_problem.hpp
// builds a CapacityProblem from a scenario's PHY and routing.

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "control/gateway_rate_control_params.hpp"  // CapacityModel
#include "mac/mac_params.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::control {

// One direction of a link (001 A: nodes within transmission range of each other).
struct CapacityLink {
  std::uint32_t from = 0;  // node index
  std::uint32_t to = 0;
  int channel = 0;  // links on different channels never share a resource
};

struct CapacityProblem {
  std::size_t node_count = 0;
  // Every link of the network, used or not: the collision domains are built from
  // them. Two nodes are "within transmission range" when a link joins them on that
  // channel (001 A's edge rule, d_ij <= T_i and d_ij <= T_j, as the caller found it).
  std::vector<CapacityLink> links;
  // The clique model's link-contention graph (A.2.2), one row per link: the links
  // link i cannot carry frames at the same time with, ascending, symmetric. The
  // model reads only the rows and entries of links some route uses (the cliques of
  // that subgraph give every constraint on the streams), so a builder may leave
  // the other rows empty: a network's contention then costs the routes' links and
  // their neighbourhoods, not links x links. The caller decides ("omniscient": the
  // builder reads it off the PHY). Empty: the clique model is not available.
  std::vector<std::vector<std::uint32_t>> contention;
  // Each stream's route in its data direction: indices into `links`, in order. An
  // empty route (a stream that crosses no wireless link) is unconstrained.
  std::vector<std::vector<std::size_t>> routes;
  // B: the MAC capacity of a resource in bit/s of stream payload (001 A: the
  // throughput of a one-hop network with infrastructure at the link rate).
  double mac_capacity_bps = 0.0;
  // Per link, when links run at different rates: B(u) is then the smallest value of
  // the links in u (the slowest link in a resource bounds it; 001 suggests a weighted
  // contention graph instead). Empty: mac_capacity_bps everywhere.
  std::vector<double> link_capacity_bps;

  bool contend(std::size_t a, std::size_t b) const {
    const std::vector<std::uint32_t>& row = contention[a];
    return std::binary_search(row.begin(), row.end(), static_cast<std::uint32_t>(b));
  }
};

// One medium resource u: a row of M and its B(u).
struct CapacityConstraint {
  std::vector<std::size_t> links;  // sorted link indices
  double capacity_bps = 0.0;
};

struct CapacityResult {
  CapacityModel model = CapacityModel::collision_domain;
  std::vector<CapacityConstraint> constraints;  // the rows of M (only those holding a used link)
  // Per stream: its max-min fair rate (0 for a silent stream, +infinity for an active
  // stream with an empty route) and the constraint that froze it (empty for those two).
  std::vector<double> rate_bps;
  std::vector<std::optional<std::size_t>> bottleneck;
  // U_opt = sum of r_i * hops_i over the active constrained streams: the medium
  // time the fair allocation uses, in bit/s of link throughput (001 Sec. 5.3's U_max).
  double u_opt_bps = 0.0;
};

// The medium resources of `model`: each link's collision domain (Eq. 6: the links
// with an endpoint equal to or within transmission range of an endpoint of the link,
// the link included), or each maximal clique of the contention graph (Eq. 4), found
// with Boost.Graph's Bron-Kerbosch over the links some stream uses (the cliques of
// that induced subgraph give the same constraints on the streams: a clique's unused
// links carry nothing). Rows without a used link are dropped, duplicates merged.
// Throws std::invalid_argument for a malformed problem (a route naming a link that
// does not exist, a contention graph of the wrong size, B <= 0) or the clique model
// without a contention graph.
std::vector<CapacityConstraint> medium_constraints(const CapacityProblem& problem, CapacityModel model);

// The links whose collision domain can hold a link some route uses (an end at a
// used link's end or at a neighbour of one), ascending: the only domains the model
// builds. A route's unknown link is skipped (solve_capacity reports it).
std::vector<std::size_t> links_near_routes(const CapacityProblem& problem);

// L (links x streams, A.2.1) and M (constraints x links, A.2.2) as 0-1 matrices.
Eigen::MatrixXd link_usage(const CapacityProblem& problem);
Eigen::MatrixXd medium_usage(const CapacityProblem& problem, std::span<const CapacityConstraint> constraints);

// Max-min fair rates under M L R <= B with R(s) <= G(s), G(s) in {0, infinity}
// (A.3), by progressive filling: every unfrozen active stream is raised by the same
// amount until some constraint is tight; the streams in a tight constraint are
// frozen; repeat. Exact up to doubles: a constraint counts as tight when its slack
// is at most 1e-9 of its B. `active` has one entry per stream (empty: all active).
CapacityResult solve_capacity(const CapacityProblem& problem, CapacityModel model,
                              std::span<const bool> active = {});

// What a controller asks: each stream's fair rate in bit/s (solve_capacity().rate_bps).
std::vector<double> fair_shares(const CapacityProblem& problem, CapacityModel model,
                                std::span<const bool> active = {});
// The same with the flags in a std::vector<bool> (which has no span), as
// scenario/capacity_problem.hpp's active_flows() returns them.
std::vector<double> fair_shares(const CapacityProblem& problem, CapacityModel model, const std::vector<bool>& active);
CapacityResult solve_capacity(const CapacityProblem& problem, CapacityModel model, const std::vector<bool>& active);

// What B is by default: Bianchi's saturation throughput (control/bianchi.hpp) of ONE
// saturated station, i.e. one link of a one-hop network with infrastructure (001 A),
// sending `payload_bytes` of stream payload plus `header_bytes` of transport and IP
// headers per frame at `data`, control frames at `control`, with the MAC's window
// sizes and retry limit (edca: AC_BE's, and AIFS[AC_BE] for DIFS), RTS/CTS when the
// frame exceeds the RTS threshold, no propagation delay. Payload bit/s: the
// transport's goodput, which is what the fair shares are compared with. A measured
// figure can be given instead (CapacityProblem::mac_capacity_bps).
double one_hop_mac_capacity_bps(const phy::PhyProfile& profile, const phy::Mcs& data, const phy::Mcs& control,
                                MacType type, const MacParams& mac, std::uint32_t payload_bytes,
                                std::uint32_t header_bytes);

}  // namespace wmnsim::control
