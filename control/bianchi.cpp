#include "control/bianchi.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "mac/edca_params.hpp"
#include "mac/frame.hpp"
#include "mac/mac_timing.hpp"
#include "phy/airtime.hpp"

namespace wmnsim::control {
namespace {

void check_chain(const BackoffChain& c) {
  if (c.w < 1 || c.max_stage < 0 || (c.retry_limit && *c.retry_limit < 0)) {
    throw std::invalid_argument("Bianchi model: need W >= 1, m' >= 0 and a retry limit >= 0");
  }
}

}  // namespace

int BackoffChain::window(int stage) const { return w << std::min(stage, max_stage); }

BackoffChain backoff_chain(int cw_min, int cw_max, std::optional<int> attempt_limit) {
  if (attempt_limit && *attempt_limit < 1) {
    throw std::invalid_argument("attempt limit must be at least 1, got " +
                                std::to_string(*attempt_limit));
  }
  BackoffChain c;
  c.w = cw_min;
  c.max_stage = mac::doubling_stages(cw_min, cw_max);
  if (attempt_limit) c.retry_limit = *attempt_limit - 1;
  return c;
}

double transmission_probability(const BackoffChain& c, double p) {
  check_chain(c);
  // A visit to stage i lasts (W_i + 1) / 2 slots on average: (W_i - 1) / 2 backoff
  // slots and the transmission slot. Stage i is visited p^i times per visit to
  // stage 0, and each visit ends in one transmission: tau = visits / slots.
  const auto mean_slots = [&](int i) { return (c.window(i) + 1) / 2.0; };
  if (c.retry_limit) {
    double visits = 0.0, slots = 0.0, pi = 1.0;
    for (int i = 0; i <= *c.retry_limit; ++i, pi *= p) {
      visits += pi;
      slots += pi * mean_slots(i);
    }
    return visits / slots;
  }
  // Infinite chain: the last stage m is visited p^m / (1 - p) times as often as
  // stage 0. Multiplying numerator and denominator by (1 - p) keeps p -> 1 finite:
  // tau = 1 / ((1 - p) sum_{i<m} p^i (W_i+1)/2 + p^m (W_m+1)/2).
  const int m = c.max_stage;
  double slots = 0.0, pi = 1.0;
  for (int i = 0; i < m; ++i, pi *= p) slots += pi * mean_slots(i);
  return 1.0 / ((1.0 - p) * slots + pi * mean_slots(m));
}

FixedPoint solve_fixed_point(const BackoffChain& c, int n) {
  check_chain(c);
  if (n < 1) throw std::invalid_argument("Bianchi model: need at least one station");
  if (n == 1) return {transmission_probability(c, 0.0), 0.0};
  const auto excess = [&](double p) {
    return p - (1.0 - std::pow(1.0 - transmission_probability(c, p), n - 1));
  };
  double lo = 0.0, hi = 1.0;
  // 60 halvings take the bracket below 1e-18, past double precision near the root.
  for (int k = 0; k < 60; ++k) {
    const double mid = 0.5 * (lo + hi);
    (excess(mid) > 0.0 ? hi : lo) = mid;
  }
  const double p = 0.5 * (lo + hi);
  return {transmission_probability(c, p), p};
}

Saturation saturation(const BackoffChain& c, int n, const SlotDurations& d, double payload_bits) {
  const FixedPoint fp = solve_fixed_point(c, n);
  Saturation s{};
  s.tau = fp.tau;
  s.p = fp.p;
  s.p_tr = 1.0 - std::pow(1.0 - fp.tau, n);
  s.p_s = n * fp.tau * std::pow(1.0 - fp.tau, n - 1) / s.p_tr;
  s.mean_slot_s = (1.0 - s.p_tr) * d.idle.to_seconds() + s.p_tr * s.p_s * d.success.to_seconds() +
                  s.p_tr * (1.0 - s.p_s) * d.collision.to_seconds();
  s.throughput_bps = s.p_s * s.p_tr * payload_bits / s.mean_slot_s;
  s.drop_probability = c.retry_limit ? std::pow(fp.p, *c.retry_limit + 1) : 0.0;
  return s;
}

SlotDurations slot_durations(AccessMode mode, const ExchangeTimes& t) {
  const Time d = t.propagation;
  // The data exchange that ends both kinds of success: DATA, SIFS, ACK, DIFS.
  const Time data_exchange = t.data + t.sifs + d + t.ack + t.difs + d;
  if (mode == AccessMode::basic) {
    return {t.slot, data_exchange, t.data + t.after_collision + d};
  }
  return {t.slot, t.rts + t.sifs + d + t.cts + t.sifs + d + data_exchange,
          t.rts + t.after_collision + d};
}

ExchangeTimes exchange_times(const phy::PhyProfile& profile, const phy::Mcs& data,
                             const phy::Mcs& control, std::uint32_t ip_bytes, Time propagation,
                             CollisionGap gap) {
  const mac::MacTiming timing = mac::mac_timing(profile, control);
  ExchangeTimes t;
  t.data = phy::airtime(profile, data, mac::mpdu_bytes(mac::FrameKind::data, ip_bytes));
  t.ack = timing.ack_airtime;
  t.rts = timing.rts_airtime;
  t.cts = timing.cts_airtime;
  t.sifs = timing.sifs;
  t.difs = timing.difs;
  t.after_collision = gap == CollisionGap::difs ? timing.difs : timing.eifs;
  t.slot = timing.slot;
  t.propagation = propagation;
  return t;
}

}  // namespace wmnsim::control
