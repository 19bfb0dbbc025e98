#pragma once
// How a radio decides that a frame arrives and survives: one strategy per reception
// model (ReceptionKind, reception.hpp), chosen once when the radio is built. The
// radio keeps what every model shares (the signals on the air, the lock, the
// carrier sense, the listener's notifications); the strategy decides at the points
// where the models differ:
//  - a signal arriving while the radio is idle: lock onto it or not;
//  - a signal arriving during a reception: capture, collision or nothing;
//  - the radio transmitting during a reception: abort it, or (ns-2) doom it;
//  - whether a frame is lost from the moment it is locked onto;
//  - the outcome when the locked frame ends;
//  - clear-channel assessment on energy.
//
// Cost: the strategies hold no state but one flag of the sinr model's (the radio's
// ReceptionConfig is theirs to read), so the radio keeps them in a 2-byte
// std::variant, dispatches with std::visit (a switch on the index), and each
// method is inlined at the radio's call. Virtual calls there
// cost 1.3 % more instructions on the 3-s saturated sinr cell (cell50_saturated.json,
// callgrind: 802.1 M against 791.4 M). The methods are templates on the radio type
// only so that their bodies can stay here, ahead of Radio's definition (the radio
// holds the variant); radio.cpp instantiates them.
//
// The medium asks a model only how its links are made (LinkRules, link_rules).

#include <cstdint>
#include <optional>
#include <variant>

#include "core/time.hpp"
#include "phy/mcs.hpp"
#include "phy/phy_frame.hpp"
#include "phy/phy_listener.hpp"
#include "phy/reception.hpp"
#include "phy/rx_failure.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

// The sinr model (default): lock onto a detected preamble while idle and not
// transmitting; the SINR is tracked piecewise and the frame drawn against the error
// model at its end; a later, stronger frame may capture the receiver.
class SinrReception {
 public:
  // Whether a reception's SINR is recorded chunk by chunk.
  static constexpr bool kTracksSinr = true;
  // ReceptionConfig::dsss_sinr_gain != 1 (phy.reception.dsss_processing_gain "ns3"):
  // a DSSS frame's SINR is read over 22 MHz. Decided once, when the radio is built,
  // so that the default reading costs a decision one test of a byte the radio's
  // layout already holds (the gain looked up per decision cost 004's mesh 0.5 % of
  // its instructions; docs/performance.md).
  bool dsss_gain = false;

