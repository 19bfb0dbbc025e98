#include "phy/reception_strategy.hpp"

#include <limits>
#include <stdexcept>

#include "phy/radio.hpp"

namespace wmnsim::phy {

// The sinr model (default): lock onto a detected preamble while idle and not
// transmitting; the SINR is tracked piecewise and the frame drawn against the error
// model at its end; a later, stronger frame may capture the receiver.
class SinrReception final : public ReceptionStrategy {
 public:
  void arrival(Radio& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const override {
    if (!r.transmitting_ && reach.decodable && r.preamble_detected(power)) r.try_lock(tx, frame, power, reach);
  }
  void overlap(Radio& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const override {
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
  void transmit_during_reception(Radio& r) const override { r.abort_reception(); }
  std::optional<RxFailure> lost_at_lock(const Radio&, std::uint32_t, PowerMw, SignalReach) const override {
    return std::nullopt;
  }
  RxOutcome outcome(Radio& r) const override {
    // PER = 1 - prod(chunk success), 802.11 frames are lost whole.
    return r.decide_reception(r.error_draws_.uniform01()) ? RxOutcome::success : RxOutcome::error;
  }
  bool energy_busy(Radio& r) const override { return r.energy_busy(); }
  bool tracks_sinr() const override { return true; }
};

// The threshold and range models (ns-2 studies): received iff above the reception
// threshold (in range) and no overlapping signal that interferes escapes capture.
class ThresholdReception final : public ReceptionStrategy {
 public:
  void arrival(Radio& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const override {
    if (!r.transmitting_ && reach.decodable && r.preamble_detected(power)) r.try_lock(tx, frame, power, reach);
  }
  void overlap(Radio& r, std::uint32_t tx, const PhyFrame&, PowerMw power, SignalReach reach) const override {
    if (r.destroys(Radio::Signal{tx, power, reach}, r.locked_->power)) {
      r.locked_->doomed = true;
      if (!r.locked_->cause) r.locked_->cause = RxFailure::collision;
    }
  }
  void transmit_during_reception(Radio& r) const override { r.abort_reception(); }
  std::optional<RxFailure> lost_at_lock(const Radio& r, std::uint32_t tx, PowerMw power,
                                        SignalReach) const override {
    bool lost = false;
    for (const Radio::Signal& s : r.signals_) {
      if (s.tx != tx && r.destroys(s, power)) lost = true;
    }
    return lost ? std::optional(RxFailure::collision) : std::nullopt;
  }
  RxOutcome outcome(Radio& r) const override { return r.locked_->doomed ? RxOutcome::error : RxOutcome::success; }
  bool energy_busy(Radio& r) const override { return r.sensed_ > 0; }
};

// ns-2's WirelessPhy + Mac802_11 (docs/phy.md "The ns2 model").
class Ns2Reception final : public ReceptionStrategy {
 public:
  void arrival(Radio& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) const override {
    // ns-2 locks onto whatever reaches the MAC while its receiver is idle
    // (Mac802_11::recv, rx_state_ == MAC_IDLE), transmitting or not.
    r.try_lock(tx, frame, power, reach);
  }
  void overlap(Radio& r, std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach) const override {
    Radio::Locked& l = *r.locked_;
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
  void transmit_during_reception(Radio& r) const override {
    // ns-2 (Mac802_11::transmit): the frame being received is marked in error and
    // the reception runs on to its end; recv_timer then discards it silently if
    // the radio is still transmitting, and defers EIFS otherwise.
    r.locked_->doomed = true;
    if (!r.locked_->cause) r.locked_->cause = RxFailure::own_transmission;
  }
  std::optional<RxFailure> lost_at_lock(const Radio& r, std::uint32_t, PowerMw,
                                        SignalReach reach) const override {
    // ns-2 (WirelessPhy::sendUp): between CSThresh and RXThresh a frame is
    // detected but marked in error; one arriving during a transmission too
    // (Mac802_11::recv). Signals already on the air do not count: ns-2 compares
    // a new frame only with the one being received, and there is none.
    if (!reach.decodable) return RxFailure::below_sensitivity;
    if (r.transmitting_) return RxFailure::own_transmission;
    return std::nullopt;
  }
  RxOutcome outcome(Radio& r) const override {
    // ns-2's recv_timer: a frame ending while the radio transmits is discarded
    // without an EIFS (the MAC "would never have seen it").
    if (r.transmitting_) return RxOutcome::aborted;
    return r.locked_->doomed ? RxOutcome::error : RxOutcome::success;
  }
  bool energy_busy(Radio& r) const override { return r.sensed_ > 0; }
};

std::unique_ptr<const ReceptionStrategy> make_reception_strategy(ReceptionKind kind) {
  switch (kind) {
    case ReceptionKind::sinr: return std::make_unique<SinrReception>();
    case ReceptionKind::threshold:
    case ReceptionKind::range: return std::make_unique<ThresholdReception>();
    case ReceptionKind::ns2: return std::make_unique<Ns2Reception>();
  }
  throw std::logic_error("unknown reception kind");
}

double capture_ratio(const ReceptionConfig& reception) {
  return reception.kind == ReceptionKind::range ? std::numeric_limits<double>::infinity()
                                                : reception.capture_threshold.linear();
}

}  // namespace wmnsim::phy
