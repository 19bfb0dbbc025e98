#pragma once
// Whether a frame received over chunks of constant SINR survives: the draw
// u ~ U[0,1) against the frame's success probability exp(sum of the chunks' log
// success), decided exactly as the closed forms would decide it, but mostly
// without evaluating them.
//
// Why: in a dense collision domain nearly every chunk has an SINR never seen
// before (each overlap of frames gives a new one), so ChunkErrorCache misses and
// the closed forms (erfc, exp, log1p; for CCK a 257-point quadrature) were most
// of the CPU (issue 17: a 50-station 802.11b cell cost 8 times its threshold-model
// run). Yet the draw almost never lands near the success probability: a chunk at
// a collision's SINR is lost for certain, a clean one survives for certain.
//
// How: unit_log_success is non-decreasing in the SINR (a stronger signal never
// decodes worse; each closed form is monotone). A process-wide table holds it at
// 64 points per octave of SINR (0.047 dB apart) from -60 dB to +60 dB, filled
// lazily; the two grid points around a chunk's SINR bound its value, widened by a
// margin above the closed forms' rounding noise (frame_success.cpp). The sums of
// the bounds bound the frame's log success; when the draw falls outside
// [exp(lower), exp(upper)) the outcome is known, otherwise (rarely) the chunks,
// kept in order, are evaluated exactly with the same arithmetic as the exact path,
// so every decision is the one the exact path makes. The exact path stays
// available (ReceptionConfig::exact_error_evaluation) and a test checks that both
// give the same runs.
//
// Cheaper still, and tried first (decide_by_worst): per part, an SINR below every
// chunk's bounds the frame from below (every chunk decodes at least as well; the
// table's bounds do not decrease with the SINR), and a stretch known to be at or
// below some SINR bounds it from above (the other chunks counting 0). A clean
// frame, or one hit by a collision, is decided from one or two lookups per MCS,
// before its chunks are even listed. A reception's two parts (PLCP header and
// PSDU) with one floor and one worst SINR go through decide_by_floor, the same
// decision with each SINR placed on the grid once.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/compact_vector.hpp"
#include "core/time.hpp"
#include "phy/error_model.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::phy {

// Bounds on unit_log_success(mcs, sinr): lower <= value <= upper (<= 0). `tabulated`
// is false for an MCS outside the static tables of mcs.hpp (a test's own Mcs):
// then there are no bounds.
struct LogSuccessBounds {
  double lower = 0.0;
  double upper = 0.0;
  bool tabulated = false;
};
LogSuccessBounds unit_log_success_bounds(const Mcs& mcs, double sinr_linear);

// Per part of a frame sent at one MCS (the PLCP header, the PSDU; both may use the
// same MCS): how long it lasts, an SINR no chunk of it falls below, and a stretch
// of it whose chunks are all at or below a second SINR (the worst chunk itself
// when the chunks are known).
struct WorstChunk {
  const Mcs* mcs;
  Time duration;
  double sinr_floor;
  Time worst_duration;
  double worst_sinr;
};

// What Radio::decide_reception knows of a frame before listing its chunks: the
// two parts (the PLCP header at its MCS, the PSDU at the data MCS), how long each
// lasts, one SINR no chunk of either falls below, and one stretch, at or below a
// second SINR, of which header_worst lies in the header and payload_worst in the
// PSDU.
struct FrameBounds {
  const Mcs* header_mcs;
  Time header;
  Time header_worst;
  const Mcs* payload_mcs;
  Time payload;
  Time payload_worst;
  double sinr_floor;
  double worst_sinr;
};

// One per radio, reused frame after frame (the chunk list keeps its capacity).
// The exact path's ChunkErrorCache (384 B to 6 KB, error_model.hpp) is allocated
// only when a radio first needs it, so a radio that never meets an undecided draw
// does not carry it.
class FrameSuccess {
 public:
  // `exact`: evaluate every chunk's closed form as it comes (the reference path).
  explicit FrameSuccess(bool exact = false) : always_exact_(exact), exact_(exact) {}

  // Starts a new frame.
  void reset() {
    chunks_.clear();
    exact_ = always_exact_;
    log_success_ = 0.0;
  }

  // Before any add(): the outcome of the draw u from each part's bounds alone,
  // when that decides it: 1 survives, 0 lost, -1 undecided (then add the chunks
  // and call survives(u)). Always -1 on the exact path and for an MCS without a table.
  int decide_by_worst(std::span<const WorstChunk> worst, double u) const;
  // decide_by_worst of the two parts {header_mcs, header, sinr_floor, header_worst,
  // worst_sinr} and {payload_mcs, payload, sinr_floor, payload_worst, worst_sinr}:
  // the same result from the same arithmetic (a test compares them), each SINR's
  // place on the grid found once for both parts and nothing looped over. A
  // reception's decision (issue 43 §4: a fifth of 004's mesh was its decisions).
  int decide_by_floor(const FrameBounds& b, double u) const;

  // Adds the chunk `duration` at `mcs` and a constant SINR (throws
  // std::invalid_argument for a negative or NaN SINR, as chunk_log_success does).
  void add(const Mcs& mcs, double sinr_linear, Time duration);
  // True iff u < exp(sum of the chunks' chunk_log_success, added in order): the
  // frame survives the draw u.
  bool survives(double u);
  // Whether this frame needed the closed forms (bounded mode: the draw fell
  // between the bounds, or an MCS without a table), for tests.
  bool evaluated_exactly() const { return exact_ && !always_exact_; }

 private:
  struct Chunk {
    const Mcs* mcs;
    double sinr;
    Time duration;
    double units;  // decoding units (bits, or CCK symbols)
  };
  void go_exact();
  // The outcome from every chunk's bounds: 1 survives, 0 lost, -1 undecided.
  int decide_by_chunks(double u) const;
  ChunkErrorCache& cache() {
    if (!cache_) cache_ = std::make_unique<ChunkErrorCache>();
    return *cache_;
  }

  // 40 B, of which the last 7 are padding, where the radio places its strategy and
  // flags (phy/radio.hpp, issue 43 §3): the two flags last, in one byte.
  CompactVector<Chunk> chunks_;  // 16 B (core/compact_vector.hpp)
  std::unique_ptr<ChunkErrorCache> cache_;
  double log_success_ = 0.0;  // exact mode: the sum itself
  bool always_exact_ : 1;
  bool exact_ : 1;
};

}  // namespace wmnsim::phy
