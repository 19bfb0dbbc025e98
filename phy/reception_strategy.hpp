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
// Cost: one virtual call at each of those points, against a test of the kind at each
// before; the strategies hold no state (the radio's ReceptionConfig is theirs to read).

#include <cstdint>
#include <memory>
#include <optional>

#include "phy/phy_frame.hpp"
#include "phy/phy_listener.hpp"
#include "phy/reception.hpp"
#include "phy/rx_failure.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

class Radio;

class ReceptionStrategy {
 public:
  virtual ~ReceptionStrategy() = default;

  // A signal from `tx` begins while the radio has no frame locked.
  virtual void arrival(Radio& radio, std::uint32_t tx, const PhyFrame& frame, PowerMw power,
                       SignalReach reach) const = 0;
  // A signal from `tx` begins while the radio receives another frame.
  virtual void overlap(Radio& radio, std::uint32_t tx, const PhyFrame& frame, PowerMw power,
                       SignalReach reach) const = 0;
  // The radio starts transmitting while it receives (half duplex).
  virtual void transmit_during_reception(Radio& radio) const = 0;
  // Whether a frame from `tx` locked onto now is already lost, and why.
  virtual std::optional<RxFailure> lost_at_lock(const Radio& radio, std::uint32_t tx, PowerMw power,
                                                SignalReach reach) const = 0;
  // The locked frame's last bit arrived: its outcome (the sinr model draws it here).
  virtual RxOutcome outcome(Radio& radio) const = 0;
  // Clear-channel assessment on the energy on the air, the lock apart.
  virtual bool energy_busy(Radio& radio) const = 0;
  // Whether a reception's SINR is recorded chunk by chunk (the sinr model).
  virtual bool tracks_sinr() const { return false; }
};

// The strategy of `kind`.
std::unique_ptr<const ReceptionStrategy> make_reception_strategy(ReceptionKind kind);

// Linear power ratio by which a locked frame survives an interferer (ns-2's CPThresh,
// the sinr model's capture margin); infinite under the range model, where any
// interferer in range destroys the frame.
double capture_ratio(const ReceptionConfig& reception);

}  // namespace wmnsim::phy
