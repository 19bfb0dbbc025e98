#include "control/capacity_model.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bron_kerbosch_all_cliques.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "control/bianchi.hpp"
#include "mac/frame.hpp"

namespace wmnsim::control {

namespace {

// A constraint is tight when its slack is at most this fraction of its B.
constexpr double kTightTolerance = 1e-9;

void check(const CapacityProblem& p, CapacityModel model) {
  const std::size_t n = p.links.size();
  for (const CapacityLink& l : p.links) {
    if (l.from >= p.node_count || l.to >= p.node_count || l.from == l.to) {
      throw std::invalid_argument("capacity model: link " + std::to_string(l.from) + " -> " + std::to_string(l.to) +
                                  " is not a link between two of the " + std::to_string(p.node_count) + " nodes");
    }
  }
  for (std::size_t s = 0; s < p.routes.size(); ++s) {
    for (const std::size_t l : p.routes[s]) {
      if (l >= n) {
        throw std::invalid_argument("capacity model: stream " + std::to_string(s) + " uses link " +
                                    std::to_string(l) + ", but there are " + std::to_string(n) + " links");
      }
    }
  }
  if (!(p.mac_capacity_bps > 0.0) || !std::isfinite(p.mac_capacity_bps)) {
    throw std::invalid_argument("capacity model: the MAC capacity B must be a positive number of bit/s, got " +
                                std::to_string(p.mac_capacity_bps));
  }
  if (!p.link_capacity_bps.empty()) {
    if (p.link_capacity_bps.size() != n) {
      throw std::invalid_argument("capacity model: link_capacity_bps has " + std::to_string(p.link_capacity_bps.size()) +
                                  " entries for " + std::to_string(n) + " links");
    }
    for (const double b : p.link_capacity_bps) {
      if (!(b > 0.0) || !std::isfinite(b)) {
        throw std::invalid_argument("capacity model: a link's capacity must be a positive number of bit/s, got " +
                                    std::to_string(b));
      }
    }
  }
  if (model == CapacityModel::clique) {
    if (p.contention.empty()) {
      throw std::invalid_argument("capacity model: the clique model needs the link-contention graph (none given)");
    }
    if (p.contention.size() != n * n) {
      throw std::invalid_argument("capacity model: the contention matrix has " + std::to_string(p.contention.size()) +
                                  " entries for " + std::to_string(n) + " links (needs " + std::to_string(n * n) + ")");
    }
  }
}

std::vector<bool> used_links(const CapacityProblem& p) {
  std::vector<bool> used(p.links.size(), false);
  for (const auto& route : p.routes) {
    for (const std::size_t l : route) used[l] = true;
  }
  return used;
}

double capacity_of(const CapacityProblem& p, const std::vector<std::size_t>& links) {
  if (p.link_capacity_bps.empty()) return p.mac_capacity_bps;
  double b = std::numeric_limits<double>::infinity();
  for (const std::size_t l : links) b = std::min(b, p.link_capacity_bps[l]);
  return b;
}

// Eq. 6: the collision domain of link l, every link with an endpoint equal to or
// within transmission range of an endpoint of l, on l's channel.
std::vector<std::vector<std::size_t>> collision_domains(const CapacityProblem& p) {
  const std::size_t n = p.links.size();
  // "Within range" as the links say: 001 A's link joins nodes within range of each other.
  std::vector<std::vector<std::size_t>> domains;
  domains.reserve(n);
  const std::size_t nodes = p.node_count;
  for (std::size_t l = 0; l < n; ++l) {
    const auto& me = p.links[l];
    // The nodes within range of an endpoint of l on its channel (itself included).
    std::vector<bool> around(nodes, false);
    around[me.from] = around[me.to] = true;
    for (const CapacityLink& o : p.links) {
      if (o.channel != me.channel) continue;
      if (o.from == me.from || o.from == me.to) around[o.to] = true;
      if (o.to == me.from || o.to == me.to) around[o.from] = true;
    }
    std::vector<std::size_t> domain;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& o = p.links[k];
      if (o.channel == me.channel && (around[o.from] || around[o.to])) domain.push_back(k);
    }
    domains.push_back(std::move(domain));
  }
  return domains;
}

// Bron-Kerbosch's visitor: each maximal clique as link indices.
struct CliqueCollector {
  const std::vector<std::size_t>* vertex_link;
  std::vector<std::vector<std::size_t>>* out;
  template <class Clique, class G>
  void clique(const Clique& c, const G&) const {
    std::vector<std::size_t> links;
    for (const auto v : c) links.push_back((*vertex_link)[v]);
    out->push_back(std::move(links));
  }
};

// Eq. 4: the maximal cliques of the contention graph over the used links.
std::vector<std::vector<std::size_t>> maximal_cliques(const CapacityProblem& p, const std::vector<bool>& used) {
  std::vector<std::size_t> vertex_link;  // graph vertex -> link index
  for (std::size_t l = 0; l < used.size(); ++l) {
    if (used[l]) vertex_link.push_back(l);
  }
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(vertex_link.size());
  for (std::size_t i = 0; i < vertex_link.size(); ++i) {
    for (std::size_t j = i + 1; j < vertex_link.size(); ++j) {
      if (p.contend(vertex_link[i], vertex_link[j]) || p.contend(vertex_link[j], vertex_link[i])) {
        boost::add_edge(i, j, g);
      }
    }
  }
  std::vector<std::vector<std::size_t>> cliques;
  // min 1: a link that contends with no other is a clique of its own.
  boost::bron_kerbosch_all_cliques(g, CliqueCollector{&vertex_link, &cliques}, 1);
  return cliques;
}

}  // namespace

