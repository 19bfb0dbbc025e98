#include "control/starvation_model.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/time.hpp"
#include "mac/frame.hpp"
#include "mac/mac_timing.hpp"
#include "phy/airtime.hpp"
#include "phy/profile.hpp"

namespace wmnsim::control {

namespace {

constexpr std::uint32_t kTcpIpHeaderBytes = 40;  // IPv4 20 + TCP 20, no options
constexpr std::uint32_t kTcpAckIpBytes = 40;     // a pure TCP ACK
constexpr int kMaxPayloadBytes = 2304 - 40;      // 802.11 MSDU limit minus TCP/IP headers

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("starvation model: " + message);
}

const phy::Mcs& dsss_rate(double bps, const char* name) {
  for (const phy::Mcs& m : phy::kDsssMcs) {
    if (std::abs(static_cast<double>(m.rate_bps) - bps) < 1.0) return m;
  }
  throw std::invalid_argument(std::string("starvation model: ") + name +
                              " must be an 802.11b rate (1e6, 2e6, 5.5e6 or 11e6 bit/s), got " +
                              std::to_string(bps));
}

void validate(const StarvationModelParams& p) {
  const auto cw = [&](int v, const char* name) {
    require(power_of_two(v) && v >= 2 && v <= (1 << 20),
            std::string(name) + " must be a power of two in 2..1048576, got " + std::to_string(v));
  };
  cw(p.cw_min_a, "cw_min_a");
  cw(p.cw_min_b, "cw_min_b");
  cw(p.cw_min_g, "cw_min_g");
  cw(p.cw_max, "cw_max");
  for (auto [v, name] : {std::pair{p.cw_min_a, "cw_min_a"}, {p.cw_min_b, "cw_min_b"}, {p.cw_min_g, "cw_min_g"}}) {
    require(v <= p.cw_max, std::string(name) + " (" + std::to_string(v) + ") exceeds cw_max (" +
                               std::to_string(p.cw_max) + ")");
  }
  require(p.window_a >= 1 && p.window_a <= 1000, "window_a must be 1..1000 packets, got " + std::to_string(p.window_a));
  require(p.window_b >= 1 && p.window_b <= 1000, "window_b must be 1..1000 packets, got " + std::to_string(p.window_b));
  require(p.retry_limit >= 1 && p.retry_limit <= 30, "retry_limit must be 1..30, got " + std::to_string(p.retry_limit));
  require(p.payload_bytes >= 1 && p.payload_bytes <= kMaxPayloadBytes,
          "payload_bytes must be 1.." + std::to_string(kMaxPayloadBytes) + ", got " + std::to_string(p.payload_bytes));
  require(p.tolerance > 0 && std::isfinite(p.tolerance), "tolerance must be a positive number");
  require(p.max_iterations >= 1, "max_iterations must be at least 1");
}

// Backoff stage of A or GW -> window: 2^stage CWmin, capped at CWmax (Table 3: 32,
// 1024; with RL = 7 stages 5 and 6 both use 1024).
int window_at(int cw_min, int stage, int cw_max) {
  std::int64_t w = cw_min;
  for (int s = 0; s < stage && w < cw_max; ++s) w *= 2;
  return static_cast<int>(std::min<std::int64_t>(w, cw_max));
}

struct State {
  int q1, q2, q3, qg, sa, sg;
  int q4(int wb) const { return wb - q3; }
  int q5(int wb) const { return qg - (wb - q3); }
  int q6(int wa, int wb) const { return wa + wb - (q1 + q2 + q3 + qg); }
};

// Feasible states (Eq. 1 with every Q_i >= 0) numbered densely: flow A's packets
// (Q1, Q2, Q5, Q6) are a composition of W_a into four parts, flow B's (Q3, Q4) one
// of W_b into two, times the RL^2 stage pairs.
class Layout {
 public:
  Layout(int wa, int wb, int rl) : wa_(wa), wb_(wb), rl_(rl), rank_(static_cast<std::size_t>(cube(wa + 1)), -1) {
    for (int q1 = 0; q1 <= wa; ++q1)
      for (int q2 = 0; q1 + q2 <= wa; ++q2)
        for (int q5 = 0; q1 + q2 + q5 <= wa; ++q5) {
          rank_[key(q1, q2, q5)] = static_cast<int>(comps_.size());
          comps_.push_back({q1, q2, q5});
        }
  }
  static std::int64_t count(int wa, int wb, int rl) {
    const std::int64_t a = static_cast<std::int64_t>(wa + 1) * (wa + 2) * (wa + 3) / 6;  // C(wa+3, 3)
    return a * (wb + 1) * rl * rl;
  }
  std::int64_t size() const { return static_cast<std::int64_t>(comps_.size()) * (wb_ + 1) * rl_ * rl_; }
  std::int64_t index(const State& s) const {
    const int r = rank_[key(s.q1, s.q2, s.q5(wb_))];
    return ((static_cast<std::int64_t>(r) * (wb_ + 1) + s.q3) * rl_ + s.sa) * rl_ + s.sg;
  }
  State state(std::int64_t i) const {
    State s{};
    s.sg = static_cast<int>(i % rl_);
    i /= rl_;
    s.sa = static_cast<int>(i % rl_);
    i /= rl_;
    s.q3 = static_cast<int>(i % (wb_ + 1));
    const auto& c = comps_[static_cast<std::size_t>(i / (wb_ + 1))];
    s.q1 = c[0];
    s.q2 = c[1];
    s.qg = c[2] + (wb_ - s.q3);  // Q5 + Q4
    return s;
  }

