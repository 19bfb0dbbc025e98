#pragma once
// 001 Sec. 4-5: queueing and rate control at one gateway, as a controller. At its
// start it installs the scheme's queue discipline on every radio of the gateway
// and on its outgoing wired links (link/: drop_tail, fq, fred, token_bucket over a
// FIFO or fq, per_class_token_bucket); for source_rate_limit a SourcePacer on each
// source node's radios instead, the gateway untouched unless flows start there or
// beyond it. From then on it keeps the shapers' rates at the fair shares of the
// classes that are active (flows, or subscribers: 001 Sec. 4.3.2).
//
// Fair shares are goodput rates (001's, and B's in the capacity model); the shapers
// count whole IP packets, so their token rates are the shares times a data
// packet's size over its payload. The shares: `fair_rate_bps` per class, or the
// flows' `fair_share_bps` from the scenario summed per class, or else 001's capacity
// model (`capacity_model`, control/capacity_model.hpp) over the classes active at
// the time, each class one stream along the route of its first active flow, with B
// Bianchi's, measured in a one-hop run (`mac_capacity: "measured"`, per link rate
// with "auto" rates; `measured_b_counts`: the flow's goodput or the MAC's
// throughput with the TCP ACKs) or given (`mac_capacity_bps`). The aggregate limit
// is the sum of the active classes' shares (001 Sec. 5.3: "the interface aggregate
// rate limit is then simply the sum of the fair rates of constituent flows").
//
// Which classes are active (`share_mode`):
//  - offline (001 App. A: the rates "computed off-line"): the classes with a flow
//    the scenario declares sending (start_s <= t < stop_s). Every share is computed
//    when the controller starts, once per interval between the scenario's starts
//    and stops, and applied as each begins; a class not yet (or no longer) active
//    holds the share of its next active interval, so that its first packet finds it.
//    Traffic changes nothing.
//  - activity (001 Sec. 5.3.3, "the presence or absence of packets"): a class turns
//    active with its first packet at the gateway (into the mesh, or out of it:
//    delivered or forwarded) and inactive once none has passed for
//    `flow_idle_timeout_s`, or for `flow_idle_timeout_intervals` of its packet
//    intervals at its share (a class with no bounded share: the fixed timeout);
//    the rates are then recomputed. The controller looks
//    every timeout / 4 (the smallest class's, with intervals), so a silent class is
//    found between 1 and 1.25 timeouts after its last packet.
//
// It reports, per class: its flows, its share now, packets and bytes the gateway
// sends on, into its radio or wired queues (data and ACKs; data alone, for 001 Fig. 4's arrival
// rate), drops at the gateway by cause (under FRED also split by FRED's rule: its
// per-flow cap, its early RED drops, a full buffer; 001 Sec. 5.2), and each report
// interval's data arrival rate into the gateway queue.
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "control/controller.hpp"
#include "control/gateway_rate_control_params.hpp"
#include "link/packet_classifier.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim::link {
class AggregateShaper;
class FredQueue;
class PerClassShaper;
class SourcePacer;
class QueueDiscipline;
}  // namespace wmnsim::link

namespace wmnsim::control {

class GatewayRateControl final : public Controller, private NodeSubscriber {
 public:
  GatewayRateControl(const ControllerConfig& config, ControlContext& context);
  ~GatewayRateControl() override;
  void start() override;
  nlohmann::ordered_json statistics() const override;

  struct ClassState {
    std::string name;                 // the subscriber's node id, or the flow's id
    std::vector<std::uint32_t> flows;  // scenario flow indices
    double share_bps = 0.0;           // its fair share while active
    bool active = false;
    Time last_seen;
    std::uint64_t packets = 0, bytes = 0, data_packets = 0, data_bytes = 0;
    std::map<std::string, std::uint64_t> drops;  // at the gateway, by cause
    std::vector<double> data_rate_bps;           // per report interval
    std::vector<double> share_series_bps;        // its share at each report (0 while inactive)
    std::uint64_t data_bytes_at_report = 0;
    double told_bps = -1.0;  // the token rate last told to the observer of decisions
  };
  const std::map<std::uint32_t, ClassState>& classes() const { return classes_; }
  void report_state() override;
  // The rate now: the aggregate (aggregate schemes) or 0.
  double aggregate_rate_bps() const { return aggregate_rate_bps_; }

