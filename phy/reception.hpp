#pragma once
// How a radio decides that a frame arrives and survives, chosen per scenario.

#include <limits>

#include "core/time.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

enum class ReceptionKind {
  // Default. Lock onto a preamble above the sensitivity while idle; the SINR is
  // tracked piecewise as other signals start and end; the frame is lost with the
  // probability given by the error model over those chunks.
  sinr,
  // ns-2 style: received iff above the reception threshold and every overlapping
  // signal is weaker by the capture threshold; otherwise both are lost.
  threshold,
  // Geometric ranges (ns-2 studies, 001 and 003): decodable within the reception
  // range, sensed within the carrier-sense range, and any overlapping frame from
  // within the interference range destroys the reception.
  range,
  // ns-2's WirelessPhy + Mac802_11 (2.27-2.35; docs/phy.md "The ns2 model"): nothing
  // below CSThresh arrives; the first signal above it locks an idle radio, even one
  // below RXThresh or one arriving while the radio transmits (then it is lost); a
  // later signal is ignored if the locked one is stronger by CPThresh, otherwise it
  // destroys the locked one, and the reception then lasts to the later of the two
  // ends; a later signal never takes the radio over.
  ns2,
};

// sinr: when a preamble is judged (ReceptionConfig::preamble_detection).
enum class PreambleDetection {
  // Default. On arrival: a signal reaching an idle radio is locked onto at once if
  // its preamble is detected against what is on the air then; later signals are
  // interference (or, with frame_capture, may take the receiver over).
  at_arrival,
  // ns-3 3.44 (PhyEntity::StartReceivePreamble / EndPreambleDetectionPeriod): every
  // signal reaching an idle radio opens a detection window; at its end the signal is
  // locked onto only if no signal that arrived meanwhile is stronger and its SINR
  // against everything then on the air reaches preamble_detection_snr. Two equal
  // frames starting in one slot are then both undetected: energy only, no error, so
  // DIFS rather than EIFS follows (802.11-2012 9.3.2.3.7 applies EIFS after a frame
  // received in error, which presumes a PHY-RXSTART).
  window,
};

struct ReceptionConfig {
  ReceptionKind kind = ReceptionKind::sinr;
  // Noise power used as given in SINR = S / (N + I) (004: -93.5 dBm). The error
  // models read that SINR with the noise over the profile's noise_bandwidth_hz
  // (11 MHz DSSS, 20 MHz OFDM; error_model.hpp), so a scenario states the noise in
  // that bandwidth: thermal -174 dBm/Hz + 10 log10(B) + noise figure.
  PowerDbm noise{-93.5};
  // sinr: preamble detection (default: the noise floor, a preamble below the noise
  // goes undetected); threshold, ns2: the reception threshold (ns-2 RXThresh).
  PowerDbm sensitivity{-93.5};
  PowerDbm cca_threshold{-62.0};      // sinr: energy detection (802.11-2012 18.3.10.6); threshold, ns2: carrier sense
  Db capture_threshold{10.0};         // threshold, ns2: ns-2's CPThresh; sinr: margin of frame capture
  bool frame_capture = false;         // sinr: a later, stronger frame takes the receiver over
  // sinr: a preamble is detected only if its SINR at arrival (noise plus the other
  // signals on the air) reaches this; an undetected frame is energy only, no lock and
  // no error. -inf: no SINR condition (the sensitivity alone decides).
  Db preamble_detection_snr{-std::numeric_limits<double>::infinity()};
  // sinr: when the preamble is judged, and (window) how long after arrival; 4 us is
  // ns3::WifiPhy::PreambleDetectionDuration's default.
  PreambleDetection preamble_detection = PreambleDetection::at_arrival;
  Time preamble_detection_window = Time::us(4);
  // Signals below this at a receiver are not delivered at all: neither sensed nor
  // counted as interference (default noise - 10 dB, where they could not change a
  // decision measurably). Keeps a frame O(neighbours).
  PowerDbm signal_floor{-103.5};
  // sinr: evaluate every chunk's error model as it comes instead of bounding it from
  // a table and evaluating only when the draw needs it (phy/frame_success.hpp).
  // Both decide every frame alike; the exact path is the reference tests compare with.
  bool exact_error_evaluation = false;
  // sinr: signals below the sensitivity can never be locked onto; they only add
  // energy. false (default): each is kept at its receiver as a time interval with
  // its power, summed when the radio needs the energy (a chunk of a reception, a
  // clear-channel assessment near the threshold), so it costs no events. true:
  // each start and end is delivered as an event, like any other signal. Both give
  // the same receptions and outcomes (docs/phy.md "Faint signals").
  bool faint_signal_events = false;
  // sinr: what the DSSS and CCK error models multiply the SINR by before reading it
  // as the chip-rate SINR their formulas take (error_model.cpp: Eb/N0 = 11 SINR at
  // 1 Mbit/s). 1 (default, "chip_rate"): the SINR is read as stated, noise over the
  // 11 MHz chip rate, interference despread by the code's 10.4 dB processing gain.
  // 2 ("ns3"): as ns-3's DsssErrorRateModel reads it, over 22 MHz (Eb/N0 = 22 SINR
  // at 1 Mbit/s). OFDM frames are read as stated either way. The preamble detection,
  // the capture margin and the worst SINR reported to the MAC are not scaled.
  double dsss_sinr_gain = 1.0;
};

// What a signal from one radio can do at another, fixed per pair when the
// neighbour lists are built (nodes are static).
// Four bytes, not three: passed by value in a register, a 3-byte struct is put
// together on the stack from a 2-byte and a 1-byte store and read back with one
// 8-byte load, which the store buffer cannot forward (a stall of a dozen cycles at
// every delivery; perf, docs/performance.md "Issue 43 §4", session 17). Aligned to
// 4, it is copied from a Link in one 4-byte load. A Link stays 32 bytes.
struct alignas(4) SignalReach {
  bool decodable;  // may be locked onto (ns2: received without error unless destroyed)
  bool sensed;     // threshold/range/ns2: makes the medium busy on its own
  bool interferes; // threshold/range/ns2: destroys an overlapping reception it is not captured by
};

}  // namespace wmnsim::phy