 private:
  static std::int64_t cube(int v) { return static_cast<std::int64_t>(v) * v * v; }
  std::size_t key(int q1, int q2, int q5) const {
    return static_cast<std::size_t>((q1 * (wa_ + 1) + q2) * (wa_ + 1) + q5);
  }
  int wa_, wb_, rl_;
  std::vector<int> rank_;
  std::vector<std::array<int, 3>> comps_;
};

// Collisions come in three kinds, which differ only in how long the channel is busy.
enum CollisionKind { kSameSlot, kAFirst, kGFirst, kCollisionKinds };

struct Model {
  const StarvationModelParams& p;
  int fa, fg;  // first-packet lengths of A and GW, mini-slots

  // Sec. 5.3 / Table 1, generalised to every state. A node contends only with a
  // non-empty queue (e_i = 0 otherwise); a winner serves each of its non-empty
  // queues with equal probability. `emit(kind, collision_kind, probability, next)`.
  template <class Emit>
  void outcomes(const State& s, Emit&& emit) const {
    const int wa = p.window_a, wb = p.window_b, rl = p.retry_limit;
    const int q4 = s.q4(wb), q5 = s.q5(wb), q6 = s.q6(wa, wb);
    const int b_queues = (s.q2 > 0) + (s.q3 > 0) + (q6 > 0);
    const int g_queues = (q4 > 0) + (q5 > 0);
    const double ea = s.q1 > 0 ? 2.0 / window_at(p.cw_min_a, s.sa, p.cw_max) : 0.0;
    const double eb = b_queues > 0 ? 2.0 / p.cw_min_b : 0.0;  // B stays at CWmin_B
    const double eg = g_queues > 0 ? 2.0 / window_at(p.cw_min_g, s.sg, p.cw_max) : 0.0;

    // A wins: A starts, B does not, GW stays silent for A's whole first packet.
    const double a_wins = ea * (1 - eb) * std::pow(1 - eg, fa);
    // GW wins: the mirror image, over GW's own first packet.
    const double g_wins = eg * (1 - eb) * std::pow(1 - ea, fg);
    // B wins only when A and GW are silent in the same mini-slot (it hears both).
    const double b_wins = (1 - ea) * eb * (1 - eg);
    // Table 1's collision probability (1-e_b)(e_a + e_g - e_a e_g - e_a(1-e_g)^f -
    // e_g(1-e_a)^f), split by who started first; the three terms add up to it.
    const double coll[kCollisionKinds] = {
        (1 - eb) * ea * eg,
        (1 - eb) * ea * (1 - eg) * (1 - std::pow(1 - eg, fa - 1)),
        (1 - eb) * eg * (1 - ea) * (1 - std::pow(1 - ea, fg - 1)),
    };
    // Table 1's "none": nobody starts, or B starts in the same mini-slot as A or GW
    // (the paper keeps B collision-free, so that event changes nothing). Written as a
    // sum of non-negative terms, so rows summing to 1 is a real check.
    const double none = (1 - ea) * (1 - eb) * (1 - eg) + eb * (1 - (1 - ea) * (1 - eg));

    if (a_wins > 0) emit(kLink1, -1, a_wins, State{s.q1 - 1, s.q2 + 1, s.q3, s.qg, 0, s.sg});
    if (b_wins > 0) {
      const double each = b_wins / b_queues;
      if (s.q2 > 0) emit(kLink2, -1, each, State{s.q1, s.q2 - 1, s.q3, s.qg + 1, s.sa, s.sg});
      if (s.q3 > 0) emit(kLink3, -1, each, State{s.q1, s.q2, s.q3 - 1, s.qg + 1, s.sa, s.sg});
      if (q6 > 0) emit(kLink6, -1, each, State{s.q1 + 1, s.q2, s.q3, s.qg, s.sa, s.sg});
    }
    if (g_wins > 0) {
      const double each = g_wins / g_queues;
      if (q4 > 0) emit(kLink4, -1, each, State{s.q1, s.q2, s.q3 + 1, s.qg - 1, s.sa, 0});
      if (q5 > 0) emit(kLink5, -1, each, State{s.q1, s.q2, s.q3, s.qg - 1, s.sa, 0});
    }
    // Both move to the next stage; at RL-1 the packet is dropped by the MAC, the stage
    // returns to 0 and, the window being fixed, the same head packet stays queued (TCP
    // would resend it): the queues do not change.
    const State after{s.q1, s.q2, s.q3, s.qg, (s.sa + 1) % rl, (s.sg + 1) % rl};
    for (int k = 0; k < kCollisionKinds; ++k) {
      if (coll[k] > 0) emit(kCollision, k, coll[k], after);
    }
    if (none > 0) emit(kIdle, -1, none, s);
  }
};

std::int64_t ceil_div(Time a, Time b) { return (a.picoseconds() + b.picoseconds() - 1) / b.picoseconds(); }

}  // namespace

