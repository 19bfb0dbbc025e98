#pragma once
// How a radio tells the layer above (the MAC) what happens on the air. Owned by
// phy/ so that phy/ knows nothing of mac/ (DESIGN.md). All notifications come at
// the exact simulated time of the transition.

#include <cmath>

#include "phy/phy_frame.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

enum class RxOutcome {
  success,  // decoded: the MAC processes the frame
  error,    // locked on but lost (SINR/collision/capture): the MAC defers EIFS (802.11-2012 9.3.2.3.7)
  aborted,  // the radio started transmitting while receiving (half duplex)
};

// Linear, converted to dB on demand (a logarithm each: most receptions never ask).
struct RxInfo {
  PowerMw power;            // received signal power
  double min_sinr = 0.0;    // the worst SINR over the frame, linear (the SNR if nothing
                            // interfered); +inf under the threshold and range models, which have no SINR;
                            // NaN when the listener does not want it (wants_min_sinr) and
                            // the radio decided the frame without walking its chunks
  Time start;               // the first bit of the frame the reception began with (the lock
                            // itself comes later under PreambleDetection::window)
  PowerDbm power_dbm() const { return power.to_dbm(); }
  double min_sinr_db() const { return std::isinf(min_sinr) ? min_sinr : 10.0 * std::log10(min_sinr); }
};

class PhyListener {
 public:
  virtual ~PhyListener() = default;
  // Clear channel assessment, receive side: busy while the energy on the channel
  // is above the CCA threshold or a frame is being received. The radio's own
  // transmissions are reported separately (on_tx_start/on_tx_end).
  virtual void on_cca_busy() {}
  virtual void on_cca_idle() {}
  virtual void on_tx_start(const PhyFrame& /*frame*/) {}
  virtual void on_tx_end() {}
  // A preamble was detected and the radio locked onto the frame; it ends at
  // its first bit + frame.duration (the first bit is now, unless the preamble was
  // judged over a window: PreambleDetection::window, phy/reception.hpp).
  virtual void on_rx_start(const PhyFrame& /*frame*/) {}
  // Whether on_rx_end's RxInfo should carry min_sinr (sinr reception). Finding it
  // walks every chunk of the frame, while the error draw is mostly decided from
  // bounds without that walk; a listener that answers false gets NaN.
  virtual bool wants_min_sinr() const { return true; }
  virtual void on_rx_end(const PhyFrame& /*frame*/, RxOutcome /*outcome*/, const RxInfo& /*info*/) {}
  // ns2 reception model only: a frame arrived while another was being received and
  // was ignored, being weaker by the capture threshold (ns-2's Mac802_11::capture).
  // It ends at now + frame.duration. Nothing else reports it: it never locks.
  virtual void on_rx_ignored(const PhyFrame& /*frame*/) {}
};

}  // namespace wmnsim::phy