  // A signal from `tx` begins while the radio has no frame locked.
  template <class RadioT>
  void arrival(RadioT& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const {
    if (r.transmitting_ || !reach.decodable) return;
    if (r.reception_.preamble_detection == PreambleDetection::window) {
      r.start_detection(tx, frame, power, reach);
    } else if (r.preamble_detected(power)) {
      r.try_lock(tx, frame, power, reach);
    }
  }
  // A signal from `tx` begins while the radio receives another frame.
  template <class RadioT>
  void overlap(RadioT& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const {
    // Frame capture: a later frame stronger by the margin takes the receiver over.
    if (r.reception_.frame_capture && reach.decodable && r.preamble_detected(power) &&
        power.mw() >= r.locked_->power.mw() * r.capture_ratio_) {
      r.locked_->cause = RxFailure::capture_lost;
      r.blame(tx);
      r.finish_reception(RxOutcome::error);
      // The listener may have started a transmission meanwhile (half duplex).
      if (!r.transmitting_ && !r.locked_) r.try_lock(tx, frame, power, reach);
    }
  }
  // The radio starts transmitting while it receives (half duplex).
  template <class RadioT>
  void transmit_during_reception(RadioT& r) const {
    r.abort_reception();
  }
  // Whether a frame from `tx` locked onto now is already lost, and why.
  template <class RadioT>
  std::optional<RxFailure> lost_at_lock(const RadioT&, std::uint32_t, PowerMw, SignalReach) const {
    return std::nullopt;
  }
  // The locked frame's last bit arrived: its outcome (drawn here).
  template <class RadioT>
  RxOutcome outcome(RadioT& r) const {
    // PER = 1 - prod(chunk success), 802.11 frames are lost whole.
    const double u = r.error_draws_.uniform01();
    if (dsss_gain && r.locked_->frame.mcs->family == PhyFamily::Dsss) [[unlikely]] {
      return r.template decide_reception<true>(u) ? RxOutcome::success : RxOutcome::error;
    }
    return r.template decide_reception<false>(u) ? RxOutcome::success : RxOutcome::error;
  }
  // Clear-channel assessment on the energy on the air, the lock apart.
  template <class RadioT>
  bool energy_busy(RadioT& r) const {
    return r.energy_busy();
  }
};

// The threshold and range models (ns-2 studies): received iff above the reception
// threshold (in range) and no overlapping signal that interferes escapes capture.
class ThresholdReception {
 public:
  static constexpr bool kTracksSinr = false;

  template <class RadioT>
  void arrival(RadioT& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const {
    if (!r.transmitting_ && reach.decodable && r.preamble_detected(power)) r.try_lock(tx, frame, power, reach);
  }
  template <class RadioT>
  void overlap(RadioT& r, std::uint32_t tx, const PhyFrame&, PowerMw power, SignalReach reach) const {
    if (r.destroys(typename RadioT::Signal{tx, power, reach}, r.locked_->power)) {
      r.locked_->doomed = true;
      if (!r.locked_->cause) r.locked_->cause = RxFailure::collision;
    }
  }
  template <class RadioT>
  void transmit_during_reception(RadioT& r) const {
    r.abort_reception();
  }
  template <class RadioT>
  std::optional<RxFailure> lost_at_lock(const RadioT& r, std::uint32_t tx, PowerMw power, SignalReach) const {
    bool lost = false;
    for (const auto& s : r.signals_) {
      if (s.tx != tx && r.destroys(s, power)) lost = true;
    }
    return lost ? std::optional(RxFailure::collision) : std::nullopt;
  }
  template <class RadioT>
  RxOutcome outcome(RadioT& r) const {
    return r.locked_->doomed ? RxOutcome::error : RxOutcome::success;
  }
  template <class RadioT>
  bool energy_busy(RadioT& r) const {
    return r.sensed_ > 0;
  }
};

// ns-2's WirelessPhy + Mac802_11 (docs/phy.md "The ns2 model").
class Ns2Reception {
 public:
  static constexpr bool kTracksSinr = false;

  template <class RadioT>
  void arrival(RadioT& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const {
    // ns-2 locks onto whatever reaches the MAC while its receiver is idle
    // (Mac802_11::recv, rx_state_ == MAC_IDLE), transmitting or not.
    r.try_lock(tx, frame, power, reach);
  }
  template <class RadioT>
  void overlap(RadioT& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach) const {
    auto& l = *r.locked_;
    // Mac802_11::recv: the new frame is ignored (capture()) when the one being
    // received is stronger by CPThresh; it never takes the receiver over.
    if (l.power.mw() >= power.mw() * r.capture_ratio_) {
      if (r.listener_ != nullptr) r.listener_->on_rx_ignored(frame);
      return;
    }
    // Mac802_11::collision(): both are lost, and the reception lasts until the
    // longer of the two ends, later frames being compared with that one.
    l.doomed = true;
    if (!l.cause) l.cause = RxFailure::collision;
    const Time end = r.scheduler_.now() + frame.duration;
    if (end > l.end) {
      l.tx = tx;
      l.end = end;
      l.power = power;
    }
  }
  template <class RadioT>
  void transmit_during_reception(RadioT& r) const {
    // ns-2 (Mac802_11::transmit): the frame being received is marked in error and
    // the reception runs on to its end; recv_timer then discards it silently if
    // the radio is still transmitting, and defers EIFS otherwise.
    r.locked_->doomed = true;
    if (!r.locked_->cause) r.locked_->cause = RxFailure::own_transmission;
  }
  template <class RadioT>
  std::optional<RxFailure> lost_at_lock(const RadioT& r, std::uint32_t, PowerMw, SignalReach reach) const {
    // ns-2 (WirelessPhy::sendUp): between CSThresh and RXThresh a frame is
    // detected but marked in error; one arriving during a transmission too
    // (Mac802_11::recv). Signals already on the air do not count: ns-2 compares
    // a new frame only with the one being received, and there is none.
    if (!reach.decodable) return RxFailure::below_sensitivity;
    if (r.transmitting_) return RxFailure::own_transmission;
    return std::nullopt;
  }
  template <class RadioT>
  RxOutcome outcome(RadioT& r) const {
    // ns-2's recv_timer: a frame ending while the radio transmits is discarded
    // without an EIFS (the MAC "would never have seen it").
    if (r.transmitting_) return RxOutcome::aborted;
    return r.locked_->doomed ? RxOutcome::error : RxOutcome::success;
  }
  template <class RadioT>
  bool energy_busy(RadioT& r) const {
    return r.sensed_ > 0;
  }
};

using ReceptionStrategy = std::variant<SinrReception, ThresholdReception, Ns2Reception>;

// The strategy of `reception.kind` (range is threshold reception with an infinite
// capture ratio), the sinr model's dsss_gain set from ReceptionConfig::dsss_sinr_gain.
ReceptionStrategy make_reception_strategy(const ReceptionConfig& reception);

// Whether `strategy` records a reception's SINR chunk by chunk (the sinr model).
inline bool tracks_sinr(const ReceptionStrategy& strategy) {
  return std::visit([](const auto& s) { return s.kTracksSinr; }, strategy);
}

// How the medium makes a model's links (Medium::connect, connect_by_range,
// delivery_cutoff, the faint signals): the one place the medium asks the kind.
struct LinkRules {
  // Links come from geometric ranges (Medium::connect_by_range), not from powers.
  bool by_range;
  // ns-2 (WirelessPhy::sendUp): nothing below the carrier-sense threshold (CSThresh)
  // arrives, so that threshold is a second delivery floor, and whatever arrives is
  // sensed on its own (threshold, ns2; sinr judges energy in aggregate).
  bool carrier_sense_floor;
  // Signals that can never be locked onto only add energy: they are handed to the
  // radio as intervals, not delivered as events (sinr, unless
  // ReceptionConfig::faint_signal_events; docs/phy.md "Faint signals").
  bool faint_as_intervals;
};
LinkRules link_rules(const ReceptionConfig& reception);

// Linear power ratio by which a locked frame survives an interferer (ns-2's CPThresh,
// the sinr model's capture margin); infinite under the range model, where any
// interferer in range destroys the frame.
double capture_ratio(const ReceptionConfig& reception);

}  // namespace wmnsim::phy