StarvationModelResult solve_starvation_model(const StarvationModelParams& p) {
  validate(p);
  const std::int64_t feasible = Layout::count(p.window_a, p.window_b, p.retry_limit);
  if (feasible > kMaxStarvationStates) {
    throw std::invalid_argument("starvation model: " + std::to_string(feasible) + " states exceed the limit of " +
                                std::to_string(kMaxStarvationStates) +
                                "; lower window_a (the count grows as its cube), window_b or retry_limit");
  }

  // ---- Durations (Table 3), from wmnsim's PHY and MAC timing --------------------------
  const phy::PhyProfile profile = phy::profile_80211b(p.short_preamble ? phy::Preamble::Short : phy::Preamble::Long);
  const phy::Mcs& data_rate = dsss_rate(p.data_rate_bps, "data_rate_bps");
  const phy::Mcs& basic_rate = dsss_rate(p.basic_rate_bps, "basic_rate_bps");
  const mac::MacTiming timing = mac::mac_timing(profile, basic_rate);
  const auto frame = [&](std::uint32_t ip_bytes) {
    return phy::airtime(profile, data_rate, mac::mpdu_bytes(mac::FrameKind::data, ip_bytes));
  };
  const Time data_frame = frame(static_cast<std::uint32_t>(p.payload_bytes) + kTcpIpHeaderBytes);
  const Time ack_frame = frame(kTcpAckIpBytes);  // a TCP ACK in a DATA frame
  const Time handshake = p.rts_cts ? timing.rts_airtime + timing.sifs + timing.cts_airtime + timing.sifs : Time::zero();
  // A transmission state: [RTS SIFS CTS SIFS] DATA SIFS ACK DIFS.
  const auto exchange = [&](Time d) { return handshake + d + timing.sifs + timing.ack_airtime + timing.difs; };
  // The first packet of an exchange, which the hidden node can hit: the RTS, or the
  // DATA frame itself (A's TCP data, GW's TCP ACK).
  const Time first_a = p.rts_cts ? timing.rts_airtime : data_frame;
  const Time first_g = p.rts_cts ? timing.rts_airtime : ack_frame;
  const Model model{p, static_cast<int>(ceil_div(first_a, timing.slot)),
                    static_cast<int>(ceil_div(first_g, timing.slot))};
  // Collision state: the channel is busy from the first start to the last end, then
  // B (which heard garbage) defers EIFS; A and GW time out (CTS/ACK timeout, DIFS)
  // within that. Sec. 5.4: the later packet starts in the middle of the first one.
  Time collision_busy[kCollisionKinds] = {
      std::max(first_a, first_g),
      std::max(first_a, first_a / 2 + first_g),
      std::max(first_g, first_g / 2 + first_a),
  };
  double collision_s[kCollisionKinds];
  for (int k = 0; k < kCollisionKinds; ++k) collision_s[k] = (collision_busy[k] + timing.eifs).to_seconds();

  StarvationModelResult r;
  r.feasible_states = feasible;
  r.bound_h = static_cast<std::int64_t>(p.retry_limit) * p.retry_limit * p.window_a * p.window_a * p.window_b *
              (p.window_a + p.window_b);  // Eq. (2)
  r.first_packet_slots_a = model.fa;
  r.first_packet_slots_g = model.fg;
  for (int k : {kLink1, kLink2, kLink3}) r.duration_s[static_cast<std::size_t>(k)] = exchange(data_frame).to_seconds();
  for (int k : {kLink4, kLink5, kLink6}) r.duration_s[static_cast<std::size_t>(k)] = exchange(ack_frame).to_seconds();
  r.duration_s[kIdle] = timing.slot.to_seconds();

  // ---- Reachable states: breadth-first from every packet at its source ----------------
  // States with Q1 = 0 and CW_a > 0 (or Qg = 0 and CW_g > 0) are feasible but never
  // reached: only a success empties a queue, and a success resets the stage.
  const Layout layout(p.window_a, p.window_b, p.retry_limit);
  const State start{p.window_a, 0, p.window_b, 0, 0, 0};
  std::vector<int> compact(static_cast<std::size_t>(layout.size()), -1);
  std::vector<std::int64_t> order;  // compact index -> layout index
  order.push_back(layout.index(start));
  compact[static_cast<std::size_t>(order[0])] = 0;
  for (std::size_t head = 0; head < order.size(); ++head) {
    model.outcomes(layout.state(order[head]), [&](int, int, double, const State& next) {
      const std::int64_t j = layout.index(next);
      if (compact[static_cast<std::size_t>(j)] < 0) {
        compact[static_cast<std::size_t>(j)] = static_cast<int>(order.size());
        order.push_back(j);
      }
    });
  }
  const auto n = static_cast<Eigen::Index>(order.size());
  r.reachable_states = n;

  // ---- Transition matrix M and the per-state channel-state probabilities ------------
  // kind[k][i]: probability that the transition out of state i is channel state k, so
  // that Eq. (3)'s p_k = sum(Pi x (phi_k . M)) is Pi . kind[k]; coll_time[i] is the
  // duration-weighted collision probability (collision kinds last differently).
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(static_cast<std::size_t>(n) * 8);
  std::vector<std::vector<double>> kind(kChannelStates, std::vector<double>(static_cast<std::size_t>(n), 0.0));
  std::vector<double> coll_time(static_cast<std::size_t>(n), 0.0);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    model.outcomes(layout.state(order[ui]), [&](int k, int ck, double prob, const State& next) {
      triplets.emplace_back(static_cast<int>(i), compact[static_cast<std::size_t>(layout.index(next))], prob);
      kind[static_cast<std::size_t>(k)][ui] += prob;
      if (ck >= 0) coll_time[ui] += prob * collision_s[ck];
    });
  }
  Eigen::SparseMatrix<double> m(n, n);  // column-major: column j lists the states entering j
  m.setFromTriplets(triplets.begin(), triplets.end());
  triplets = {};
  // Every row of M sums to 1 (Table 1's rows are exhaustive), within rounding.
  const Eigen::VectorXd row_sums = m * Eigen::VectorXd::Ones(n);
  r.max_row_sum_error = (row_sums.array() - 1.0).abs().maxCoeff();
  if (r.max_row_sum_error > 1e-9) throw std::logic_error("starvation model: a row of M does not sum to 1");
  // One closed class: every reachable state leads back to the start (breadth-first
  // over predecessors, which column j of M lists), so Pi is unique.
  {
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    std::vector<Eigen::Index> queue{0};
    seen[0] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, queue[head]); it; ++it) {
        if (!seen[static_cast<std::size_t>(it.row())]) {
          seen[static_cast<std::size_t>(it.row())] = 1;
          queue.push_back(it.row());
        }
      }
    }
    if (static_cast<Eigen::Index>(queue.size()) != n) {
      throw std::logic_error("starvation model: the reachable states are not one closed class");
    }
  }

  // ---- Stationary distribution: Gauss-Seidel on Pi = Pi M ----------------------------
  // pi_j <- sum_{i != j} pi_i M_ij / (1 - M_jj), sweeping j in order with the newest
  // values, then normalising. M_jj < 1 in every state: some node always has a packet.
  std::vector<double> pi(static_cast<std::size_t>(n), 1.0 / static_cast<double>(n));
  std::vector<double> diag(static_cast<std::size_t>(n), 0.0);
  for (Eigen::Index j = 0; j < n; ++j) diag[static_cast<std::size_t>(j)] = m.coeff(j, j);
  const auto residual = [&] {
    double res = 0;
    for (Eigen::Index j = 0; j < m.outerSize(); ++j) {
      double in = 0;
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, j); it; ++it) in += pi[static_cast<std::size_t>(it.row())] * it.value();
      res += std::abs(in - pi[static_cast<std::size_t>(j)]);
    }
    return res;
  };
  r.residual = std::numeric_limits<double>::infinity();
  while (r.iterations < p.max_iterations) {
    ++r.iterations;
    for (Eigen::Index j = 0; j < m.outerSize(); ++j) {
      double in = 0;
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, j); it; ++it) {
        if (it.row() != j) in += pi[static_cast<std::size_t>(it.row())] * it.value();
      }
      pi[static_cast<std::size_t>(j)] = in / (1.0 - diag[static_cast<std::size_t>(j)]);
    }
    double total = 0;
    for (double v : pi) total += v;
    for (double& v : pi) v /= total;
    r.residual = residual();
    if (r.residual < p.tolerance) break;
  }
  if (!(r.residual < p.tolerance)) {
    throw std::runtime_error("starvation model: Gauss-Seidel did not converge in " + std::to_string(p.max_iterations) +
                             " sweeps (residual " + std::to_string(r.residual) + "); raise max_iterations");
  }

  // ---- Eq. (3), corrected Eq. (4), Fig. 28 -----------------------------------------------
  double coll_weighted = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    for (int k = 0; k < kChannelStates; ++k) r.p[static_cast<std::size_t>(k)] += pi[ui] * kind[static_cast<std::size_t>(k)][ui];
    coll_weighted += pi[ui] * coll_time[ui];
    const State s = layout.state(order[ui]);
    if (s.q1 == 0) r.p_q1_empty += pi[ui];
    if (s.qg == 0) r.p_qg_empty += pi[ui];
    if (s.q1 == 0 && s.qg == 0) r.p_q1_and_qg_empty += pi[ui];
  }
  // T_c: the mean duration of a collision state (the kinds weighted by how often they
  // occur); the first-in-the-middle kinds dominate. Only defined when collisions occur.
  r.duration_s[kCollision] = r.p[kCollision] > 0 ? coll_weighted / r.p[kCollision] : collision_s[kAFirst];
  // Delta: each step of the embedded chain is one channel state, lasting T_k when it is
  // state k, so Delta = sum_k p_k T_k is the mean time between steps. Link 1 carries a
  // fraction p_1 of the steps, hence p_1 / Delta packets per second (Eq. 4 as printed,
  // p_1 T_1 / Delta, is the fraction of time spent on link 1, not a rate).
  for (int k = 0; k < kChannelStates; ++k) {
    r.mean_state_duration_s += r.p[static_cast<std::size_t>(k)] * r.duration_s[static_cast<std::size_t>(k)];
  }
  r.lambda_a_pps = r.p[kLink1] / r.mean_state_duration_s;
  r.lambda_b_pps = r.p[kLink3] / r.mean_state_duration_s;
  const double payload_bits = 8.0 * p.payload_bytes;
  r.lambda_a_bps = r.lambda_a_pps * payload_bits;
  r.lambda_b_bps = r.lambda_b_pps * payload_bits;
  const double sum = r.lambda_a_pps + r.lambda_b_pps;
  r.share_a = sum > 0 ? r.lambda_a_pps / sum : 0.0;
  const double sq = r.lambda_a_pps * r.lambda_a_pps + r.lambda_b_pps * r.lambda_b_pps;
  r.jain_index = sq > 0 ? sum * sum / (2 * sq) : 0.0;
  return r;
}

}  // namespace wmnsim::control
