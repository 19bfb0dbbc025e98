#pragma once
// A half-duplex 802.11 radio on one channel: transmits frames, tracks every
// signal on its channel, decides reception and clear-channel assessment, and
// tells its listener (the MAC) about each transition at its exact time.
//
// Cost: O(signals currently on the air at this radio) per signal start or end,
// which is a handful even in dense meshes.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"
#include "phy/airtime.hpp"
#include "phy/error_model.hpp"
#include "phy/frame_success.hpp"
#include "phy/phy_frame.hpp"
#include "phy/phy_listener.hpp"
#include "phy/profile.hpp"
#include "phy/reception.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

class Medium;
using RadioId = std::uint32_t;

struct RadioStats {
  std::uint64_t frames_sent = 0;
  std::uint64_t rx_success = 0;
  std::uint64_t rx_error = 0;    // locked on, then lost
  std::uint64_t rx_aborted = 0;  // own transmission started during a reception
  Time busy_time;                // receive-side CCA busy, summed
};

class Radio {
 public:
  Radio(Medium& medium, RadioId id, ContextId node, int channel, PowerDbm tx_power, const PhyProfile& profile,
        const ReceptionConfig& reception, RandomStream error_draws);
  Radio(const Radio&) = delete;
  Radio& operator=(const Radio&) = delete;

  // The MAC is built after its radio, so it registers itself here once.
  void set_listener(PhyListener* listener) { listener_ = listener; }

  // Starts transmitting now. Aborts a reception in progress (half duplex).
  // Transmitting while already transmitting is a MAC bug: std::logic_error.
  void transmit(const PhyFrame& frame);

  bool transmitting() const { return transmitting_; }
  bool receiving() const { return locked_.has_value(); }
  // When the reception in progress began (receiving() only).
  Time reception_start() const { return locked_->start; }
  bool cca_busy() const { return cca_busy_; }
  // Total power of the signals on the air here now (noise excluded).
  PowerMw signal_energy() const { return total_; }

  RadioId id() const { return id_; }
  Medium& medium() { return medium_; }
  ContextId node() const { return node_; }
  int channel() const { return channel_; }
  PowerDbm tx_power() const { return tx_power_; }
  const PhyProfile& profile() const { return profile_; }
  const RadioStats& stats() const { return stats_; }

  // Called by the Medium when a signal's first and last bit reach this radio.
  void signal_start(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach);
  void signal_end(std::uint32_t tx);

 private:
  struct Signal {
    std::uint32_t tx;
    PowerMw power;
    SignalReach reach;
  };
  struct Locked {
    std::uint32_t tx;
    PhyFrame frame;
    PowerMw power;              // ns2: of the frame whose end ends the reception
    Time start;
    Time end;                   // when the reception ends (ns2: the latest of collided frames)
    Time header_start, payload_start;  // PLCP header and PSDU boundaries
    const Mcs* header_mcs;
    Time last_change;           // SINR: start of the chunk not yet accounted
    double min_sinr = 0.0;      // linear
    bool doomed = false;        // threshold/range/ns2: already lost (interferer, below RXThresh, own transmission)
  };

  void try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach);
  void ns2_overlap(std::uint32_t tx, const PhyFrame& frame, PowerMw power);
  bool preamble_detected(PowerMw power) const;
  bool destroys(const Signal& s, PowerMw locked_power) const;
  void account_chunk();
  void finish_reception(RxOutcome outcome);
  void recompute_energy();
  void update_cca();
  void end_transmission();

  Medium& medium_;
  Scheduler& scheduler_;
  RadioId id_;
  ContextId node_;
  int channel_;
  PowerDbm tx_power_;
  PhyProfile profile_;
  ReceptionConfig reception_;
  PowerMw noise_, cca_threshold_;
  double capture_ratio_;
  double preamble_snr_;  // linear; 0: no condition
  RandomStream error_draws_;
  FrameSuccess success_;  // SINR: the locked frame's chunks, decided at its end
  PhyListener* listener_ = nullptr;

  std::vector<Signal> signals_;  // on the air here now
  PowerMw total_;                // sum of signals_' power
  int sensed_ = 0;               // signals with reach.sensed
  std::optional<Locked> locked_;
  bool transmitting_ = false;
  bool cca_busy_ = false;
  Time busy_since_;
  RadioStats stats_;
};

}  // namespace wmnsim::phy
