#include "control/capacity_model.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bron_kerbosch_all_cliques.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "control/bianchi.hpp"
#include "mac/frame.hpp"

namespace wmnsim::control {

namespace {

// A constraint is tight when its slack is at most this fraction of its B.
constexpr double kTightTolerance = 1e-9;

void check_problem(const CapacityProblem& p, CapacityModel model) {
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
    if (p.contention.size() != n) {
      throw std::invalid_argument("capacity model: the contention graph has " + std::to_string(p.contention.size()) +
                                  " rows for " + std::to_string(n) + " links");
    }
    for (const auto& row : p.contention) {
      if (!std::is_sorted(row.begin(), row.end()) || (!row.empty() && row.back() >= n)) {
        throw std::invalid_argument("capacity model: a row of the contention graph is not ascending link indices");
      }
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
// within transmission range of an endpoint of l, on l's channel. Only the domains
// that hold a used link (the others constrain no stream), in link order: those of
// the links near the routes (links_near_routes), each found from the links at the
// nodes around l (an index by node), so the cost is the sum of those domains'
// sizes, not links x links.
std::vector<std::vector<std::size_t>> collision_domains(const CapacityProblem& p, const std::vector<bool>& used) {
  const std::size_t n = p.links.size();
  // Per node: the links it is an end of, ascending.
  std::vector<std::vector<std::size_t>> at(p.node_count);
  for (std::size_t k = 0; k < n; ++k) {
    at[p.links[k].from].push_back(k);
    at[p.links[k].to].push_back(k);
  }
  std::vector<std::vector<std::size_t>> domains;
  const auto before = [&](std::size_t x, std::size_t y) { return domains[x] < domains[y]; };
  std::set<std::size_t, decltype(before)> seen(before);  // indices into `domains`
  std::vector<std::uint32_t> around;     // the nodes within range of an endpoint of l (themselves included)
  std::vector<bool> near(p.node_count);  // membership of `around`, cleared after each link
  std::vector<bool> in(n);               // membership of the domain, cleared after each link
  for (const std::size_t l : links_near_routes(p)) {
    const auto& me = p.links[l];
    // "Within range" as the links say: 001 A's link joins nodes within range of each other.
    around.clear();
    const auto add = [&](std::uint32_t node) {
      if (!near[node]) {
        near[node] = true;
        around.push_back(node);
      }
    };
    add(me.from);
    add(me.to);
    for (const std::uint32_t end : {me.from, me.to}) {
      for (const std::size_t k : at[end]) {
        const auto& o = p.links[k];
        if (o.channel == me.channel) add(o.from == end ? o.to : o.from);
      }
    }
    std::vector<std::size_t> domain;
    bool holds_used = false;
    for (const std::uint32_t node : around) {
      for (const std::size_t k : at[node]) {
        if (in[k] || p.links[k].channel != me.channel) continue;
        in[k] = true;
        domain.push_back(k);
        holds_used = holds_used || used[k];
      }
    }
    for (const std::uint32_t node : around) near[node] = false;
    for (const std::size_t k : domain) in[k] = false;
    if (!holds_used) continue;
    std::sort(domain.begin(), domain.end());
    // Neighbouring links often share a domain (in a crowd all do): keep one copy.
    domains.push_back(std::move(domain));
    if (!seen.insert(domains.size() - 1).second) domains.pop_back();
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
  constexpr std::size_t kNotUsed = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> link_vertex(used.size(), kNotUsed);
  for (std::size_t v = 0; v < vertex_link.size(); ++v) link_vertex[vertex_link[v]] = v;
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(vertex_link.size());
  // An edge where either row names the pair, added in ascending (i, j) order with
  // i < j: the cliques then come out in the same order whatever the rows hold
  // beyond the used links.
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t i = 0; i < vertex_link.size(); ++i) {
    for (const std::uint32_t l : p.contention[vertex_link[i]]) {
      const std::size_t j = link_vertex[l];
      if (j != kNotUsed && j != i) edges.emplace_back(std::min(i, j), std::max(i, j));
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (const auto& [i, j] : edges) boost::add_edge(i, j, g);
  std::vector<std::vector<std::size_t>> cliques;
  // min 1: a link that contends with no other is a clique of its own.
  boost::bron_kerbosch_all_cliques(g, CliqueCollector{&vertex_link, &cliques}, 1);
  return cliques;
}

}  // namespace

std::vector<std::size_t> links_near_routes(const CapacityProblem& p) {
  // A used link's ends, then their neighbours (by a link either way, any channel):
  // every link whose domain can hold a used link has an end among them.
  std::vector<std::vector<std::size_t>> at(p.node_count);
  for (std::size_t k = 0; k < p.links.size(); ++k) {
    at[p.links[k].from].push_back(k);
    at[p.links[k].to].push_back(k);
  }
  std::vector<bool> end(p.node_count, false), near(p.node_count, false);
  for (const auto& route : p.routes) {
    for (const std::size_t k : route) {
      if (k < p.links.size()) end[p.links[k].from] = end[p.links[k].to] = true;
    }
  }
  for (std::size_t y = 0; y < p.node_count; ++y) {
    if (!end[y]) continue;
    near[y] = true;
    for (const std::size_t k : at[y]) near[p.links[k].from] = near[p.links[k].to] = true;
  }
  std::vector<bool> chosen(p.links.size(), false);
  std::vector<std::size_t> out;
  for (std::size_t x = 0; x < p.node_count; ++x) {
    if (!near[x]) continue;
    for (const std::size_t k : at[x]) {
      if (!chosen[k]) out.push_back(k);
      chosen[k] = true;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<CapacityConstraint> medium_constraints(const CapacityProblem& problem, CapacityModel model) {
  check_problem(problem, model);
  const std::vector<bool> used = used_links(problem);
  std::vector<std::vector<std::size_t>> sets =
      model == CapacityModel::collision_domain ? collision_domains(problem, used) : maximal_cliques(problem, used);
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
  // Held by row, the streams ascending, without its zeros: a network's A is nearly
  // all zeros (a resource is a neighbourhood, a stream crosses few), and the sums
  // below add the same terms in the same order as a dense product would.
  struct Entry {
    std::size_t stream;
    double hops;
  };
  const std::size_t rows = r.constraints.size();
  std::vector<std::vector<Entry>> a(rows);
  {
    // Per used link, the resources that hold it.
    std::vector<std::vector<std::size_t>> holding(problem.links.size());
    for (std::size_t u = 0; u < rows; ++u) {
      for (const std::size_t l : r.constraints[u].links) holding[l].push_back(u);
    }
    std::vector<std::size_t> route;
    for (std::size_t s = 0; s < streams; ++s) {
      // 0-1 as in A.2.1: a link a route names twice counts once.
      route.assign(problem.routes[s].begin(), problem.routes[s].end());
      std::sort(route.begin(), route.end());
      route.erase(std::unique(route.begin(), route.end()), route.end());
      for (const std::size_t l : route) {
        for (const std::size_t u : holding[l]) {
          if (a[u].empty() || a[u].back().stream != s) a[u].push_back({s, 0.0});
          a[u].back().hops += 1.0;
        }
      }
    }
  }
  std::vector<double> b(rows);
  for (std::size_t u = 0; u < rows; ++u) b[u] = r.constraints[u].capacity_bps;
  // B(u) - (A R)(u): what resource u has left at rates `rate`.
  const auto slack = [&](std::size_t u, const std::vector<double>& rate) {
    double used = 0.0;
    for (const Entry& e : a[u]) used += e.hops * rate[e.stream];
    return b[u] - used;
  };

  r.rate_bps.assign(streams, 0.0);
  r.bottleneck.assign(streams, std::nullopt);
  std::vector<double> rate(streams, 0.0);
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
  std::vector<double> rising_hops(rows);  // per constraint: hops of rising streams
  while (std::find(rising.begin(), rising.end(), true) != rising.end()) {
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t u = 0; u < rows; ++u) {
      rising_hops[u] = 0.0;
      for (const Entry& e : a[u]) {
        if (rising[e.stream]) rising_hops[u] += e.hops;
      }
      if (rising_hops[u] > 0.0) step = std::min(step, std::max(0.0, slack(u, rate)) / rising_hops[u]);
    }
    if (!std::isfinite(step)) throw std::logic_error("capacity model: a rising stream is in no constraint");
    for (std::size_t s = 0; s < streams; ++s) {
      if (rising[s]) rate[s] += step;
    }
    // Tight after the step: freeze its rising streams (all tests read the rates
    // after the step, before any stream is frozen).
    std::vector<std::size_t> tight;
    for (std::size_t u = 0; u < rows; ++u) {
      if (rising_hops[u] > 0.0 && slack(u, rate) <= kTightTolerance * b[u]) tight.push_back(u);
    }
    for (const std::size_t u : tight) {
      for (const Entry& e : a[u]) {
        if (rising[e.stream]) {
          rising[e.stream] = false;
          r.bottleneck[e.stream] = u;
        }
      }
    }
  }
  for (std::size_t s = 0; s < streams; ++s) {
    if (!r.bottleneck[s]) continue;
    r.rate_bps[s] = rate[s];
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
