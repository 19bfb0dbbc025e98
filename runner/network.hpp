#pragma once
// A scenario's network, built from every layer: the PHY (radios, propagation), one
// MAC per radio, the routing tables, one network-layer Node per scenario node with
// its interfaces (MACs, wired links), and each flow's endpoints. Owns all of it, in
// an order that lets the packet pool outlive every holder of a packet.
//
// The data path (DESIGN.md): endpoint -> Node -> interface (MAC or wired link) ->
// ... -> Node -> endpoint. Every drop on a node is recorded by the PacketLedger.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "control/controller.hpp"
#include "control/controller_registry.hpp"
#include "core/node.hpp"
#include "core/packet.hpp"
#include "core/packet_ledger.hpp"
#include "core/aodv.hpp"
#include "core/routing.hpp"
#include "core/sample_budget.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"
#include "link/wired_link.hpp"
#include "mac/mac_interface.hpp"
#include "scenario/mac_builder.hpp"
#include "scenario/phy_builder.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/measurement_window.hpp"

namespace wmnsim {

class Network {
 public:
  // Own packets a saturated UDP source keeps waiting in its node's queues.
  static constexpr int kSaturatedBacklog = 2;

  // Builds everything and schedules the endpoints' start events. Throws
  // ScenarioError (routing: unreachable flows, bad static tables) and
  // NotSupportedError (features no layer implements yet).
  // `sample_budget`: the samples the time series and the controllers' histories
  // may hold together (core/sample_budget.hpp); tests lower it.
  Network(Simulation& sim, const Scenario& scenario,
          const control::ControllerRegistry& registry = control::ControllerRegistry::with_builtins(),
          double sample_budget = kMaxTimeseriesSamples);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  const Scenario& scenario() const { return scenario_; }
  Simulation& simulation() { return sim_; }
  transport::MeasurementWindow window() const { return window_; }
  PacketPool& pool() { return pool_; }
  const PacketLedger& ledger() const { return ledger_; }
  const Routing& routing() const { return routing_; }
  const phy::PhyNetwork& phy() const { return phy_; }
  const mac::MacNetwork& macs() const { return macs_; }
  Node& node(std::size_t i) { return *nodes_.at(i); }
  const Node& node(std::size_t i) const { return *nodes_.at(i); }
  // Both ends of flow i (Scenario::flows order), whatever its transport.
  const transport::FlowEndpoint& flow(std::size_t i) const { return *flows_.at(i); }
  transport::FlowEndpoint& flow(std::size_t i) { return *flows_.at(i); }
  // Direction `d` (0: nodes[0] -> nodes[1], 1: back) of Scenario::links[k].
  const link::WiredLink& wired_link(std::size_t k, std::size_t d) const { return *wired_links_.at(2 * k + d); }
  link::WiredLink& wired_link(std::size_t k, std::size_t d) { return *wired_links_.at(2 * k + d); }
  // The node ids a flow's data crosses, src to dst.
  std::vector<std::string> route_of(std::size_t flow) const;
  // The AODV agent of an "aodv" routing section (core/aodv.hpp); null under static tables.
  const aodv::Aodv* aodv() const { return aodv_.get(); }
  // The routing protocol's route changes and the controllers' actions go to
  // `observer` (the event trace) from now on; null: to nobody.
  void observe_decisions(DecisionObserver* observer);
  // The scenario's controllers, in /controllers order.
  std::size_t controller_count() const { return controllers_.size(); }
  const control::Controller& controller(std::size_t i) const { return *controllers_.at(i); }
  // The end-of-run balance of every packet (PacketLedger::balance).
  Conservation conservation() const { return ledger_.balance(pool_); }

  // Wall-clock seconds the constructor spent per phase (bench/bench_network --scale).
  struct SetupTimes {
    double phy_s = 0.0;            // phy::build_phy: radios, propagation, neighbours
    double routing_links_s = 0.0;  // routing_links: the links routing may use, with their costs
    double routing_s = 0.0;        // compute_routing: tables, "@gateway", reachability checks
    double layers_s = 0.0;         // nodes, MACs, wired links, flows, controllers
  };
  const SetupTimes& setup_times() const { return setup_times_; }

 private:
  void build_nodes();
  void build_wired_links();
  void build_routing_agent();
  void build_flows();
  void build_controllers(const control::ControllerRegistry& registry);

  Simulation& sim_;
  const Scenario& scenario_;
  transport::MeasurementWindow window_;
  SetupTimes setup_times_;  // before phy_ and routing_: their initializers fill it
  // Declared first: destroyed last, after everything that may hold a packet.
  PacketPool pool_;
  phy::PhyNetwork phy_;
  Routing routing_;
  PacketLedger ledger_;
  NodeContext node_context_;  // what every node refers to (after what it names)
  std::vector<std::unique_ptr<Node>> nodes_;
  mac::MacNetwork macs_;
  // In place, one per radio (a deque: they never move, and each is 40 B, less
  // than a heap block and its pointer).
  std::deque<mac::MacInterface> mac_interfaces_;
  std::vector<std::unique_ptr<link::WiredLink>> wired_links_;  // two per scenario link: a->b, b->a
  std::vector<std::unique_ptr<link::WiredInterface>> wired_interfaces_;
  // After the nodes it attaches to and the interfaces it sends through: destroyed
  // before them (it detaches), and before the pool (it holds packets).
  std::unique_ptr<aodv::Aodv> aodv_;
  std::vector<std::unique_ptr<transport::FlowEndpoint>> flows_;
  // The time series' samples and the controllers' histories, one budget (Limits).
  SampleBudget samples_{kMaxTimeseriesSamples};
  std::unique_ptr<control::ControlContext> control_context_;
  std::vector<std::unique_ptr<control::Controller>> controllers_;
};

}  // namespace wmnsim