std::vector<CapacityConstraint> medium_constraints(const CapacityProblem& problem, CapacityModel model) {
  check(problem, model);
  const std::vector<bool> used = used_links(problem);
  std::vector<std::vector<std::size_t>> sets =
      model == CapacityModel::collision_domain ? collision_domains(problem) : maximal_cliques(problem, used);
  std::set<std::vector<std::size_t>> seen;
  std::vector<CapacityConstraint> out;
  for (std::vector<std::size_t>& s : sets) {
    std::sort(s.begin(), s.end());
    if (std::none_of(s.begin(), s.end(), [&](std::size_t l) { return used[l]; })) continue;
    if (!seen.insert(s).second) continue;
    const double b = capacity_of(problem, s);
    out.push_back({std::move(s), b});
  }
  return out;
}

Eigen::MatrixXd link_usage(const CapacityProblem& problem) {
  Eigen::MatrixXd l = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(problem.links.size()),
                                            static_cast<Eigen::Index>(problem.routes.size()));
  for (std::size_t s = 0; s < problem.routes.size(); ++s) {
    for (const std::size_t link : problem.routes[s]) {
      if (link >= problem.links.size()) throw std::invalid_argument("capacity model: a route names an unknown link");
      // 0-1 as in A.2.1; a route visits a link at most once (routing has no loops).
      l(static_cast<Eigen::Index>(link), static_cast<Eigen::Index>(s)) = 1.0;
    }
  }
  return l;
}

Eigen::MatrixXd medium_usage(const CapacityProblem& problem, std::span<const CapacityConstraint> constraints) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(constraints.size()),
                                            static_cast<Eigen::Index>(problem.links.size()));
  for (std::size_t u = 0; u < constraints.size(); ++u) {
    for (const std::size_t l : constraints[u].links) m(static_cast<Eigen::Index>(u), static_cast<Eigen::Index>(l)) = 1.0;
  }
  return m;
}

