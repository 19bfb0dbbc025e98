#include "phy/error_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <string>

namespace wmnsim::phy {
namespace formulas {
namespace {

// Gaussian tail Q(x) = P(N(0,1) > x).
double q_function(double x) { return 0.5 * std::erfc(x / std::numbers::sqrt2); }

// Symbol error probability of M = 2 * pairs biorthogonal signals with coherent
// maximum-likelihood detection, where beta is the signal amplitude in noise standard
// deviations (Proakis, "Digital Communications", 4th ed., 5.2, biorthogonal signals):
//   Pc = integral_{-beta}^{inf} (1 - 2 Q(x + beta))^(pairs - 1) phi(x) dx
// written as SER = Q(beta) + integral_{-beta}^{inf} [1 - (1 - 2Q(x + beta))^(pairs-1)] phi(x) dx,
// so that a tiny SER is integrated directly rather than as 1 - (something near 1).
// Composite Simpson on [max(-beta, -12), 12]: phi is below 1e-31 outside, and 256
// intervals keep the relative error under 1e-7 from SER = 0.8 down to 1e-11.
double biorthogonal_symbol_error(int pairs, double beta) {
  constexpr int kIntervals = 256;
  const double lo = std::max(-beta, -12.0);
  const double hi = 12.0;
  if (lo >= hi) return q_function(beta);
  const double h = (hi - lo) / kIntervals;
  double sum = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double x = lo + i * h;
    const double q = q_function(x + beta);
    // 1 - (1 - 2q)^(pairs-1), accurate when q is tiny; q = 0.5 at x = -beta gives 1.
    const double miss = -std::expm1((pairs - 1) * std::log1p(-2.0 * q));
    const double phi = std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi);
    const double weight = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    sum += weight * miss * phi;
  }
  return std::clamp(q_function(beta) + sum * h / 3.0, 0.0, 1.0);
}

// Distance spectra (d, c_d) of the IEEE 802.11 K = 7 convolutional code (generators
// 133 and 171 octal) and of its rates 2/3 and 3/4 under the standard's puncturing
// patterns (IEEE 802.11-2012 clause 18, convolutional encoder): the coefficients of
// the NIST model (Pei and Henderson 2010), which ns-3 credits to P. Frenger, P. Orten,
// T. Ottosson, "Multi-rate convolutional codes", Chalmers University of Technology,
// 1998. tests/phy/test_error_model.cpp recomputes them by a trellis search: rate 1/2
// agrees term for term, and 2/3 and 3/4 agree on the terms that matter (the first 7
// and 5) and within 0.2 % on the rest, which changes no PER we compute.
constexpr std::array<SpectrumTerm, 9> kRate12{{{10, 36.0},
                                               {12, 211.0},
                                               {14, 1404.0},
                                               {16, 11633.0},
                                               {18, 77433.0},
                                               {20, 502690.0},
                                               {22, 3322763.0},
                                               {24, 21292910.0},
                                               {26, 134365911.0}}};
constexpr std::array<SpectrumTerm, 10> kRate23{{{6, 3.0},
                                                {7, 70.0},
                                                {8, 285.0},
                                                {9, 1276.0},
                                                {10, 6160.0},
                                                {11, 27128.0},
                                                {12, 117019.0},
                                                {13, 498860.0},
                                                {14, 2103891.0},
                                                {15, 8784123.0}}};
constexpr std::array<SpectrumTerm, 10> kRate34{{{5, 42.0},
                                                {6, 201.0},
                                                {7, 1492.0},
                                                {8, 10469.0},
                                                {9, 62935.0},
                                                {10, 379644.0},
                                                {11, 2253373.0},
                                                {12, 13073811.0},
                                                {13, 75152755.0},
                                                {14, 428005675.0}}};

}  // namespace

double bpsk_ber(double es_n0) { return 0.5 * std::erfc(std::sqrt(es_n0)); }

// Gray-mapped QPSK: each bit sees BPSK at half the symbol energy.
double qpsk_ber(double es_n0) { return 0.5 * std::erfc(std::sqrt(es_n0 / 2.0)); }

// Square Gray-mapped M-QAM, nearest neighbours only:
//   Pb ~ 2 (1 - 1/sqrt(M)) / log2(M) * erfc( sqrt(3 Es/N0 / (2 (M - 1))) )
// (16-QAM: 0.375 erfc(sqrt(Es/N0 / 10)); 64-QAM: 7/24 erfc(sqrt(Es/N0 / 42))).
double qam_ber(int constellation_size, double es_n0) {
  const double m = constellation_size;
  const double ber = 2.0 * (1.0 - 1.0 / std::sqrt(m)) / std::log2(m) *
                     std::erfc(std::sqrt(3.0 * es_n0 / (2.0 * (m - 1.0))));
  return std::min(ber, 0.5);
}

