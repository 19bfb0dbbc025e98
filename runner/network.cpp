#include "runner/network.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "core/not_supported.hpp"
#include "runner/network_links.hpp"
#include "runner/one_hop_capacity.hpp"
#include "scenario/capacity_problem.hpp"
#include "scenario/transport_builder.hpp"
#include "transport/flow_build_context.hpp"

namespace wmnsim {

namespace {

void reject_unsupported(const Scenario& scenario, const control::ControllerRegistry& registry) {
  for (std::size_t i = 0; i < scenario.controllers.size(); ++i) registry.require(scenario.controllers[i], i);
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    const FlowConfig& f = scenario.flows[i];
    if (f.transport_build) continue;
    // Registered for parsing only (transport/transport_entry.hpp: no build hook).
    throw NotSupportedError("/flows/" + std::to_string(i) + "/transport: " + f.transport_name +
                            " is not simulated yet");
  }
}

// The PHY, once the scenario is known to ask only for what the layers simulate.
phy::PhyNetwork checked_phy(Simulation& sim, const Scenario& scenario,
                            const control::ControllerRegistry& registry) {
  reject_unsupported(scenario, registry);
  return phy::build_phy(sim, scenario);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class F>
auto timed(double& seconds, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  auto out = f();
  seconds = seconds_since(start);
  return out;
}

}  // namespace

Network::Network(Simulation& sim, const Scenario& scenario, const control::ControllerRegistry& registry,
                 double sample_budget)
    : sim_(sim),
      scenario_(scenario),
      window_{scenario.simulation.warmup, scenario.simulation.duration},
      phy_(timed(setup_times_.phy_s, [&] { return checked_phy(sim, scenario, registry); })),
      routing_(timed(setup_times_.routing_s, [&] {
        const std::vector<RoutingLink> links =
            timed(setup_times_.routing_links_s, [&] { return routing_links(scenario, phy_); });
        return compute_routing(scenario, links);
      })),
      ledger_(scenario.nodes.size(), scenario.flows.size(), window_.begin, window_.end),
      node_context_{sim.scheduler(), routing_.tables, ledger_} {
  const auto start = std::chrono::steady_clock::now();
  samples_ = SampleBudget(sample_budget);
  build_nodes();
  build_wired_links();
  build_routing_agent();
  build_flows();
  build_controllers(registry);
  setup_times_.layers_s = seconds_since(start);
  setup_times_.routing_s -= setup_times_.routing_links_s;  // timed inside it
}

Network::~Network() = default;

void Network::observe_decisions(DecisionObserver* observer) {
  if (aodv_) aodv_->set_observer(observer);
  if (control_context_) control_context_->decisions = observer;
  if (observer != nullptr) {
    for (const auto& c : controllers_) c->report_state();
  }
}

void Network::build_nodes() {
  const std::size_t n = scenario_.nodes.size();
  // Allocated in the nodes' build order (near in space, near in memory: the PHY's
  // node_build_order); a node's construction reads nothing of the others.
  nodes_.resize(n);
  for (const std::uint32_t i : phy_.node_build_order) {
    nodes_[i] = std::make_unique<Node>(node_context_, i);
  }
  std::vector<DropSink*> drops;
  for (const auto& node : nodes_) drops.push_back(node.get());
  macs_ = mac::build_macs(sim_, scenario_, phy_, pool_, drops);
  // Interfaces in the routing layer's order: radios first (runner/network_links.hpp).
  for (std::size_t i = 0; i < n; ++i) {
    for (mac::Mac* m : macs_.node_macs[i]) {
      // It adds itself to the node as its next interface.
      mac_interfaces_.emplace_back(*m, *nodes_[i]);
    }
  }
}

void Network::build_wired_links() {
  // Then each node's wired links, in the order of Scenario::links.
  const auto interfaces = wired_interfaces(scenario_);
  const link::QueueContext context = mac::queue_context(scenario_);
  for (std::size_t k = 0; k < scenario_.links.size(); ++k) {
    const WiredLinkConfig& l = scenario_.links[k];
    const auto [at_a, at_b] = interfaces[k];
    for (const auto& [from, to, at_from, at_to] : {std::tuple{l.a, l.b, at_a, at_b}, std::tuple{l.b, l.a, at_b, at_a}}) {
      Node& near = *nodes_[from];
      Node& far = *nodes_[to];
      // The routing's numbering (runner/network_links.hpp) is the one that counts.
      if (near.interface_count() != at_from) {
        throw std::logic_error("wired link " + std::to_string(k) + ": interface numbering differs from the routing's");
      }
      // The far node receives on its own interface of this link, from this node.
      PacketSink& arrivals = far.arrivals(PrevHop{at_to, static_cast<std::uint32_t>(from)});
      wired_links_.push_back(
          std::make_unique<link::WiredLink>(sim_.scheduler(), l.rate_bps, l.delay, l.queue, arrivals, near));
      // The link's queue discipline (queue.discipline); drop-tail unless chosen.
      if (l.queue_discipline.build) {
        link::QueueContext c = context;
        c.random = sim_.random().stream("node", scenario_.nodes[from].id, "queue/link" + std::to_string(k));
        wired_links_.back()->set_queue(l.queue_discipline.build(l.queue, l.queue_discipline.params, near, c));
      }
      wired_links_.back()->subscribe_departures(near.departures());
      wired_interfaces_.push_back(std::make_unique<link::WiredInterface>(*wired_links_.back()));
      near.add_interface(*wired_interfaces_.back());
    }
  }
}

void Network::build_routing_agent() {
  if (scenario_.routing.type != RoutingType::aodv) return;
  std::vector<Node*> nodes;
  std::vector<RandomStream> jitter;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes.push_back(nodes_[i].get());
    // Its own stream per node: AODV's draws change no other stream's.
    jitter.push_back(sim_.random().stream("node", scenario_.nodes[i].id, "aodv/jitter"));
  }
  aodv_ = std::make_unique<aodv::Aodv>(sim_.scheduler(), pool_, scenario_.routing.aodv, nodes, std::move(jitter));
}

