#include "phy/radio.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "phy/error_model.hpp"
#include "phy/medium.hpp"

namespace wmnsim::phy {

Radio::Radio(Medium& medium, RadioId id, ContextId node, int channel, PowerDbm tx_power, const PhyProfile& profile,
             const ReceptionConfig& reception, RandomStream error_draws)
    : medium_(medium),
      scheduler_(medium.simulation().scheduler()),
      id_(id),
      node_(node),
      channel_(channel),
      tx_power_(tx_power),
      profile_(profile),
      reception_(reception),
      noise_(reception.noise.to_mw()),
      cca_threshold_(reception.cca_threshold.to_mw()),
      capture_ratio_(reception.kind == ReceptionKind::range ? std::numeric_limits<double>::infinity()
                                                            : reception.capture_threshold.linear()),
      preamble_snr_(reception.preamble_detection_snr.linear()),
      error_draws_(error_draws),
      success_(reception.exact_error_evaluation) {}

void Radio::transmit(const PhyFrame& frame) {
  if (transmitting_) throw std::logic_error("radio asked to transmit while already transmitting");
  // Set before any listener callback, so a MAC reacting to the aborted reception
  // cannot start a second, overlapping transmission.
  transmitting_ = true;
  if (locked_ && reception_.kind == ReceptionKind::ns2) {
    // ns-2 (Mac802_11::transmit): the frame being received is marked in error and
    // the reception runs on to its end; recv_timer then discards it silently if
    // the radio is still transmitting, and defers EIFS otherwise.
    locked_->doomed = true;
  } else if (locked_) {
    finish_reception(RxOutcome::aborted);
    update_cca();  // the lock may have been the only reason the medium looked busy
  }
  ++stats_.frames_sent;
  if (AirObserver* trace = medium_.air_observer()) trace->on_transmit(id_, frame);
  if (listener_ != nullptr) listener_->on_tx_start(frame);
  medium_.transmit(id_, frame);
  scheduler_.schedule_in(frame.duration, [this] { end_transmission(); }, node_);
}

void Radio::end_transmission() {
  transmitting_ = false;
  if (listener_ != nullptr) listener_->on_tx_end();
  update_cca();
}

void Radio::signal_start(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) {
  if (locked_) account_chunk();  // the interference changes now
  signals_.push_back({tx, power, reach});
  total_ += power;
  if (reach.sensed) ++sensed_;

  if (locked_) {
    const Signal& s = signals_.back();
    if (reception_.kind == ReceptionKind::sinr) {
      // Frame capture: a later frame stronger by the margin takes the receiver over.
      if (reception_.frame_capture && reach.decodable && preamble_detected(power) &&
          power.mw() >= locked_->power.mw() * capture_ratio_) {
        finish_reception(RxOutcome::error);
        // The listener may have started a transmission meanwhile (half duplex).
        if (!transmitting_ && !locked_) try_lock(tx, frame, power, reach);
      }
    } else if (reception_.kind == ReceptionKind::ns2) {
      ns2_overlap(tx, frame, power);
    } else if (destroys(s, locked_->power)) {
      locked_->doomed = true;
    }
  } else if (reception_.kind == ReceptionKind::ns2) {
    // ns-2 locks onto whatever reaches the MAC while its receiver is idle
    // (Mac802_11::recv, rx_state_ == MAC_IDLE), transmitting or not.
    try_lock(tx, frame, power, reach);
  } else if (!transmitting_ && reach.decodable && preamble_detected(power)) {
    try_lock(tx, frame, power, reach);
  }
  update_cca();
}

void Radio::signal_end(std::uint32_t tx) {
  if (locked_) account_chunk();
  const auto it = std::find_if(signals_.begin(), signals_.end(), [tx](const Signal& s) { return s.tx == tx; });
  if (it == signals_.end()) throw std::logic_error("signal end without its start");
  if (it->reach.sensed) --sensed_;
  signals_.erase(it);
  recompute_energy();
  if (locked_ && locked_->tx == tx) {
    bool ok;
    if (reception_.kind == ReceptionKind::sinr) {
      // PER = 1 - prod(chunk success), 802.11 frames are lost whole.
      ok = success_.survives(error_draws_.uniform01());
    } else {
      ok = !locked_->doomed;
    }
    // ns-2's recv_timer: a frame ending while the radio transmits is discarded
    // without an EIFS (the MAC "would never have seen it").
    const bool silent = reception_.kind == ReceptionKind::ns2 && transmitting_;
    finish_reception(silent ? RxOutcome::aborted : ok ? RxOutcome::success : RxOutcome::error);
  }
  update_cca();
}

void Radio::try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) {
  const Time now = scheduler_.now();
  const PlcpFormat plcp = plcp_format(profile_, *frame.mcs);
  Locked l{tx,
           frame,
           power,
           now,
           now + frame.duration,
           now + plcp.preamble,
           now + plcp.preamble + plcp.header,
           plcp.header_mcs,
           now,
           std::numeric_limits<double>::infinity(),
           false};
  if (reception_.kind == ReceptionKind::ns2) {
    // ns-2 (WirelessPhy::sendUp): between CSThresh and RXThresh a frame is
    // detected but marked in error; one arriving during a transmission too
    // (Mac802_11::recv). Signals already on the air do not count: ns-2 compares
    // a new frame only with the one being received, and there is none.
    l.doomed = !reach.decodable || transmitting_;
  } else if (reception_.kind != ReceptionKind::sinr) {
    for (const Signal& s : signals_) {
      if (s.tx != tx && destroys(s, power)) l.doomed = true;
    }
  }
  locked_ = std::move(l);
  success_.reset();
  if (listener_ != nullptr) listener_->on_rx_start(frame);
}

