#pragma once
// How a radio tells the layer above (the MAC) what happens on the air. Owned by
// phy/ so that phy/ knows nothing of mac/ (DESIGN.md). All notifications come at
// the exact simulated time of the transition.

#include "phy/phy_frame.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

enum class RxOutcome {
  success,  // decoded: the MAC processes the frame
  error,    // locked on but lost (SINR/collision/capture): the MAC defers EIFS (802.11-2012 9.3.2.3.7)
  aborted,  // the radio started transmitting while receiving (half duplex)
};

struct RxInfo {
  PowerDbm power;     // received signal power
  double min_sinr_db;  // the worst SINR over the frame (the SNR if nothing interfered); +inf
                       // under the threshold and range models, which have no SINR
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
  // now + frame.duration (less the part already elapsed: none, the lock is at the start).
  virtual void on_rx_start(const PhyFrame& /*frame*/) {}
  virtual void on_rx_end(const PhyFrame& /*frame*/, RxOutcome /*outcome*/, const RxInfo& /*info*/) {}
};

}  // namespace wmnsim::phy
