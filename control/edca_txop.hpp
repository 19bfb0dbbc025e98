#pragma once
// 002 Sec. IV, TXOP = number of flows: "at each station we choose TXOP equal to n_1^i
// for TCP traffic transmitted by radio i", so that a radio relaying n flows sends n
// frames per channel access and each flow gets about one access's worth of frames,
// whichever station it crosses. Per radio of the chosen nodes, on the TCP data
// category (AC_BE):
//  - the flows the radio sends are counted: a flow is a transport flow in one
//    direction (five_tuple: a TCP flow's ACK stream is a flow of its own, counted
//    where the ACKs share the data category) or all one source node sends
//    (source_node); only packets the MAC would put in that category count;
//  - static (dynamic false): from the routes, every scenario flow, once every
//    controller starting at the same instant has started (so edca_ack_priority's
//    ACK rule counts whatever the list order; one that starts later is not seen);
//    dynamic (Sec. IV-B): from the packets the radio's node originates or forwards,
//    a flow ending when silent for flow_idle_timeout (noticed within 1.5 timeouts);
//    a new flow raises the TXOP at its first packet;
//  - n is the sum of the flows' weights (Sec. V; default 1), rounded, at least 1;
//    for n >= 2, TXOP = n frames (flows), or TXOP = ceil(n / 2) frames with CWmin
//    halved (half_txop_half_cw, Sec. IV-A: CWmin moves only in powers of two; an
//    odd n rounds the TXOP up, so 3 flows get 2 frames at twice the access rate);
//  - a radio that sends one counted flow or none keeps its own TXOP and CWmin.
// Only the TXOP (and, halving, CWmin) are the controller's: the AIFSN
// edca_ack_priority raises and a CWmin another policy sets stay. At stop every radio
// gets its own TXOP (and CWmin, halving) back.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "control/controller.hpp"
#include "control/edca_policy_params.hpp"

namespace wmnsim::control {

class EdcaTxop final : public Controller, private NodeSubscriber {
 public:
  EdcaTxop(const ControllerConfig& config, ControlContext& context);

  void start() override;
  // Each radio's TXOP limit in force, to a trace attached now (ControllerAction::txop).
  void report_state() override;
  nlohmann::ordered_json statistics() const override;

  // The parameters a radio gets for a weighted flow count (see above), from its own.
  static EdcaParams scaled(const EdcaParams& own, double flows, TxopScaling scaling);

  struct RadioState {
    std::size_t node = 0;
    std::size_t radio = 0;
    mac::Mac* mac = nullptr;
    EdcaParams own;       // before the controller
    double flows = 0;     // the weighted count in force
    std::uint64_t changes = 0;
    struct Seen {
      Time last;  // its last packet (static: the start)
      double weight = 1;
    };
    std::unordered_map<std::uint64_t, Seen> seen;  // by flow key
  };
  struct Change {
    Time at;
    std::size_t state = 0;  // index into radios()
    double flows = 0;
    EdcaParams params;
  };
  const std::vector<RadioState>& radios() const { return radios_; }
  const std::vector<Change>& changes() const { return changes_; }

 private:
  void on_stop() override;
  void on_started_together() override;
  void on_originated(std::uint32_t node, Packet& packet) override;
  void on_forwarded(std::uint32_t node, Packet& packet, const PrevHop& from, const NextHop& to) override;

  // The state of the radio behind a node's routing interface, or nullptr (a wire,
  // or a node the controller does not act on).
  // Tells the observer of decisions (the event trace) the radio's TXOP limit in frames.
  void tell_txop(const RadioState& s);
  RadioState* state_of(std::uint32_t node, std::uint32_t interface);
  std::uint64_t key_of(const Packet& packet) const;
  double weight_of(const Packet& packet) const;
  void count_static();
  void on_packet(std::uint32_t node, std::uint32_t interface, const Packet& packet);
  void sweep();
  // Recounts s's live flows and applies the parameters they call for.
  void apply(RadioState& s);

  const EdcaTxopParams& params_;
  std::vector<RadioState> radios_;
  std::vector<std::vector<int>> index_;  // [node][radio] -> index into radios_, -1 if none
  std::vector<Change> changes_;
  std::uint64_t changes_not_listed_ = 0;
};

}  // namespace wmnsim::control
