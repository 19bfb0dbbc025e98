#include "mac/channel_access.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/sim_log.hpp"

namespace wmnsim::mac {

ChannelAccess::ChannelAccess(Scheduler& scheduler, ContextId node, std::uint32_t radio, const MacTiming& timing,
                             Deferral deferral, ImmediateAccess immediate_access,
                             std::span<AccessFunction> functions, BusyTimeMeter& meter, Owner& owner,
                             UniformStream backoff_draws, bool phy_busy, bool transmitting)
    : backoff_draws_(backoff_draws),
      scheduler_(scheduler),
      meter_(meter),
      owner_(owner),
      timing_(timing),
      functions_(functions),
      node_(node),
      radio_(radio),
      deferral_(deferral),
      immediate_access_(immediate_access),
      phy_busy_(phy_busy),
      transmitting_(transmitting),
      busy_(phy_busy || transmitting),
      busy_but_for_nav_(phy_busy || transmitting) {}

ChannelAccess::~ChannelAccess() {
  scheduler_.cancel(nav_timer_);
  scheduler_.cancel(timer_);
}

void ChannelAccess::refresh() {
  const bool cause = channel_cause();
  const Time now = scheduler_.now();
  meter_.channel(cause, now);
  const bool busy = cause || owner_.exchange_active();
  if (deferral_ == Deferral::phy_idle) note_idle_but_for_nav(now);
  if (busy != busy_) {
    busy_ = busy;
    if (busy) {
      on_medium_busy(now);
    } else {
      if (use_eifs_ && deferral_ == Deferral::ns3) {
        // idle_since_ may hold the errored frame's end + EIFS - DIFS (errored_reception):
        // the count starts AIFS after the later of the two.
        idle_since_ = std::max(now, idle_since_);
      } else if (use_eifs_ && deferral_ == Deferral::phy_idle) {
        // The EIFS ran from when the medium but for the NAV went idle (idle_since_,
        // note_idle_but_for_nav), DIFS from the NAV's end: access EIFS - DIFS + AIFS
        // after the later of that instant and now - (EIFS - DIFS).
        idle_since_ = std::max(now - (timing_.eifs - timing_.difs), idle_since_);
      } else {
        idle_since_ = now;
      }
      on_medium_idle();
    }
  }
  meter_.ns2_update(cause, now);  // after idle_since_ moved: an EIFS counts from there
}

Time ChannelAccess::defer_for(const AccessFunction& f) const {
  // 9.19.2.3: AIFS[AC] after an idle medium, EIFS - DIFS + AIFS[AC] after an
  // errored frame (for DCF, AIFSN 2: DIFS and EIFS).
  const Time aifs = timing_.aifs(f.params.aifsn);
  // Deferral::ns3 keeps its EIFS - DIFS in idle_since_ instead (errored_reception).
  return use_eifs_ && deferral_ != Deferral::ns3 ? timing_.eifs - timing_.difs + aifs : aifs;
}

void ChannelAccess::schedule(AccessFunction& f) const {
  const Time count_from = std::max(idle_since_ + defer_for(f), f.eligible_from);
  f.access_at = count_from + f.backoff_slots * timing_.slot;
}

void ChannelAccess::on_medium_busy(Time now) {
  const Time guard = same_slot_guard(timing_.slot);
  // Only someone else's signal can start in "our" slot; our own exchange freezes all.
  const bool own = transmitting_ || owner_.exchange_active();
  for (AccessFunction& f : functions_) {
    if (!f.contending() || f.committed()) continue;
    if (!own && f.access_at != Time::max() && f.access_at >= now && f.access_at - now < guard) {
      f.commit();  // the busy start is in the slot it transmits in
      continue;
    }
    if (f.phase() == AccessPhase::deferring) {
      // Immediate access interrupted before AIFS elapsed: back off (9.3.4.2).
      draw_backoff(f, now);
      f.access_at = Time::max();
      continue;
    }
    if (f.access_at != Time::max()) {
      f.freeze(now, timing_.slot);
    }
    f.access_at = Time::max();
  }
  reschedule_timer();
}

void ChannelAccess::on_medium_idle() {
  for (AccessFunction& f : functions_) {
    if (f.contending() && !f.committed()) schedule(f);
  }
  reschedule_timer();
}

void ChannelAccess::rearm(Time at) {
  scheduler_.cancel(timer_);
  timer_at_ = Time::max();
  if (at != Time::max()) {
    timer_ = scheduler_.schedule_at(at, [this] { on_timer(); }, node_);
    timer_at_ = at;  // once scheduled: a throw leaves the invariant timer_at_ states
  }
}

void ChannelAccess::on_timer() {
  timer_at_ = Time::max();
  // The timer runs only at an idle medium's access times (a busy one, our own
  // exchange above all, freezes every function not committed), and a function is
  // committed only by someone else's signal: our own transmission or exchange here
  // would mean two of ours overlapped.
  if (transmitting_ || owner_.exchange_active()) {
    throw std::logic_error("MAC: access timer fired during the station's own transmission or frame exchange");
  }
  owner_.on_access_time(scheduler_.now());
}

void ChannelAccess::set_nav(Time until) {
  // 9.3.2.4: the NAV only ever grows from a received Duration.
  if (until <= nav_end_) return;
  WMNSIM_LOG(scheduler_.log(), spdlog::level::trace, node_, "mac {}: NAV set until {:.9f}s",
             scheduler_.log().radio_label(radio_), until.to_seconds());
  nav_end_ = until;
  scheduler_.cancel(nav_timer_);
  nav_timer_ = scheduler_.schedule_at(until, [this] { refresh(); }, node_);
  observers_.tell([&](MacObserver& o) { o.on_nav(radio_, until); });
  refresh();
}

void ChannelAccess::errored_reception() {
  const Time until = scheduler_.now() + timing_.eifs;
  meter_.ns2_nav_until(until);
  if (deferral_ == Deferral::ns2) {
    set_nav(until);
  } else {
    use_eifs_ = true;
    if (deferral_ == Deferral::ns3) {
      // ns-3 (GetAccessGrantStart): no count before this end + EIFS - DIFS, however
      // long the medium stays busy after it. idle_since_ is read only while the
      // medium is idle: it holds that time until refresh. The radio reports a
      // reception's end while its CCA still holds the medium busy; should the medium
      // be idle already, the counting functions are dated again from it.
      idle_since_ = std::max(idle_since_, scheduler_.now() + timing_.eifs - timing_.difs);
      if (!busy_) on_medium_idle();
    } else if (deferral_ == Deferral::phy_idle && !busy_but_for_nav_) {
      // Reported after the PHY idled (the radio reports while its CCA still holds the
      // medium busy; a PHY that reports later lands here): the EIFS begins now, and an
      // idle medium's counting functions are dated again from it.
      idle_since_ = scheduler_.now();
      if (!busy_) on_medium_idle();
    }
  }
  account_ns2();
}

void ChannelAccess::note_idle_but_for_nav(Time now) {
  // 9.3.2.3.7: the EIFS begins when the PHY indicates the medium idle after the
  // erroneous frame, "without regard to the virtual CS mechanism". Our own transmission
  // and its response wait hold the medium as the PHY does (the standard reading's EIFS
  // also runs from the later of them), so only a NAV separates the two readings. A NAV
  // is set only by an error-free frame, which ends the EIFS: a period held busy by the
  // NAV alone never begins one.
  const bool busy_but_for_nav = phy_busy_ || transmitting_ || owner_.exchange_active();
  if (busy_but_for_nav_ && !busy_but_for_nav) idle_since_ = now;
  busy_but_for_nav_ = busy_but_for_nav;
}

void ChannelAccess::ignored_reception(Time duration) {
  const Time until = scheduler_.now() + duration + timing_.eifs;
  meter_.ns2_nav_until(until);
  if (deferral_ == Deferral::ns2) set_nav(until);
  account_ns2();
}

void ChannelAccess::request_access(AccessFunction& f, Time now) {
  if (immediate_access_ == ImmediateAccess::ns3) {
    // ns-3's departure from 9.3.4.2 (ImmediateAccess::ns3): judged by the channel
    // alone, not the station's own response due; a zero backoff, frozen by a busy
    // medium like any backoff, instead of a deferral that a busy medium turns into a
    // drawn backoff. The reception being handed up is over for ns-3's PHY; other
    // energy at this instant is not re-assessed (the radio's CCA is the event's).
    const bool channel_busy = transmitting_ || nav_set() || (phy_busy_ && !owner_.delivering_reception());
    if (channel_busy) {
      draw_backoff(f, now);
      return;
    }
    f.start_zero_backoff(now);
    if (!busy_) schedule(f);
    reschedule_timer();
    return;
  }
  // 9.3.4.2: a frame for an idle function with no backoff pending goes once the
  // medium has been idle for AIFS; if the medium is busy, it backs off first.
  if (busy_) {
    draw_backoff(f, now);
  } else {
    f.defer_immediately(now);
    schedule(f);
    reschedule_timer();
  }
}

void ChannelAccess::draw_backoff(AccessFunction& f, Time now) {
  const int slots = f.draw_backoff(now, backoff_draws_);
  WMNSIM_LOG(scheduler_.log(), spdlog::level::trace, node_, "mac {}: backoff {} slots drawn (CW {}, {})",
             scheduler_.log().radio_label(radio_), slots, f.cw, to_string(f.ac));
  observers_.tell([&](MacObserver& o) { o.on_backoff(radio_, f.ac, slots, f.cw); });
  if (!busy_) schedule(f);
}

void ChannelAccess::params_changed(AccessFunction& f) {
  // A changed AIFSN moves the access time of a counting function.
  if (!f.contending() || f.committed() || busy_) return;
  schedule(f);
  const Time now = scheduler_.now();
  if (f.access_at < now) {
    // A shorter AIFS under which the count would have ended already: access at the
    // first slot boundary from now on the new count's grid (9.19.2.3: counting and
    // access are at slot boundaries).
    const std::int64_t slots = (now - f.access_at + timing_.slot - Time::ps(1)) / timing_.slot;
    f.access_at = f.access_at + slots * timing_.slot;
  }
  reschedule_timer();
}

}  // namespace wmnsim::mac
