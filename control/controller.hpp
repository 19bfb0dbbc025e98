#pragma once
// A controller: a policy that watches a running network and turns its knobs
// (DESIGN.md: MAC parameters such as CWmin, AIFS and TXOP, queue disciplines,
// control frames). A scenario lists the controllers it wants under `controllers`
// (docs/scenario.md); the registry (control/controller_registry.hpp) builds each by
// its type name, and the runner starts and stops it at the configured times.
//
// A controller sees the network only through ControlContext: the routing, the
// nodes and their MACs (each Mac's runtime-control methods: set_cw_min,
// set_params, set_queue, send_management, ...). It hears of packets through the
// node signals (subscribe(): originated, forwarded, delivered, dropped,
// core/node_signals.hpp) and of management frames its node's MACs receive
// (subscribe_management(), core/management_body.hpp). It keeps its own
// statistics, which end up in the results under "controllers" (docs/results.md).

#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decision_observer.hpp"
#include "core/flat_lists.hpp"
#include "core/node.hpp"
#include "core/routing.hpp"
#include "core/sample_budget.hpp"
#include "control/controller_config.hpp"
#include "control/gateway_rate_control_params.hpp"
#include "core/topology.hpp"
#include "core/simulation.hpp"
#include "link/wired_link.hpp"
#include "mac/mac.hpp"

namespace wmnsim::control {

// The part of a running network a controller may see and act on. Built by the
// runner once every layer exists; outlives every controller.
struct ControlContext {
  // Each node's id (for statistics) and role, by scenario node index.
  struct NodeInfo {
    std::string id;
    NodeRole role = NodeRole::mesh;
  };

  // Each scenario flow: its id, its ends (node indices, after "@gateway" is
  // resolved), whether ACKs come back, and the user priorities its transport tags
  // data and ACKs with (none: the MAC's classifier decides).
  struct FlowInfo {
    std::string id;
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    bool sends_acks = false;
    std::optional<std::uint8_t> user_priority;
    std::optional<std::uint8_t> ack_user_priority;
    std::optional<double> fair_share_bps;  // the scenario's `fair_share_bps`, if given
    // A data packet's size over its payload: a goodput rate times this is the rate
    // of whole IP packets that carries it (a shaper counts packets).
    double packet_per_payload = 1.0;
    std::int64_t payload_bytes = 0;  // of a data packet
    // When the scenario declares it sending: start <= t < stop (empty: to the end).
    Time start;
    std::optional<Time> stop;
  };

  Simulation& sim;
  const Routing& routing;
  std::vector<NodeInfo> node_info;
  std::vector<Node*> nodes;                  // by scenario node index
  // By scenario node index, in radio order; empty for hosts. The network's own
  // lists (mac::MacNetwork::node_macs), not a copy: they outlive the controllers.
  const FlatLists<mac::Mac*>& macs;
  // By scenario node index: the wired links it sends on, in interface order (after
  // its radios: RoutingLink numbering); a controller may replace their queues.
  FlatLists<link::WiredLink*> wired;
  std::vector<FlowInfo> flows;               // by scenario flow index
  // Where the capacity model's B comes from, for fair_shares.
  struct MacCapacityChoice {
    std::optional<double> given_bps;  // a given B for every resource
    std::optional<MeasuredBCounts> measured;  // else measured, read so; else Bianchi's
  };
  // 001's capacity models (control/capacity_model.hpp) over this network: each
  // flow's max-min fair share (bit/s; 0 for the inactive), by flow index, with B as
  // `b` chooses. Empty where the runner offers none.
  std::function<std::vector<double>(CapacityModel model, const std::vector<bool>& active, const MacCapacityChoice& b)>
      fair_shares;
  // B measured in a one-hop network on this scenario's PHY and MAC, one saturated
  // flow (runner/one_hop_capacity.hpp; 001 App. A.2 describes B only as "the
  // throughput that can be achieved at the MAC layer"), read as `counts` says: at
  // the fixed data rate, or with "auto" rates the fastest link rate's (each link's
  // B in fair_shares is its own rate's). Empty where the runner offers none.
  std::function<double(MeasuredBCounts counts)> measured_mac_capacity_bps;
  // The nodes with a radio that hears one of `node`'s radios (the medium's links,
  // which every radio hop of the routing is one of), ascending, `node` left out.
  // Lets a policy look at a node's neighbours without asking the routing for a
  // route to every node (a column per destination: nodes x nodes). Null where the
  // runner offers none (unit tests): then every node is a candidate.
  std::function<std::vector<std::uint32_t>(std::uint32_t node)> radio_neighbours;
  // Told of the controllers' actions (the event trace's "controller" records); null: nobody.
  DecisionObserver* decisions = nullptr;
  // The run's budget of stored samples, shared with the time series
  // (core/sample_budget.hpp); null: histories are not bounded (unit tests).
  SampleBudget* samples = nullptr;