 private:
  void on_originated(std::uint32_t node, Packet& packet) override;
  void on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) override;
  void on_delivered(std::uint32_t node, Packet& packet, const PrevHop& from) override;
  void on_dropped(std::uint32_t node, const Packet& packet, DropCause cause) override;
  // Any packet of a class at the gateway marks it active; `into_queue`: the
  // gateway sends it on (counted) rather than delivering it.
  void seen(const Packet& packet, bool into_queue);
  void look_for_idle();
  // share_mode offline: the activity the scenario declares at each of its changes,
  // and the shares then (computed at start), applied in turn.
  void plan_declared_shares();
  void apply_declared(std::size_t epoch);
  // share_mode activity: how long class `c` may stay silent, and the next look.
  Time idle_timeout(const ClassState& c) const;
  void arm_idle_check();
  void on_stop() override;
  void report();
  void apply_rates();
  // Tells the observer of decisions the shaping rates that changed since it was
  // last told (all: every one).
  void tell_rates(bool all);
  void model_shares();
  // B for the capacity model: given, measured (read as measured_b_counts says), or Bianchi's.
  ControlContext::MacCapacityChoice model_mac_capacity();
  // A class's share as a rate of whole IP packets (its first flow's packet size
  // over payload), bounded by the token bucket's largest rate.
  double token_rate(const ClassState& c) const;
  std::unique_ptr<link::QueueDiscipline> make_queue();
  // source_rate_limit: the classes whose flows start at `node` (a flow from a host
  // counts at the gateway), and the pacers on the node's radios.
  std::vector<std::uint32_t> paced_at(std::uint32_t node) const;
  std::unique_ptr<link::QueueDiscipline> make_pacer(link::QueueLimit fifo, DropSink& drops);
  void install_source_pacers();

  struct FlowActivity {
    bool active = false;
    Time last_seen;
  };
  // share_mode offline: from `at` on, the classes active and their shares.
  struct DeclaredEpoch {
    Time at;
    std::vector<bool> flows_active;        // by scenario flow index
    std::map<std::uint32_t, double> shares;  // the active classes'
  };
  const GatewayRateControlParams& params_;
  std::vector<FlowActivity> flows_;  // by scenario flow index
  std::vector<std::optional<std::uint32_t>> class_of_flow_;  // by scenario flow index; empty: no class
  std::vector<DeclaredEpoch> epochs_;
  EventId epoch_event_;       // the next declared change
  EventId idle_event_;        // share_mode activity with intervals: the next look
  bool idle_check_armed_ = false;
  std::optional<double> mac_capacity_bps_;  // B measured (the fastest link rate's with "auto"); empty: not measured
  std::uint32_t gateway_ = 0;
  std::span<mac::Mac* const> macs_;  // the gateway's (ControlContext::macs)
  link::PacketClassifier classifier_;
  std::map<std::uint32_t, ClassState> classes_;  // by class id: node index or flow index
  std::vector<link::AggregateShaper*> aggregate_shapers_;
  std::vector<link::PerClassShaper*> class_shapers_;
  std::vector<link::SourcePacer*> pacers_;
  std::vector<const link::FredQueue*> fred_queues_;  // scheme fred: for the drops' split
  double told_aggregate_bps_ = -1.0;  // the aggregate rate last told to the observer of decisions
  std::vector<std::vector<std::uint32_t>> pacer_classes_;  // the classes each pacer paces
  std::uint32_t pacer_node_ = 0;                           // the node make_pacer builds for
  int queues_built_ = 0;
  bool from_model_ = false;  // shares from context().fair_shares (the capacity model)
  double aggregate_rate_bps_ = 0.0;
  std::uint64_t activity_changes_ = 0;  // classes turned active or inactive
  std::vector<double> aggregate_series_bps_;  // per report interval, at its end
};

// Its registry entry's factory (control/gateway_rate_control_params.cpp).
std::unique_ptr<Controller> make_gateway_rate_control(const ControllerConfig& config, ControlContext& context);

}  // namespace wmnsim::control