void Network::build_flows() {
  const bool edca = scenario_.mac.type == MacType::edca;
  flows_.reserve(scenario_.flows.size());
  for (std::size_t i = 0; i < scenario_.flows.size(); ++i) {
    const FlowConfig& f = scenario_.flows[i];
    const FlowEnds ends = routing_.flows.at(i);
    const transport::FlowSpec spec =
        transport::flow_spec(f, {static_cast<std::uint32_t>(i), ends.src, ends.dst}, edca, scenario_.simulation.duration);
    transport::FlowBuildContext site{sim_.scheduler(), pool_, *nodes_.at(ends.src), *nodes_.at(ends.dst), spec,
                                     window_, sim_.random().stream("flow", f.id, "arrivals"), kSaturatedBacklog};
    // An entry without a build hook is refused above.
    flows_.push_back(f.transport_build(site));
    if (!flows_.back()) throw std::logic_error("transport " + f.transport_name + " built no endpoints");
  }
}

void Network::build_controllers(const control::ControllerRegistry& registry) {
  // Only controllers read the context: without them it would hold a record, a node
  // pointer and a wired-link list per node for nobody (issue 43 §3).
  if (scenario_.controllers.empty()) return;
  control_context_ = std::make_unique<control::ControlContext>(
      control::ControlContext{sim_, routing_, {}, {}, macs_.node_macs, {}, {}, {}, {}, {}});
  // The time series are bounded before the run (at most kMaxTimeseriesSamples); the
  // histories get what they leave.
  samples_.take(scenario_.timeseries_samples);
  control_context_->samples = &samples_;
  for (const NodeConfig& node : scenario_.nodes) control_context_->node_info.push_back({node.id, node.role});
  for (const auto& node : nodes_) control_context_->nodes.push_back(node.get());
  // 001's capacity models over this network, built at the first call (only a
  // gateway controller without given shares asks); with a measured B, once per
  // reading, each distinct data rate measured in its one-hop run (at most once).
  struct Capacities {
    std::shared_ptr<ScenarioCapacity> bianchi;
    std::map<MeasuredBCounts, std::shared_ptr<ScenarioCapacity>> measured;
    std::map<std::optional<double>, OneHopThroughput> one_hop;  // by data rate (empty: the fixed one)
  };
  auto capacities = std::make_shared<Capacities>();
  const auto measured_capacity = [this, capacities](MeasuredBCounts counts) -> const ScenarioCapacity& {
    std::shared_ptr<ScenarioCapacity>& c = capacities->measured[counts];
    if (!c) {
      CapacityOptions options;
      options.measured_mac_capacity_bps = [this, capacities, counts](std::optional<double> rate) {
        auto it = capacities->one_hop.find(rate);
        if (it == capacities->one_hop.end()) {
          it = capacities->one_hop.emplace(rate, measure_one_hop(scenario_, Registries{}, rate)).first;
        }
        return it->second.b(counts);
      };
      c = std::make_shared<ScenarioCapacity>(capacity_problem(scenario_, phy_, routing_, options));
    }
    return *c;
  };
  control_context_->fair_shares = [this, capacities, measured_capacity](
                                      CapacityModel model, const std::vector<bool>& active,
                                      const control::ControlContext::MacCapacityChoice& b) {
    if (b.measured && !b.given_bps) return control::fair_shares(measured_capacity(*b.measured).problem, model, active);
    if (!capacities->bianchi) {
      capacities->bianchi = std::make_shared<ScenarioCapacity>(capacity_problem(scenario_, phy_, routing_));
    }
    if (!b.given_bps) return control::fair_shares(capacities->bianchi->problem, model, active);
    // A given B for every resource (scenario/capacity_problem.hpp's CapacityOptions).
    control::CapacityProblem given = capacities->bianchi->problem;
    given.mac_capacity_bps = *b.given_bps;
    given.link_capacity_bps.clear();
    return control::fair_shares(given, model, active);
  };
  control_context_->measured_mac_capacity_bps = [measured_capacity](MeasuredBCounts counts) {
    return measured_capacity(counts).problem.mac_capacity_bps;
  };
  control_context_->radio_neighbours = [this](std::uint32_t node) {
    std::vector<std::uint32_t> heard;
    for (const phy::RadioId radio : phy_.node_radios.at(node)) {
      for (const phy::Link& link : phy_.medium->neighbours(radio)) {
        heard.push_back(phy_.medium->node_of(link.to));
      }
    }
    std::sort(heard.begin(), heard.end());
    heard.erase(std::unique(heard.begin(), heard.end()), heard.end());
    std::erase(heard, node);
    return heard;
  };
  std::vector<std::pair<std::uint32_t, link::WiredLink*>> wired;  // (node, link)
  for (std::size_t k = 0; k < scenario_.links.size(); ++k) {
    // In the order build_wired_links added them, which is each node's interface order.
    wired.emplace_back(static_cast<std::uint32_t>(scenario_.links[k].a), wired_links_.at(2 * k).get());
    wired.emplace_back(static_cast<std::uint32_t>(scenario_.links[k].b), wired_links_.at(2 * k + 1).get());
  }
  control_context_->wired = FlatLists<link::WiredLink*>::from_pairs(scenario_.nodes.size(), wired);
  const bool edca = scenario_.mac.type == MacType::edca;
  for (std::size_t i = 0; i < scenario_.flows.size(); ++i) {
    const FlowConfig& f = scenario_.flows[i];
    const FlowEnds ends = routing_.flows.at(i);
    const transport::FlowSpec spec =
        transport::flow_spec(f, {static_cast<std::uint32_t>(i), ends.src, ends.dst}, edca, scenario_.simulation.duration);
    control_context_->flows.push_back(
        {.id = f.id,
         .src = ends.src,
         .dst = ends.dst,
         .sends_acks = f.sends_acks,
         .user_priority = spec.user_priority,
         .ack_user_priority = spec.ack_user_priority,
         .fair_share_bps = f.fair_share_bps,
         .packet_per_payload = static_cast<double>(f.payload_bytes + header_bytes_of(f)) /
                               static_cast<double>(std::max<std::int64_t>(f.payload_bytes, 1)),
         .payload_bytes = f.payload_bytes,
         .start = f.start,
         .stop = f.stop});
  }
  for (std::size_t i = 0; i < scenario_.controllers.size(); ++i) {
    controllers_.push_back(registry.create(scenario_.controllers[i], i, *control_context_));
  }
  // Controllers that start at the same instant start together, in list order, and
  // are then told so (Controller::on_started_together): one event per start time.
  // At 0 they act before any frame is queued or any backoff drawn.
  std::map<Time, std::vector<std::size_t>> by_start;
  for (std::size_t i = 0; i < controllers_.size(); ++i) by_start[scenario_.controllers[i].start].push_back(i);
  for (auto& [start, group] : by_start) {
    const auto start_group = [this, group] {
      for (const std::size_t i : group) {
        try {
          controllers_[i]->start();
        } catch (const ScenarioError& e) {
          // A refusal about the network as a whole (the capacity model's size cap)
          // is this controller's: it asked for it.
          std::vector<ValidationIssue> issues = e.issues();
          for (ValidationIssue& issue : issues) {
            if (issue.path.empty()) issue.path = pointer_join("/controllers", i);
          }
          throw ScenarioError(std::move(issues));
        }
      }
      for (const std::size_t i : group) controllers_[i]->started_together();
    };
    if (start == Time{}) {
      start_group();
    } else {
      sim_.scheduler().schedule_at(start, start_group);
    }
  }
  for (std::size_t i = 0; i < controllers_.size(); ++i) {
    control::Controller* c = controllers_[i].get();
    if (const auto& stop = scenario_.controllers[i].stop) sim_.scheduler().schedule_at(*stop, [c] { c->stop(); });
  }
}

std::vector<std::string> Network::route_of(std::size_t flow) const {
  const FlowEnds ends = routing_.flows.at(flow);
  std::vector<std::string> ids;
  if (aodv_) {
    // AODV: the route its tables hold now (valid entries, expired or not), up to
    // where it ends; empty when the source has none.
    std::uint32_t at = ends.src;
    ids.push_back(scenario_.nodes[at].id);
    while (at != ends.dst) {
      const aodv::Route* r = aodv_->route(at, ends.dst);
      if (r == nullptr || !r->valid || ids.size() > scenario_.nodes.size()) return {};
      at = r->next.node;
      ids.push_back(scenario_.nodes[at].id);
    }
    return ids;
  }
  for (std::uint32_t n : routing_.tables.path(ends.src, ends.dst)) ids.push_back(scenario_.nodes[n].id);
  return ids;
}

}  // namespace wmnsim