  // The index of the node with this id.
  std::optional<std::size_t> find_node(std::string_view id) const {
    for (std::size_t i = 0; i < node_info.size(); ++i) {
      if (node_info[i].id == id) return i;
    }
    return std::nullopt;
  }
};

class Controller {
 public:
  Controller(const ControllerConfig& config, ControlContext& context) : config_(config), context_(context) {}
  virtual ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  const ControllerConfig& config() const { return config_; }
  const std::string& id() const { return config_.id; }

  // At config().start: take effect. At config().stop (if given): stop acting and
  // undo what should not outlive the controller. stop() cancels the timers first.
  virtual void start() = 0;
  void stop();
  // After start(), once every controller starting at the same instant has started
  // (the runner calls it; not after stop()). For a policy that reads what others set
  // up at their start, whatever the list order: edca_txop's static flow count reads
  // the MAC classifiers that edca_ack_priority sets.
  void started_together() {
    if (!stopped_) on_started_together();
  }
  // An observer of decisions (the event trace) was just attached: tell it the state
  // a trace that starts now begins from (a controller that started at 0 acted while
  // the network was built, before any trace existed). Default: nothing to tell.
  virtual void report_state() {}

  // What the controller did, as one JSON object (numbers, lists, per-node rows).
  virtual nlohmann::ordered_json statistics() const = 0;
  // Whether a history in statistics() stopped growing at the run's sample budget.
  bool history_cut() const { return history_cut_; }

 protected:
  ControlContext& context() { return context_; }
  const ControlContext& context() const { return context_; }
  Simulation& sim() { return context_.sim; }

  // Whether a history may keep `samples` more entries (one per value stored): true,
  // and taken from the run's budget, unless the budget is spent; then the history
  // stops growing (history_cut()). Call before each append to a history the
  // statistics hold.
  bool keep(double samples = 1.0) {
    if (context_.samples == nullptr || context_.samples->take(samples)) return true;
    history_cut_ = true;
    return false;
  }
  // Tells the observer of decisions (the event trace), if any, of an action.
  void tell(const ControllerDecision& decision) const {
    if (context_.decisions != nullptr) context_.decisions->on_controller(decision);
  }
  // Calls `tick` every `period` from now + period until stop(). Returns its index.
  std::size_t every(Time period, std::function<void()> tick);
  // Undo hook for stop(); timers are already cancelled when it runs.
  virtual void on_stop() {}
  // See started_together().
  virtual void on_started_together() {}

  // Subscribes `subscriber` (usually the controller itself) to the signals of
  // context().nodes[node], in the order of the calls, until stop() or the
  // controller's end (not from inside a signal: core/node_signals.hpp).
  void subscribe(std::uint32_t node, NodeSubscriber& subscriber);
  // The same for management frames of `category` received by the node's MACs.
  void subscribe_management(std::uint32_t node, std::uint8_t category, ManagementHandler& handler);

 private:
  struct Timer {
    Time period;
    std::function<void()> tick;
    EventId next;
  };
  void fire(std::size_t timer);
  void unsubscribe_all();

  const ControllerConfig& config_;
  ControlContext& context_;
  std::deque<Timer> timers_;  // a deque: a tick may add a timer without moving the running one
  std::vector<std::pair<Node*, NodeSubscriber*>> subscriptions_;
  std::vector<std::pair<Node*, ManagementHandler*>> management_subscriptions_;
  bool stopped_ = false;
  bool history_cut_ = false;
};

}  // namespace wmnsim::control