// Binary DPSK: Pb = 1/2 exp(-Eb/N0) (Proakis, "Digital Communications", 4th ed.,
// Eq. 5.2-69).
double dbpsk_ber(double eb_n0) { return 0.5 * std::exp(-eb_n0); }

// Gray-coded DQPSK, the asymptotic approximation of G. Ferrari, G. E. Corazza,
// "Tight bounds and accurate approximations for DQPSK transmission bit error rate",
// Electron. Lett. 40(20), 2004, Eq. (8):
//   Pb ~ (sqrt2 + 1) / sqrt(8 pi sqrt2) * exp(-(2 - sqrt2) Eb/N0) / sqrt(Eb/N0)
// It grows without bound as Eb/N0 -> 0, so it is capped at 1/2 (a coin toss).
double dqpsk_ber(double eb_n0) {
  constexpr double kSqrt2 = std::numbers::sqrt2;
  const double scale = (kSqrt2 + 1.0) / std::sqrt(8.0 * std::numbers::pi * kSqrt2);
  const double ber = scale * std::exp(-(2.0 - kSqrt2) * eb_n0) / std::sqrt(eb_n0);
  return std::min(ber, 0.5);
}

// CCK after M. B. Pursley, T. C. Royster, "Properties and performance of the IEEE
// 802.11b complementary-code-key signal sets", IEEE Trans. Commun. 57(2), 2009:
//   5.5 Mbit/s (Eq. 18): the 16 signals as 8 antipodal pairs (biorthogonal), with
//     beta^2 = Es/N0;
//   11 Mbit/s (Eq. 17): the 256 signals decided as two independent 16-signal
//     decisions of half the energy each: SER = 1 - (1 - SER16(Es/2))^2.
// beta^2 = Es/N0, not the 2 Es/N0 of ideal coherent detection, 3 dB more
// conservative: this is how ns-3's DSSS model parameterises the two equations, whose
// curves G. Pei and T. Henderson compared with testbed measurements ("Validation of
// ns-3 802.11b PHY model", Boeing, 2009); tests/phy/test_error_model.cpp reproduces
// that model's published reference points.
double cck_symbol_error(int bits_per_symbol, double es_n0) {
  if (bits_per_symbol == 4) return biorthogonal_symbol_error(8, std::sqrt(es_n0));
  if (bits_per_symbol == 8) {
    const double half = biorthogonal_symbol_error(8, std::sqrt(es_n0 / 2.0));
    return -std::expm1(2.0 * std::log1p(-half));
  }
  throw std::invalid_argument("CCK carries 4 or 8 bits a symbol, not " +
                              std::to_string(bits_per_symbol));
}

std::span<const SpectrumTerm> distance_spectrum(CodeRate rate) {
  if (rate == CodeRate{1, 2}) return kRate12;
  if (rate == CodeRate{2, 3}) return kRate23;
  if (rate == CodeRate{3, 4}) return kRate34;
  throw std::invalid_argument("no distance spectrum for code rate " +
                              std::to_string(rate.numerator) + "/" +
                              std::to_string(rate.denominator));
}

// Union bound on the decoded-bit error probability of a rate k/n code,
//   Pb < (1/k) sum_d c_d P_d,
// with hard decisions (a binary symmetric channel of crossover p), where the pairwise
// error probability is taken as half its Bhattacharyya bound, P_d ~ D^d / 2 with
// D = sqrt(4 p (1 - p)) (Pei and Henderson 2010; Proakis 4th ed., 8.2). k is the
// number of information bits per puncturing period: 1, 2 or 3.
double viterbi_bit_error(CodeRate rate, double p) {
  const double d_base = std::sqrt(4.0 * p * (1.0 - p));
  // The distances ascend in small steps: one pow, then multiplications (pow was
  // most of a reception's cost).
  const std::span<const SpectrumTerm> terms = distance_spectrum(rate);
  int power_of = terms.front().distance;
  double power = std::pow(d_base, power_of);
  double sum = 0.0;
  for (const SpectrumTerm& t : terms) {
    for (; power_of < t.distance; ++power_of) power *= d_base;
    sum += t.info_weight * power;
  }
  return std::clamp(sum / (2.0 * rate.numerator), 0.0, 1.0);
}

}  // namespace formulas

namespace {

void check_chunk(double sinr, double bits) {
  if (!(sinr >= 0.0)) {  // also catches NaN
    throw std::invalid_argument("SINR must be >= 0 (linear), got " + std::to_string(sinr));
  }
  if (!(bits >= 0.0)) {
    throw std::invalid_argument("a chunk cannot hold " + std::to_string(bits) + " bits");
  }
}

// log of the chunk's success probability (<= 0, -inf when it surely fails).
double log_success(const Mcs& mcs, double sinr, double bits) {
  check_chunk(sinr, bits);
  if (bits == 0.0) return 0.0;  // nothing to lose; avoids 0 * log(0)
  // (1 - u)^units without losing a tiny u to rounding.
  return decoding_units(mcs, bits) * unit_log_success(mcs, sinr);
}

}  // namespace

