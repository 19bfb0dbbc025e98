#pragma once
// Frame error model: closed-form bit/symbol error rates over AWGN, per MCS, and the
// packet error rate of a frame received over chunks of constant SINR.
//
// SINR convention. `sinr_linear` is signal power over noise-plus-interference power,
// with noise taken over the profile's noise_bandwidth_hz (profile.hpp):
//   DSSS (11 MHz, the chip rate): SINR = Ec/N0, so Eb/N0 = 11 * SINR at 1 Mbit/s
//     (11 chips a bit: the processing gain), 11/2 * SINR at 2 Mbit/s, and
//     Es/N0 = 8 * SINR for a CCK symbol (8 chips). ns-3 3.44 multiplies by 22 (the
//     22 MHz channel) with noise taken over 20 MHz: 0.41 dB more Eb/N0 against noise
//     than the physics, 3 dB more against interference (ReceptionConfig::dsss_sinr_gain
//     reads the SINR ns-3's way; docs/phy.md).
//   OFDM (20 MHz): SINR is used as the subcarrier symbol's Es/N0, as the NIST model
//     does (Pei and Henderson, "Validation of OFDM error rate model in ns-3", Boeing
//     Research & Technology, 2010).
//
// A chunk of `bits` at constant SINR succeeds with probability (1 - u)^(bits / b),
// where u is the error probability of one decoding unit of b bits: a decoded bit for
// OFDM and DBPSK/DQPSK (b = 1), a CCK symbol for 5.5 and 11 Mbit/s (b = 4, 8).
// Chunks fail independently, so PER = 1 - prod(chunk success) (the NIST/ns-3 model).
//
// Cost: a few exp/erfc calls per chunk, except CCK (a 257-point quadrature: 257
// erfc and exp calls, about 10 us). No state, no allocation.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/time.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::phy {

// One stretch of a frame at constant SINR, sent at one MCS: the PLCP header at its
// own MCS (PlcpFormat::header_mcs), the payload at the data MCS, and a new chunk
// wherever interference starts or stops.
struct SinrChunk {
  const Mcs* mcs;
  double sinr_linear;
  double bits;  // fractional when made from a duration that ends mid-symbol

  static SinrChunk from_bits(const Mcs& mcs, double sinr_linear, std::uint64_t bits) {
    return {&mcs, sinr_linear, static_cast<double>(bits)};
  }
  // bits = duration * rate.
  static SinrChunk from_duration(const Mcs& mcs, double sinr_linear, Time duration) {
    const double seconds = static_cast<double>(duration.picoseconds()) * 1e-12;
    return {&mcs, sinr_linear, seconds * static_cast<double>(mcs.rate_bps)};
  }
};

// Probability that `bits` sent at `mcs` over a constant SINR all decode correctly.
// Throws std::invalid_argument for a negative or NaN SINR (a bug upstream).
double chunk_success_probability(const Mcs& mcs, double sinr_linear, std::uint64_t bits);
double chunk_success_probability(const Mcs& mcs, double sinr_linear, Time duration);

// 1 - chunk_success_probability, computed without cancellation for tiny error rates.
// log of chunk_success_probability (<= 0; -inf when the chunk surely fails):
// what a receiver accumulates chunk by chunk.
double chunk_log_success(const Mcs& mcs, double sinr_linear, Time duration);

double frame_error_rate(const Mcs& mcs, double sinr_linear, std::uint64_t bits);

// The pieces of a chunk's log success: log(1 - u) for one decoding unit (a bit, or
// a CCK symbol) at this SINR, and how many units `bits` make.
double unit_log_success(const Mcs& mcs, double sinr_linear);
inline double decoding_units(const Mcs& mcs, double bits) {
  return mcs.modulation == Modulation::Cck ? bits / mcs.bits_per_symbol : bits;
}

// chunk_log_success with the per-unit term remembered for recent (MCS, SINR)
// pairs. The result is bit-identical to chunk_log_success: the same arithmetic,
// only not repeated. A receiver sees the same few SINRs again and again (the
// same senders at the same powers, often with no interference), and the error
// functions (erfc, exp, log1p) were most of the cost of a reception. One per radio:
// no shared state. Direct-mapped; a collision just recomputes.
//
// Sized on demand (issue 43 §3, memory per node): it starts at 16 entries (384 B)
// and doubles, keeping its entries, each time it has missed twice its size since
// the last doubling, up to 256 (6 KB). A radio whose lookups hit stays small; one
// that keeps missing reaches the full table after fewer than 500 extra misses. The
// size changes only how often it recomputes, never a value.
class ChunkErrorCache {
 public:
  double chunk_log_success(const Mcs& mcs, double sinr_linear, Time duration);
  std::uint64_t misses() const { return misses_; }
  std::size_t slots() const { return entries_.size(); }

  static constexpr int kMinLogSlots = 4;
  static constexpr int kMaxLogSlots = 8;

 private:
  struct Entry {
    const Mcs* mcs = nullptr;
    std::uint64_t sinr_bits = 0;
    double unit_log_success = 0.0;
  };
  static std::size_t slot_of(const Mcs* mcs, std::uint64_t sinr_bits, int log_slots);
  void grow();

  int log_slots_ = kMinLogSlots;
  std::vector<Entry> entries_ = std::vector<Entry>(std::size_t{1} << kMinLogSlots);
  std::uint64_t misses_ = 0;
  std::uint64_t misses_since_growth_ = 0;
};

// PER of a frame made of chunks: 1 - product of the chunks' success probabilities.
double packet_error_rate(std::span<const SinrChunk> chunks);

// The published building blocks, exposed for tests and for documentation.
namespace formulas {

// Uncoded BER of an OFDM subcarrier over AWGN at symbol SNR es_n0 (linear), Gray
// mapping (Proakis, "Digital Communications", 4th ed., 5.2; nearest-neighbour form
// for square M-QAM, as in the NIST model).
double bpsk_ber(double es_n0);
double qpsk_ber(double es_n0);
double qam_ber(int constellation_size, double es_n0);

// DSSS at 1 and 2 Mbit/s, eb_n0 linear.
double dbpsk_ber(double eb_n0);
double dqpsk_ber(double eb_n0);

// Symbol error probability of an HR/DSSS CCK symbol carrying 4 (5.5 Mbit/s) or 8
// (11 Mbit/s) bits at symbol SNR es_n0 (linear).
double cck_symbol_error(int bits_per_symbol, double es_n0);

// One term of a convolutional code's distance spectrum: c_d, the total number of
// information-bit errors over all error events of output weight d.
struct SpectrumTerm {
  int distance;
  double info_weight;
};
// The spectrum of the 802.11 K = 7 (133, 171) code at rate 1/2, or punctured to 2/3
// or 3/4; throws std::invalid_argument for any other rate.
std::span<const SpectrumTerm> distance_spectrum(CodeRate rate);
// Decoded-bit error probability of hard-decision Viterbi decoding at code `rate`
// when the demodulator's bit error probability is p. Clipped to [0, 1].
double viterbi_bit_error(CodeRate rate, double p);

}  // namespace formulas

}  // namespace wmnsim::phy
