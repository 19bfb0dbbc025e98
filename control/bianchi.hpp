#pragma once
// Bianchi's saturation model of the 802.11 DCF, with the finite retry limit.
//
// G. Bianchi, "Performance Analysis of the IEEE 802.11 Distributed Coordination
// Function", IEEE JSAC 18(3), 2000. n stations, each always backlogged, in one
// collision domain without errors, hidden nodes or capture. Each transmission
// collides with a constant probability p, independent of the station's history.
// Backoff stage i (i = 0 after a success) draws uniformly in [0, W_i - 1] with
// W_i = 2^i W up to stage m, and W = CWmin as a window size (edca_params.hpp).
//   tau = 2 (1 - 2p) / ((1 - 2p)(W + 1) + p W (1 - (2p)^m))        Eq. (7)
//   p   = 1 - (1 - tau)^(n - 1)                                     Eq. (9)
//   P_tr = 1 - (1 - tau)^n,  P_s = n tau (1 - tau)^(n - 1) / P_tr
//   S = P_s P_tr E[P] / ((1 - P_tr) sigma + P_tr P_s T_s + P_tr (1 - P_s) T_c)
// with (Section IV) basic access
//   T_s = H + E[P] + SIFS + d + ACK + DIFS + d,   T_c = H + E[P] + DIFS + d
// and RTS/CTS
//   T_s = RTS + SIFS + d + CTS + SIFS + d + H + E[P] + SIFS + d + ACK + DIFS + d,
//   T_c = RTS + DIFS + d,
// H + E[P] being the whole data PPDU and d the propagation delay.
//
// Finite retry limit (H. Wu, Y. Peng, K. Long, S. Cheng, J. Ma, "Performance of
// reliable transport protocol over IEEE 802.11 wireless LAN: analysis and
// enhancement", INFOCOM 2002): the chain has stages 0..m, where m is the retry
// limit (retransmissions), and the window doubles only up to stage m':
// W_i = 2^min(i, m') W. A collision at stage m drops the frame and returns to
// stage 0. With b_{i,0} = p^i b_{0,0} and the normalisation
//   sum_{i=0..m} b_{i,0} (W_i + 1) / 2 = 1,
//   tau = sum_{i=0..m} b_{i,0} = b_{0,0} (1 - p^(m+1)) / (1 - p),
//   b_{0,0} = 2(1-2p)(1-p) / (W (1 - (2p)^(m+1)) (1-p) + (1-2p)(1 - p^(m+1)))       m <= m'
//   b_{0,0} = 2(1-2p)(1-p) / (W (1 - (2p)^(m'+1)) (1-p) + (1-2p)(1 - p^(m+1))
//                            + W 2^m' p^(m'+1) (1-2p)(1 - p^(m-m')))                 m > m'
// (the closed forms are what the chain gives; the code evaluates the sums, which
// are the same expressions without the removable singularity at p = 1/2). A frame
// is dropped with probability p^(m+1); the throughput formula is unchanged. As m
// grows the finite chain tends to Bianchi's with m = m'.
//
// Which retry limit: a frame is dropped when its short retry count reaches
// dot11ShortRetryLimit (IEEE 802.11-2012 9.3.4.4), i.e. after that many attempts,
// so m = short_retry_limit - 1 (7 attempts: m = 6). With RTS/CTS only RTS frames
// collide in this model, and they count against the same short limit.
//
// Backoff decrement. Bianchi's chain moves one step per "slot", where a slot is an
// idle aSlotTime or a whole busy period: every station not transmitting decrements
// its counter in the slot of someone else's transmission too. The standard
// decrements only at the end of an IDLE backoff slot and freezes the counter while
// the medium is busy (IEEE 802.11-2012 9.3.4.3), so after a busy period the stations
// resume with the value they froze; in saturation the first slot after a success
// can only be taken by the station that just succeeded and drew 0 (I. Tinnirello,
// G. Bianchi, Y. Xiao, "Refinements on IEEE 802.11 DCF modeling approaches", IEEE
// TVT 59(3), 2010). The model therefore runs slightly ahead of a standard MAC; the
// difference is about one slot per busy period, small against W/2. The model here is
// Bianchi's as published; wmnsim's DCF follows the standard.

