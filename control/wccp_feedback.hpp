#pragma once
// The per-node arithmetic of WCCP's in-network half (003 Sec. III-A to III-E), without
// the simulator: what a node measures over one average control interval, the
// feedback it computes at the interval's end, and the per-packet feedback it hands
// out during the next one. control/wccp.hpp drives one of these per node.
//
// Units. Traffic S and its change Delta S are IP bytes (Packet::size_bytes) in the
// interval; the allocation works in bytes/s (Eq. 8: C_p = Delta S / (T_c J)); a
// packet's feedback is turned into the packets/s of the sender's permit rate r_p by
// dividing by the packet's own size (003 leaves the conversion implicit; its flows
// send one payload size).
//
// Observations. A packet a node originates or delivers is seen once, one it forwards
// twice (in and out: Sec. III-D, "packets passing through node i ... are calculated
// twice"): `weight` 1 or 2 in S, J (Eq. 7), K (Eq. 12) and T_c's average (Eq. 16-17).
// A packet gets the node's feedback once, and its `weight` times its feedback comes
// off the interval's budget, because a forwarded flow's rate change costs the
// channel twice.
//
// Interval end (end_interval), with r_b the busy fraction of the interval just ended:
//   Delta S = (th_b - r_b) / r_b * S                                   Eq. 5
//   shuffling, when |Delta S| < alpha (S + Delta S):                   Eq. 13
//     0 < Delta S:  Delta S+ = alpha (S + Delta S), Delta S- = Delta S - Delta S+
//     0 > Delta S:  Delta S- = -alpha (S + Delta S), Delta S+ = Delta S - Delta S-
//   otherwise Delta S+ = max(Delta S, 0), Delta S- = min(Delta S, 0);
//   J = sum_k w_k / (r_pk d), d the interval's length                  Eq. 7
//   C_p = Delta S+ / (d J),  C_n = Delta S- / K                        Eq. 8, 12
//   T_c,new = sum_k w_k T_ck / r_pk / sum_k w_k / r_pk                 Eq. 17
// Per packet during the next interval (of length T = T_c,new):
//   pf+ = C_p / (r_pk T),  pf- = C_n / T                               Eq. 9, 10
// each taken from its law's budget (Delta S+ / d and Delta S- / d bytes/s, at
// `weight` times the feedback per packet); once a budget is spent its part of the
// feedback is zero until the next interval (Sec. III-D: "when the aggregate
// feedback of previously passing packets is equal to Delta S, the node sets local
// feedback value as zero"). 003 states the rule for the aggregate; with both laws
// active (shuffling) a single aggregate would stop at once, so each law keeps its
// own budget.
//
// Packets with r_p = 0 (a sender's first packet, Sec. III-E: no RTT estimate yet)
// count in S only, and get no feedback (infinity: fb is left as it is).
// Conventions where 003 is silent: an interval with r_b = 0 (nothing sensed) or
// without rate-carrying packets gives Delta S = 0; the first interval lasts
// initial_control_interval; T_c never goes below min_control_interval (1 ms, a
// guard against a zero-length timer, not a scenario key: 003 has no such parameter).

#include <cstdint>
#include <limits>

#include "core/packet.hpp"
#include "core/time.hpp"

namespace wmnsim::control {

// The defaults are the `wccp` controller's (WccpControllerParams takes them from here).
struct WccpFeedbackParams {
  double busyness_threshold = 0.92;  // th_b, Sec. III-A
  double alpha = 0.1;                // Sec. III-D, Eq. 13
  // The first average control interval, before any packet has told the node its
  // senders' intervals (Eq. 17). 003 gives none; ours: 0.1 s, the order of the
  // 9-node chain's RTT (003 Sec. IV-A: 0.12 s).
  Time initial_control_interval = Time::ms(100);
  Time min_control_interval = Time::ms(1);
};

// What one interval's end computed (for statistics and tests).
struct WccpInterval {
  double busy_ratio = 0.0;     // r_b
  double traffic_bytes = 0.0;  // S
  double delta_bytes = 0.0;    // Delta S
  double increase_bytes = 0.0;  // Delta S+
  double decrease_bytes = 0.0;  // Delta S- (<= 0)
  double flows = 0.0;          // J
  double observations = 0.0;   // K (weighted)
  double increase_per_flow_bps = 0.0;  // C_p, bytes/s
  double decrease_constant = 0.0;      // C_n, bytes
  Time length;                 // d
  Time next_length;            // T_c,new
};

class WccpFeedback {
 public:
  static constexpr double kNoFeedback = std::numeric_limits<double>::infinity();

  explicit WccpFeedback(const WccpFeedbackParams& params);

  // One packet seen by the node in the current interval (weight 1 or 2).
  void observe(const CongestionHeader& header, std::uint32_t size_bytes, int weight);
  // The node's feedback for this packet now, in packets/s of the sender's rate
  // (kNoFeedback for r_p = 0), taken from the budget of the current interval.
  double feedback(const CongestionHeader& header, std::uint32_t size_bytes, int weight);
  // Ends the interval that lasted `length` with busy fraction `busy_ratio`, and
  // starts the next one (of control_interval()). Returns last(), valid until the
  // next call.
  const WccpInterval& end_interval(double busy_ratio, Time length);

  // The average control interval in force: the next interval's length.
  Time control_interval() const { return control_interval_; }
  const WccpInterval& last() const { return last_; }
  std::uint64_t intervals() const { return intervals_; }

 private:
  WccpFeedbackParams params_;
  Time control_interval_;
  WccpInterval last_;
  std::uint64_t intervals_ = 0;
  // Sums of the interval in progress.
  double traffic_bytes_ = 0.0;
  double inverse_rates_ = 0.0;      // sum w / r_p
  double weighted_intervals_ = 0.0;  // sum w T_c / r_p
  double observations_ = 0.0;       // K
  // The feedback in force (from the last interval's end) and what is left of it.
  double increase_per_flow_ = 0.0;  // C_p, bytes/s
  double decrease_constant_ = 0.0;  // C_n, bytes
  double increase_left_ = 0.0;      // bytes/s
  double decrease_left_ = 0.0;      // bytes/s, <= 0
};

}  // namespace wmnsim::control