void Radio::ns2_overlap(std::uint32_t tx, const PhyFrame& frame, PowerMw power) {
  Locked& l = *locked_;
  // Mac802_11::recv: the new frame is ignored (capture()) when the one being
  // received is stronger by CPThresh; it never takes the receiver over.
  if (l.power.mw() >= power.mw() * capture_ratio_) {
    if (listener_ != nullptr) listener_->on_rx_ignored(frame);
    return;
  }
  // Mac802_11::collision(): both are lost, and the reception lasts until the
  // longer of the two ends, later frames being compared with that one.
  l.doomed = true;
  const Time end = scheduler_.now() + frame.duration;
  if (end > l.end) {
    l.tx = tx;
    l.end = end;
    l.power = power;
  }
}

bool Radio::preamble_detected(PowerMw power) const {
  // The SINR of the preamble as it arrives: noise plus every other signal on the air.
  const double others = std::max(0.0, total_.mw() - power.mw());
  return power.mw() >= (noise_.mw() + others) * preamble_snr_;
}

bool Radio::destroys(const Signal& s, PowerMw locked_power) const {
  // threshold: the locked frame survives only interferers weaker by the capture
  // threshold (ns-2 CPThresh); range: any interferer in range destroys it.
  return s.reach.interferes && !(locked_power.mw() >= s.power.mw() * capture_ratio_);
}

void Radio::account_chunk() {
  Locked& l = *locked_;
  const Time now = scheduler_.now();
  if (reception_.kind != ReceptionKind::sinr || now <= l.last_change) {
    l.last_change = now;
    return;
  }
  const double interference = total_.mw() - l.power.mw();
  const double sinr = l.power.mw() / (noise_.mw() + std::max(0.0, interference));
  l.min_sinr = std::min(l.min_sinr, sinr);
  // The chunk [last_change, now) may straddle the preamble, the PLCP header (at
  // the header rate) and the PSDU (at the data rate). The preamble carries no
  // data bits: its detection was the lock decision.
  const auto part = [&](Time from, Time to, const Mcs& mcs) {
    const Time a = std::max(from, l.last_change), b = std::min(to, now);
    if (b > a) success_.add(mcs, sinr, b - a);
  };
  part(l.header_start, l.payload_start, *l.header_mcs);
  // 802.11g's signal extension is silence after the last symbol: no bits there.
  part(l.payload_start, l.start + l.frame.duration - profile_.signal_extension, *l.frame.mcs);
  l.last_change = now;
}

void Radio::finish_reception(RxOutcome outcome) {
  Locked l = std::move(*locked_);
  locked_.reset();
  switch (outcome) {
    case RxOutcome::success: ++stats_.rx_success; break;
    case RxOutcome::error: ++stats_.rx_error; break;
    case RxOutcome::aborted: ++stats_.rx_aborted; break;
  }
  AirObserver* trace = medium_.air_observer();
  if (listener_ == nullptr && trace == nullptr) return;
  const RxInfo info{l.power, l.min_sinr, l.start};
  if (trace != nullptr && outcome == RxOutcome::success) trace->on_decoded(id_, l.frame, info, l.start);
  if (listener_ != nullptr) listener_->on_rx_end(l.frame, outcome, info);
}

void Radio::recompute_energy() {
  // Re-summed rather than subtracted, so rounding never accumulates.
  PowerMw sum;
  for (const Signal& s : signals_) sum += s.power;
  total_ = sum;
}

void Radio::update_cca() {
  const bool energy = reception_.kind == ReceptionKind::sinr ? total_ >= cca_threshold_ : sensed_ > 0;
  const bool busy = locked_.has_value() || energy;
  if (busy == cca_busy_) return;
  cca_busy_ = busy;
  if (busy) {
    busy_since_ = scheduler_.now();
    if (listener_ != nullptr) listener_->on_cca_busy();
  } else {
    stats_.busy_time += scheduler_.now() - busy_since_;
    if (listener_ != nullptr) listener_->on_cca_idle();
  }
}

}  // namespace wmnsim::phy