#include <cstdint>
#include <optional>

#include "core/time.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::control {

// The backoff process of one station, in the model's terms.
struct BackoffChain {
  int w = 32;         // W: first window size; the backoff is uniform in [0, W - 1]
  int max_stage = 5;  // Bianchi's m, Wu's m': windows stop doubling at 2^max_stage W
  // Wu's m: retransmissions before the frame is dropped. Empty: Bianchi's chain,
  // in which stage max_stage repeats until the frame gets through.
  std::optional<int> retry_limit;

  int window(int stage) const;
};

// The chain of a DCF with window sizes cw_min..cw_max (doubling) that gives up after
// `attempt_limit` attempts (dot11ShortRetryLimit), or never when empty.
BackoffChain backoff_chain(int cw_min, int cw_max, std::optional<int> attempt_limit);

// tau(p): the probability that a station transmits in a slot, given the conditional
// collision probability p in [0, 1].
double transmission_probability(const BackoffChain& chain, double p);

struct FixedPoint {
  double tau;
  double p;
};
// Solves tau = tau(p), p = 1 - (1 - tau)^(n - 1) by bisection on p: the function
// p - (1 - (1 - tau(p))^(n-1)) is increasing (tau(p) decreases in p), negative at
// 0 and non-negative at 1, so the root is unique and bisection cannot miss it.
// n >= 1; n = 1 gives p = 0, tau = tau(0).
FixedPoint solve_fixed_point(const BackoffChain& chain, int n);

// The three kinds of slot of the model: empty, one transmission, a collision.
struct SlotDurations {
  Time idle;       // sigma
  Time success;    // T_s
  Time collision;  // T_c
};

struct Saturation {
  double tau;
  double p;
  double p_tr;              // P_tr: at least one station transmits in a slot
  double p_s;               // P_s: exactly one, given at least one
  double mean_slot_s;       // E[slot]
  double throughput_bps;    // payload bits delivered per second, all stations together
  double drop_probability;  // p^(m+1) with a retry limit, else 0
};

Saturation saturation(const BackoffChain& chain, int n, const SlotDurations& slots,
                      double payload_bits);

enum class AccessMode { basic, rts_cts };

// What the slot durations are built from: whole PPDU airtimes and the gaps.
struct ExchangeTimes {
  Time data;  // H + E[P]: the data PPDU, preamble to FCS
  Time ack;
  Time rts;
  Time cts;
  Time sifs;
  Time difs;
  // The gap after a collision before the next slot: Bianchi uses DIFS. In the
  // standard, the stations that did not transmit receive a corrupted frame and
  // defer EIFS instead (IEEE 802.11-2012 9.3.2.3); pass EIFS to model that.
  Time after_collision;
  Time slot;         // sigma
  Time propagation;  // d
};

// Bianchi's T_s and T_c (Section IV) for the access mode.
SlotDurations slot_durations(AccessMode mode, const ExchangeTimes& t);

// The gap after a collision.
enum class CollisionGap { difs, eifs };

// ExchangeTimes from wmnsim's PHY: a DCF (non-QoS) DATA frame carrying `ip_bytes`
// (mac/frame.hpp sizes, LLC/SNAP included) at `data`, ACK, RTS and CTS at
// `control`, interframe spaces and EIFS from mac/mac_timing.hpp.
ExchangeTimes exchange_times(const phy::PhyProfile& profile, const phy::Mcs& data,
                             const phy::Mcs& control, std::uint32_t ip_bytes,
                             Time propagation, CollisionGap gap);

}  // namespace wmnsim::control