CapacityResult solve_capacity(const CapacityProblem& problem, CapacityModel model, std::span<const bool> active) {
  const std::size_t streams = problem.routes.size();
  if (!active.empty() && active.size() != streams) {
    throw std::invalid_argument("capacity model: " + std::to_string(active.size()) + " activity flags for " +
                                std::to_string(streams) + " streams");
  }
  CapacityResult r;
  r.model = model;
  r.constraints = medium_constraints(problem, model);
  // A = M L (Eq. 7): A(u, s) is the number of stream s's hops inside resource u.
  const Eigen::MatrixXd a = medium_usage(problem, r.constraints) * link_usage(problem);
  const Eigen::Index rows = a.rows();
  Eigen::VectorXd b(rows);
  for (Eigen::Index u = 0; u < rows; ++u) b(u) = r.constraints[static_cast<std::size_t>(u)].capacity_bps;

  r.rate_bps.assign(streams, 0.0);
  r.bottleneck.assign(streams, std::nullopt);
  Eigen::VectorXd rate = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(streams));
  std::vector<bool> rising(streams, false);  // active, constrained and not yet frozen
  for (std::size_t s = 0; s < streams; ++s) {
    const bool on = active.empty() || active[s];
    if (!on) continue;  // G(s) = 0
    if (problem.routes[s].empty()) {
      r.rate_bps[s] = std::numeric_limits<double>::infinity();  // no wireless hop: no medium constraint
      continue;
    }
    rising[s] = true;
  }
  // Progressive filling. Each round freezes at least one stream (every rising stream
  // has a link, and every used link is in some constraint), so at most `streams` rounds.
  while (std::find(rising.begin(), rising.end(), true) != rising.end()) {
    const Eigen::VectorXd slack = b - a * rate;
    Eigen::VectorXd rising_hops = Eigen::VectorXd::Zero(rows);  // per constraint: hops of rising streams
    for (std::size_t s = 0; s < streams; ++s) {
      if (rising[s]) rising_hops += a.col(static_cast<Eigen::Index>(s));
    }
    double step = std::numeric_limits<double>::infinity();
    for (Eigen::Index u = 0; u < rows; ++u) {
      if (rising_hops(u) > 0.0) step = std::min(step, std::max(0.0, slack(u)) / rising_hops(u));
    }
    if (!std::isfinite(step)) throw std::logic_error("capacity model: a rising stream is in no constraint");
    for (std::size_t s = 0; s < streams; ++s) {
      if (rising[s]) rate(static_cast<Eigen::Index>(s)) += step;
    }
    const Eigen::VectorXd after = b - a * rate;
    for (Eigen::Index u = 0; u < rows; ++u) {
      if (rising_hops(u) <= 0.0 || after(u) > kTightTolerance * b(u)) continue;
      for (std::size_t s = 0; s < streams; ++s) {
        if (rising[s] && a(u, static_cast<Eigen::Index>(s)) > 0.0) {
          rising[s] = false;
          r.bottleneck[s] = static_cast<std::size_t>(u);
        }
      }
    }
  }
  for (std::size_t s = 0; s < streams; ++s) {
    if (!r.bottleneck[s]) continue;
    r.rate_bps[s] = rate(static_cast<Eigen::Index>(s));
    r.u_opt_bps += r.rate_bps[s] * static_cast<double>(problem.routes[s].size());
  }
  return r;
}

std::vector<double> fair_shares(const CapacityProblem& problem, CapacityModel model, std::span<const bool> active) {
  return solve_capacity(problem, model, active).rate_bps;
}

CapacityResult solve_capacity(const CapacityProblem& problem, CapacityModel model, const std::vector<bool>& active) {
  const std::unique_ptr<bool[]> flags = std::make_unique<bool[]>(active.size());
  std::copy(active.begin(), active.end(), flags.get());
  // An empty vector means "all active", as an empty span does.
  return solve_capacity(problem, model, std::span<const bool>(flags.get(), active.size()));
}

std::vector<double> fair_shares(const CapacityProblem& problem, CapacityModel model, const std::vector<bool>& active) {
  return solve_capacity(problem, model, active).rate_bps;
}

double one_hop_mac_capacity_bps(const phy::PhyProfile& profile, const phy::Mcs& data, const phy::Mcs& control,
                                MacType type, const MacParams& mac, std::uint32_t payload_bytes,
                                std::uint32_t header_bytes) {
  if (payload_bytes == 0) throw std::invalid_argument("capacity model: B needs a payload of at least one byte");
  const std::uint32_t ip_bytes = payload_bytes + header_bytes;
  int cw_min = mac.cw_min, cw_max = mac.cw_max;
  ExchangeTimes t = exchange_times(profile, data, control, ip_bytes, Time::zero(), CollisionGap::difs);
  if (type == MacType::edca) {
    const EdcaParams& be = mac.ac(AccessCategory::ac_be);
    cw_min = be.cw_min;
    cw_max = be.cw_max;
    t.difs = t.sifs + be.aifsn * t.slot;  // AIFS[AC_BE] in place of DIFS
  }
  const std::uint32_t mpdu = mac::mpdu_bytes(mac::FrameKind::data, ip_bytes);
  const bool rts = mac.rts_threshold_bytes && static_cast<std::int64_t>(mpdu) > *mac.rts_threshold_bytes;
  const BackoffChain chain = backoff_chain(cw_min, cw_max, mac.short_retry_limit);
  // n = 1: one station never collides (p = 0), so it sends back to back with a mean
  // backoff of (W - 1) / 2 slots between exchanges.
  const Saturation s = saturation(chain, 1, slot_durations(rts ? AccessMode::rts_cts : AccessMode::basic, t),
                                  8.0 * static_cast<double>(payload_bytes));
  return s.throughput_bps;
}

}  // namespace wmnsim::control
