#pragma once
// 003 Sec. III, WCCP's in-network half: at every node of a WCCP flow's path, the
// sender and the receiver included, measure the channel busyness ratio over the
// node's average control interval and hand each passing WCCP data packet the node's
// share of the available bandwidth, lowering the packet's feedback field fb to it
// when it is smaller ("If pf_k < fb, the node will set fb field ... with the value
// of pf_k", Sec. III-E). The arithmetic is control/wccp_feedback.hpp's.
//
// Where it looks: the node signals (core/node_signals.hpp). A packet the node
// originates or delivers is seen once, one it forwards twice (Sec. III-D). Only
// packets with a congestion header count (WCCP data; ACKs carry a copy, which no
// node edits), in S too: other traffic shows only through the busyness it causes.
// Busyness (Sec. III-B): the MAC's busy time (transmitting, receiving or sensing,
// NAV set: mac::Mac::channel_busy_time; with busy_time "ns2", as ns-2's MAC counts
// it: mac::Mac::ns2_busy_time) over the interval; a node with several
// radios takes its busiest (003 has one). Nodes without a radio are not acted on.
// Each node's timer runs on its own average control interval (Eq. 17).

#include <cstdint>
#include <span>
#include <vector>

#include "control/controller.hpp"
#include "control/wccp_feedback.hpp"
#include "control/wccp_params.hpp"

namespace wmnsim::control {

class Wccp final : public Controller, private NodeSubscriber {
 public:
  Wccp(const ControllerConfig& config, ControlContext& context);
  ~Wccp() override;

  void start() override;
  nlohmann::ordered_json statistics() const override;

  struct NodeState {
    std::uint32_t node = 0;
    std::span<mac::Mac* const> macs;  // the node's (ControlContext::macs)
    std::vector<Time> busy_at_start;  // per MAC, when the interval began
    Time interval_start;
    WccpFeedback feedback;
    EventId timer;
    // Statistics.
    double busy_ratio_sum = 0.0;
    double busy_ratio_max = 0.0;
    std::uint64_t packets = 0;     // WCCP data packets seen
    std::uint64_t lowered = 0;     // of which fb was lowered here
    std::uint64_t saturated_intervals = 0;  // r_b >= th_b
  };
  const std::vector<NodeState>& nodes() const { return nodes_; }

 private:
  void on_stop() override;
  void on_originated(std::uint32_t node, Packet& packet) override;
  void on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) override;
  void on_delivered(std::uint32_t node, Packet& packet, const PrevHop& from) override;

  void on_packet(std::uint32_t node, Packet& packet, int weight);
  void end_interval(NodeState& s);
  NodeState* state_of(std::uint32_t node);
  Time busy_time(const mac::Mac& mac) const;

  const WccpControllerParams& params_;
  std::vector<NodeState> nodes_;
  std::vector<std::int32_t> index_;  // node index -> nodes_ index, -1: not acted on
};

}  // namespace wmnsim::control