double unit_log_success(const Mcs& mcs, double sinr) {
  double unit_error = 0.0;  // error probability of one decoding unit
  switch (mcs.modulation) {
    case Modulation::Dbpsk:
      unit_error = formulas::dbpsk_ber(11.0 * sinr);  // 11 chips a bit
      break;
    case Modulation::Dqpsk:
      unit_error = formulas::dqpsk_ber(11.0 * sinr / 2.0);  // 11 chips per 2 bits
      break;
    case Modulation::Cck:
      unit_error = formulas::cck_symbol_error(mcs.bits_per_symbol, 8.0 * sinr);  // 8 chips
      break;
    case Modulation::Bpsk:
      unit_error = formulas::viterbi_bit_error(mcs.code_rate, formulas::bpsk_ber(sinr));
      break;
    case Modulation::Qpsk:
      unit_error = formulas::viterbi_bit_error(mcs.code_rate, formulas::qpsk_ber(sinr));
      break;
    case Modulation::Qam16:
      unit_error = formulas::viterbi_bit_error(mcs.code_rate, formulas::qam_ber(16, sinr));
      break;
    case Modulation::Qam64:
      unit_error = formulas::viterbi_bit_error(mcs.code_rate, formulas::qam_ber(64, sinr));
      break;
  }
  return std::log1p(-unit_error);
}

double ChunkErrorCache::chunk_log_success(const Mcs& mcs, double sinr_linear, Time duration) {
  const SinrChunk c = SinrChunk::from_duration(mcs, sinr_linear, duration);
  check_chunk(c.sinr_linear, c.bits);
  if (c.bits == 0.0) return 0.0;
  std::uint64_t sinr_bits = 0;
  std::memcpy(&sinr_bits, &c.sinr_linear, sizeof sinr_bits);
  Entry& e = entries_[slot_of(&mcs, sinr_bits, log_slots_)];
  if (e.mcs == &mcs && e.sinr_bits == sinr_bits) return decoding_units(mcs, c.bits) * e.unit_log_success;
  const double unit = unit_log_success(mcs, c.sinr_linear);
  e = Entry{&mcs, sinr_bits, unit};
  ++misses_;
  // (Growing may move or evict `e`: the value is returned from `unit`.)
  if (++misses_since_growth_ >= 2 * entries_.size() && log_slots_ < kMaxLogSlots) grow();
  return decoding_units(mcs, c.bits) * unit;
}

std::size_t ChunkErrorCache::slot_of(const Mcs* mcs, std::uint64_t sinr_bits, int log_slots) {
  const auto mcs_bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(mcs));
  // Fibonacci hashing of both keys into the table.
  return ((sinr_bits ^ (mcs_bits << 7)) * 0x9E3779B97F4A7C15ull) >> (64 - log_slots);
}

void ChunkErrorCache::grow() {
  std::vector<Entry> bigger(entries_.size() * 2);
  ++log_slots_;
  for (const Entry& e : entries_) {
    if (e.mcs != nullptr) bigger[slot_of(e.mcs, e.sinr_bits, log_slots_)] = e;
  }
  entries_ = std::move(bigger);
  misses_since_growth_ = 0;
}

double chunk_success_probability(const Mcs& mcs, double sinr_linear, std::uint64_t bits) {
  return std::exp(log_success(mcs, sinr_linear, static_cast<double>(bits)));
}

double chunk_log_success(const Mcs& mcs, double sinr_linear, Time duration) {
  const SinrChunk c = SinrChunk::from_duration(mcs, sinr_linear, duration);
  return log_success(mcs, c.sinr_linear, c.bits);
}

double chunk_success_probability(const Mcs& mcs, double sinr_linear, Time duration) {
  const SinrChunk c = SinrChunk::from_duration(mcs, sinr_linear, duration);
  return std::exp(log_success(mcs, c.sinr_linear, c.bits));
}

double frame_error_rate(const Mcs& mcs, double sinr_linear, std::uint64_t bits) {
  return -std::expm1(log_success(mcs, sinr_linear, static_cast<double>(bits)));
}

double packet_error_rate(std::span<const SinrChunk> chunks) {
  double total = 0.0;
  for (const SinrChunk& c : chunks) total += log_success(*c.mcs, c.sinr_linear, c.bits);
  return -std::expm1(total);
}

}  // namespace wmnsim::phy
