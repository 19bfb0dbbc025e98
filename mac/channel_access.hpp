#pragma once
// Channel access (IEEE 802.11-2012 9.3.2, 9.19.2.3): when the MAC's access functions
// may count their backoff down and transmit. It owns the medium state and one timer
// for all the functions.
//
//  - Medium state: physical carrier sense (the radio's CCA, and its own
//    transmissions) and virtual carrier sense (the NAV, 9.3.2.4); the MAC's own
//    frame exchange (its SIFS gaps and response waits) also keeps every function
//    frozen. The medium is idle only when none of these holds.
//  - IFS: a function counts after the medium has been idle for AIFS[AC] (DIFS =
//    AIFS with AIFSN 2), or EIFS - DIFS + AIFS[AC] after an errored reception until
//    an error-free one (9.3.2.3.7, 9.19.2.3); under Deferral::ns3, AIFS[AC] after the
//    later of the idle medium and the errored frame's end + EIFS - DIFS (ns-3); under
//    Deferral::phy_idle the EIFS runs from when the medium but for the NAV went idle.
//  - Backoff countdown: each function's access_at is when its counter reaches zero;
//    a busy start freezes it with the whole idle slots subtracted
//    (AccessFunction::freeze), an idle medium resumes it. One access timer, at the
//    earliest access_at, tells the owner (on_access_time), which grants the access
//    (the highest category with a frame wins, 9.19.2.3).
//  - Slot boundaries: two stations whose counters reach zero in the same slot both
//    transmit and collide: a station cannot see a transmission that started within
//    the same slot, because aSlotTime contains the CCA detection time (9.3.7). Here
//    the busy indication is instantaneous, and the stations' slot boundaries differ
//    by propagation delays and Duration-field rounding (well under 2 us), so a busy
//    indication from someone else that starts less than half a slot before a
//    function's access time does not stop it (same_slot_guard): it is committed.
//
// Cost: O(access functions) per change of the medium, not per slot.

#include <algorithm>
#include <cstdint>
#include <span>

#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/subscriber_list.hpp"
#include "core/time.hpp"
#include "mac/access_function.hpp"
#include "mac/busy_time_meter.hpp"
#include "mac/mac_timing.hpp"
#include "mac/mac_user.hpp"

namespace wmnsim::mac {

// A busy indication this close before an access time does not stop it (see above).
constexpr Time same_slot_guard(Time slot) { return slot / 2; }

class ChannelAccess {
 public:
  // What channel access asks of the MAC it serves.
  class Owner {
   public:
    // A frame exchange is under way: a SIFS gap, a response awaited, a frame on the air.
    virtual bool exchange_active() const = 0;
    // A received frame is being handed up at its end: the radio still reports the
    // medium busy for it until the event ends (phy/radio.cpp updates CCA after the
    // reception's end is reported), where ns-3's PHY is already idle.
    virtual bool delivering_reception() const = 0;
    // The access timer fired at `now`: every contending function whose access_at is
    // `now` may transmit.
    virtual void on_access_time(Time now) = 0;

   protected:
    ~Owner() = default;
  };

  // `functions` are the MAC's, by priority (index 0 lowest); they outlive this.
  // `deferral` and `immediate_access` choose the standard's rules or a simulator's
  // (mac/mac_params.hpp).
  // `backoff_draws` is the MAC's backoff stream (uniform draws only).
  // `phy_busy` and `transmitting` are the radio's at the start (no NAV, no exchange
  // yet). `node` and `radio` tag the events and the log.
  ChannelAccess(Scheduler& scheduler, ContextId node, std::uint32_t radio, const MacTiming& timing,
                Deferral deferral, ImmediateAccess immediate_access, std::span<AccessFunction> functions,
                BusyTimeMeter& meter, Owner& owner, UniformStream backoff_draws, bool phy_busy, bool transmitting);
  ~ChannelAccess();
  ChannelAccess(const ChannelAccess&) = delete;
  ChannelAccess& operator=(const ChannelAccess&) = delete;

