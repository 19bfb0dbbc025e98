#pragma once
// A half-duplex 802.11 radio on one channel: transmits frames, tracks every
// signal on its channel, decides reception and clear-channel assessment, and
// tells its listener (the MAC) about each transition at its exact time.
//
// Cost: O(signals currently on the air at this radio) per signal start or end,
// which is a handful even in dense meshes; faint signals (below the sensitivity)
// cost O(1) when sent, and O(those overlapping) where their energy is needed (a
// reception's decision, a clear-channel assessment near the threshold).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/compact_vector.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"
#include "phy/airtime.hpp"
#include "phy/error_model.hpp"
#include "phy/frame_success.hpp"
#include "phy/locked_reception.hpp"
#include "phy/phy_frame.hpp"
#include "phy/phy_listener.hpp"
#include "phy/profile.hpp"
#include "phy/reception.hpp"
#include "phy/reception_strategy.hpp"
#include "phy/rx_failure.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

class Medium;
class AirObserver;
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
  // `profile` and `reception` are shared by the medium's radios, not copied into
  // each (issue 43 §3, memory per node): both must outlive the radio (the Medium
  // keeps them).
  Radio(Medium& medium, RadioId id, ContextId node, int channel, PowerDbm tx_power, const PhyProfile& profile,
        const ReceptionConfig& reception, RandomStream error_draws);
  // A reception still under way gives its record back to the medium's store.
  ~Radio();
  Radio(const Radio&) = delete;
  Radio& operator=(const Radio&) = delete;

  // The MAC is built after its radio, so it registers itself here once.
  void set_listener(PhyListener* listener);

  // Starts transmitting now. Aborts a reception in progress (half duplex).
  // Transmitting while already transmitting is a MAC bug: std::logic_error.
  void transmit(const PhyFrame& frame);

  bool transmitting() const { return transmitting_; }
  bool receiving() const { return locked_ != nullptr; }
  // When the reception in progress began (receiving() only).
  Time reception_start() const { return locked_->start; }
  bool cca_busy() const { return cca_busy_; }
  // Total power of the signals on the air here now (noise excluded), faint ones included.
  PowerMw signal_energy() const;

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
  // A faint signal (below the sensitivity, sinr reception; ReceptionConfig::
  // faint_signal_events false): on the air here over [start, end), energy only.
  // Called by the Medium when the frame is sent, before `start`.
  void faint_signal(Time start, Time end, PowerMw power);
  // The most the faint signals can add together: the sum of every faint link's
  // power into this radio (set once by the Medium).
  void set_faint_bound(PowerMw bound);

 private:
  // The reception models decide with the radio's state (reception_strategy.hpp).
  friend class SinrReception;
  friend class ThresholdReception;
  friend class Ns2Reception;
  friend struct RadioLayout;  // tests/phy/test_radio_layout.cpp: where the hot fields lie

  struct Signal {
    std::uint32_t tx;
    PowerMw power;
    SignalReach reach;
  };
  struct Faint {
    Time start, end;
    double mw;
  };
  // A signal whose preamble is being detected (PreambleDetection::window).
  struct Candidate {
    std::uint32_t tx;
    const PhyFrame* frame;  // the Medium's, alive while the signal is on the air
    PowerMw power;
    SignalReach reach;
    Time arrival;
    EventId window_end;
  };
  // A stretch of a reception between two changes of the (non-faint) signals on the
  // air; faint signals split it further when the reception is decided.
  struct Stretch {
    Time from, to;
    double interference_mw;  // the non-faint signals other than the locked one
  };
  // The reception in progress, a record of the medium's store (locked_reception.hpp).
  using Locked = LockedReception;

  // Locks onto signal `tx`, which began at `start` (now, unless a detection window
  // delayed the decision; phy/reception.hpp PreambleDetection::window).
  void try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach);
  void try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach, Time start);
  // PreambleDetection::window: a decodable signal reached the idle radio; its
  // preamble is judged when its window ends (end_detection).
  void start_detection(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach);
  void end_detection(std::uint32_t tx);
  // The windows still open end without a lock (the radio transmits, or synchronises
  // on the frame of radio `receiving_from`): each is reported missed to a trace.
  // Windows still open when the run ends are not reported.
  void drop_candidates(RadioId receiving_from);
  bool detection_pending(std::uint32_t tx) const;
  bool preamble_detected(PowerMw power) const {
    // The SINR of the preamble as it arrives: noise plus every other signal on the air.
    if (preamble_snr_ <= 0.0) return true;  // no SINR condition
    const double others = std::max(0.0, total_.mw() - power.mw() + faint_energy(scheduler_.now()));
    return power.mw() >= (noise_.mw() + others) * preamble_snr_;
  }
  bool destroys(const Signal& s, PowerMw locked_power) const {
    // threshold: the locked frame survives only interferers weaker by the capture
    // threshold (ns-2 CPThresh); range: any interferer in range destroys it.
    return s.reach.interferes && !(locked_power.mw() >= s.power.mw() * capture_ratio_);
  }
  void account_chunk();
  // With an air observer set: remembers the sender of signal `tx` as the locked
  // frame's interferer if it is the strongest so far (blame: whatever its power).
  void note_interferer(std::uint32_t tx, PowerMw power);
  void blame(std::uint32_t tx);
  // Trace only: whether the frame locked onto is still on the air, and the sender of
  // the frame that holds the receiver now (ns2: a collided frame, once it is over).
  bool locked_frame_on_air() const;
  RadioId holding_sender() const;
  // Tells the air observer that the signal `tx` now arriving was not locked onto.
  // `receiving_from`: the sender of the frame the radio was receiving when it arrived.
  // `arrival`: when it reached this radio.
  void report_missed(AirObserver& trace, std::uint32_t tx, const PhyFrame& frame, PowerMw power,
                     SignalReach reach, RadioId receiving_from, Time arrival);
  // sinr: calls f(from, to, sinr) for each chunk of the locked frame in order: the
  // recorded stretches split at the faint signals' starts and ends.
  // Always inlined: with decide_reception in two instances GCC stopped inlining it
  // into the default one, and the calls cost 004's mesh 0.1 % of its instructions.
  template <typename F>
  [[gnu::always_inline]] inline void for_each_chunk(F&& f);
  // sinr: the frame's worst SINR, and whether it survives the draw u (the worst
  // chunk of each MCS first, FrameSuccess::decide_by_floor; every chunk if need be).
  void find_min_sinr();
  // kDsssGain: the error models read the SINR times ReceptionConfig::dsss_sinr_gain
  // (a DSSS frame under SinrReception::dsss_gain); false: as it is on the air.
  template <bool kDsssGain>
  bool decide_reception(double u);
  // Whether RxInfo::min_sinr must be found (the listener asks; without one, nobody reads it).
  bool wants_min_sinr() const { return listener_ != nullptr && listener_->wants_min_sinr(); }
  double faint_energy(Time t) const;
  void prune_faint();  // drops the faint signals that ended by now
  bool energy_busy();
  // The first faint start (when `busy` is false) or end (when true) in [from, before)
  // at which the energy assessment would no longer be `busy`, the non-faint signals
  // staying as they are; `before` when there is none.
  Time first_faint_flip(Time from, Time before, bool busy) const;
  void watch_faint(Time next);
  void on_faint_watch();
  void finish_reception(RxOutcome outcome);
  // The radio transmits: the reception in progress ends, aborted (half duplex).
  void abort_reception();
  void update_cca();
  void end_transmission();

  // Laid out by use (issue 43 §2, session 17): at 100,000 nodes a frame's
  // receivers' radios are out of cache, and every line of a radio a delivery touches
  // is a miss of its own. First what every delivery reads, a faint signal's too (the
  // flags in FrameSuccess's tail, the lock, the faint list and its times), then what
  // a signal's start or end reads, then the rest (set-up, the decision, counters).
  // Nothing is padded: 352 B, as before (tests/runner/test_memory_budget.cpp).
  //
  // SINR: the locked frame's chunks, decided at its end. [[no_unique_address]]: the
  // strategy and the five flags below lie in its tail padding (issue 43 §3: 8 B).
  [[no_unique_address]] FrameSuccess success_;
  ReceptionStrategy strategy_;  // of reception_.kind, for good
  bool tracks_sinr_;            // tracks_sinr(strategy_), asked once
  // The flags beside strategy_, so that no padding separates them (issue 43 §3).
  bool transmitting_ = false;
  bool cca_busy_ = false;
  // CCA near the threshold: faint signals could tip it, so the radio re-assesses at
  // the first faint start or end that would change the assessment (at
  // faint_watch_at_; first_faint_flip).
  bool cca_ambiguous_ = false;
  bool faint_assessed_busy_ = false;  // the last assessment while ambiguous
  // The reception in progress, taken from the medium's ReceptionRecords when the
  // radio locks and given back when it ends, is aborted or is lost to the radio's
  // own transmission (finish_reception); null while the radio receives nothing.
  Locked* locked_ = nullptr;
  Time faint_first_end_ = Time::max();  // the earliest end in faint_
  Time faint_watch_at_ = Time::max();
  // Faint signals, in arrival order: every one overlapping the reception in
  // progress, and ended ones until the next prune (when a reception begins, and
  // when one arrives while none is and the list is full).
  std::vector<Faint> faint_;

  PowerMw total_;                // sum of signals_' power
  std::vector<Signal> signals_;  // on the air here now
  Scheduler& scheduler_;
  int sensed_ = 0;  // signals with reach.sensed (beside channel_: no padding, issue 43 §3)
  int channel_;
  PowerMw noise_, cca_threshold_;
  double faint_bound_ = 0.0;  // mW, a little above the sum of every faint link's power
  PhyListener* listener_ = nullptr;
  // The candidates and the stretches are CompactVectors (16 B each, not a
  // std::vector's 24: issue 43 §3, memory per node), with std::vector's capacities.
  // Not the signals and the faint list: their pushes are on every signal's path,
  // where the compact form cost 0.6 % of 004's instructions (its index arithmetic).
  CompactVector<Stretch> stretches_;  // sinr: the locked frame's, in order
  Time busy_since_;
  CompactVector<Candidate> candidates_;  // window detection: preambles being judged

  Medium& medium_;
  RadioId id_;
  ContextId node_;
  PowerDbm tx_power_;
  const PhyProfile& profile_;         // the Medium's, one per distinct profile
  const ReceptionConfig& reception_;  // the Medium's
  double capture_ratio_;
  double preamble_snr_;  // linear; 0: no condition
  UniformStream error_draws_;  // uniform draws only (core/random.hpp: 32 B, not 48)
  EventId faint_watch_;  // cca_ambiguous_'s re-assessment
  RadioStats stats_;
};

// Test hooks (tests/phy/test_medium.cpp, tests/runner/test_faint_recheck_rule.cpp).
// Process-wide and unsynchronised: only tests set them, and no run may be in
// flight in another thread while one does (a tap would wrap that run's radios).
namespace test_hooks {
// The rule before e151b56: an ambiguous radio re-assesses its energy detection at
// every faint start and end, not only at the first that would change it. Runs
// under both rules must give the MAC the same callbacks (docs/performance.md §5).
void set_faint_recheck_at_every_edge(bool on);
// Radios given a listener while a tap is set hand it to wrap() and keep what it
// returns: a test records every callback the MAC gets, in order, and forwards it.
class ListenerTap {
 public:
  virtual ~ListenerTap() = default;
  virtual PhyListener* wrap(RadioId radio, const Scheduler& scheduler, PhyListener* listener) = 0;
};
void set_listener_tap(ListenerTap* tap);  // nullptr: none
}  // namespace test_hooks

}  // namespace wmnsim::phy