  // ---- medium ----
  // The radio's clear channel assessment changed.
  void set_phy_busy(bool busy) {
    phy_busy_ = busy;
    refresh();
  }
  // The radio started or ended a transmission of ours (PhyListener::on_tx_start,
  // on_tx_end). Told, not asked: the medium state is read on every change. The
  // caller refreshes when the medium should be re-evaluated.
  void set_transmitting(bool transmitting) { transmitting_ = transmitting; }
  bool transmitting() const { return transmitting_; }
  // Re-evaluates the medium after any change of its inputs (the owner's transmission
  // or exchange): freezes or resumes every function, feeds the meter.
  void refresh();
  // The medium as of the last refresh.
  bool busy() const { return busy_; }
  // What makes the channel busy for the busy-time meter: the PHY, our own
  // transmission, the NAV (not our exchange's gaps).
  bool channel_cause() const { return phy_busy_ || transmitting_ || nav_set(); }
  bool nav_set() const { return scheduler_.now() < nav_end_; }
  Time nav_end() const { return nav_end_; }
  // 9.3.2.4: the NAV only ever grows from a received Duration.
  void set_nav(Time until);
  // A reception ended in error now (a collision or a channel error). Standard
  // deferral: EIFS instead of AIFS until an error-free reception (9.3.2.3.7); ns-3's
  // (Deferral::ns3): EIFS - DIFS counted from now, whenever the medium idles. ns-2's
  // (Deferral::ns2): the NAV is set for EIFS (recv_timer), then DIFS as after any
  // NAV. The meter counts ns-2's NAV either way.
  void errored_reception();
  // An error-free frame resynchronises: AIFS again (9.3.2.3.7).
  void error_free_reception() {
    use_eifs_ = false;
    account_ns2();
  }
  // ns-2's Mac802_11::capture (ns2 reception model): a frame weaker than the one
  // being received by CPThresh, ending `duration` from now, is dropped and the NAV
  // set to EIFS past its end "so that this does not screw up carrier sense". Always
  // counted by the meter; deferred on only with Deferral::ns2 (the standard has no
  // such rule: docs/phy.md).
  void ignored_reception(Time duration);
  // The idle time a function waits before counting (AIFS[AC], or EIFS - DIFS + AIFS[AC];
  // under Deferral::ns3 always AIFS[AC], the EIFS being in idle_since_).
  Time defer_for(const AccessFunction& f) const;
  // Tells the meter the ns-2 inputs changed (its send timer or NAV).
  void account_ns2() { meter_.ns2_update(channel_cause(), scheduler_.now()); }

  // The MAC's observers (mac_user.hpp), told here of each backoff drawn and NAV
  // set, and by frame exchange and the MAC of the rest: one list per MAC, kept
  // here so that telling nobody costs an inline empty test (the event trace).
  SubscriberList<MacObserver>& observers() { return observers_; }

  // ---- functions ----
  // A frame for an idle function (9.3.4.2): access after AIFS if the medium is idle,
  // a backoff first if it is busy.
  void request_access(AccessFunction& f, Time now);
  // Draws f's backoff (9.3.4.3) and, the medium being idle, dates its access.
  void draw_backoff(AccessFunction& f, Time now);
  // f's parameters changed: a counting function's access time moves with its AIFS.
  void params_changed(AccessFunction& f);
  // Re-arms the access timer at the earliest access time (after the owner changed
  // functions' states). Inline up to the comparison: most calls change nothing.
  void reschedule_timer() {
    Time earliest = Time::max();
    for (const AccessFunction& f : functions_) {
      if (f.contending()) earliest = std::min(earliest, f.access_at);
    }
    if (earliest != timer_at_) rearm(earliest);
  }

 private:
  bool medium_busy() const { return channel_cause() || owner_.exchange_active(); }
  void schedule(AccessFunction& f) const;
  void on_medium_busy(Time now);
  void on_medium_idle();
  void rearm(Time at);
  void on_timer();
  // Deferral::phy_idle: notes when the medium but for the NAV (the PHY, our own
  // transmission and exchange) goes idle, where an EIFS begins (refresh).
  void note_idle_but_for_nav(Time now);

  friend struct MacLayout;  // tests/mac/test_mac_layout.cpp: where the hot fields lie

  // The members by use (issue 43 §2, docs/performance.md "The MAC laid out by use"):
  // at 100,000 nodes a frame's receivers' MACs are out of cache, and every line a
  // change of the medium (CCA, NAV) or an overheard frame's end reads is a miss.
  // What only a station with frames of its own reads (its backoff draws, the access
  // timer's event) comes first; then what those paths read, which ends where the
  // MAC's meter (read by them too) begins and runs on into the frame exchange's
  // first members (mac.hpp). tests/mac/test_mac_layout.cpp keeps them together.
  //
  // The MAC's backoff stream, shared by its functions, drawn in the order they need
  // it: here, where the backoffs are drawn, rather than a pointer in each function
  // (issue 43 §3, memory per node).
  UniformStream backoff_draws_;
  EventId timer_{};

  Scheduler& scheduler_;
  BusyTimeMeter& meter_;
  Owner& owner_;
  const MacTiming& timing_;
  std::span<AccessFunction> functions_;
  SubscriberList<MacObserver> observers_;
  ContextId node_;
  std::uint32_t radio_;
  // The one-byte fields side by side, so that no padding separates them (issue 43 §3).
  Deferral deferral_;
  ImmediateAccess immediate_access_;
  bool phy_busy_ = false;
  bool transmitting_ = false;
  bool busy_ = false;  // medium_busy() at the last refresh
  bool use_eifs_ = false;
  bool busy_but_for_nav_ = false;  // Deferral::phy_idle only: note_idle_but_for_nav
  Time nav_end_;
  // When the medium became idle; after an errored frame, under Deferral::ns3 the later
  // of that and the frame's end + EIFS - DIFS (errored_reception), under
  // Deferral::phy_idle the later of that - (EIFS - DIFS) and when the medium but for
  // the NAV went idle (note_idle_but_for_nav): defer_for adds EIFS - DIFS + AIFS.
  // Read only while the medium is idle; while it is busy it may hold the latter.
  Time idle_since_;
  Time timer_at_ = Time::max();  // Time::max() exactly while no access timer is pending
  EventId nav_timer_{};
};

}  // namespace wmnsim::mac
