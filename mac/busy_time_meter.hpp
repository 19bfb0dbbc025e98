#pragma once
// Two meters of how long the channel was busy, as two papers measured it. Accounting
// only: nothing the MAC decides reads them, and they schedule no event; the caller
// passes the time of each change (so a test drives them with any clock).
//
//  - channel_busy_time: 003 Sec. III-A's channel busyness ratio, the time the radio
//    was transmitting, receiving (CCA busy) or had its NAV set. The caller reports
//    every change of that cause (channel()).
//  - ns2_busy_time: the same as ns-2's Mac802_11 counts it (!is_idle(),
//    mac-802_11.cc): tx_state_ from each transmission's start until ns-2's send timer
//    (mhSend_) would fire (the wait for a CTS or ACK, and a CTS sender's wait until the
//    DATA's end), whatever our own response timeout does; a reception or carrier; the
//    NAV, which ns-2 also sets for EIFS after a collided or errored frame and for EIFS
//    past the end of a frame ignored by capture (ns2 reception model). 003 measured its
//    ratio in ns-2 (Sec. IV); the wccp controller's busy_time "ns2" reads this one.
//
// Cost: O(1) per call.

#include <algorithm>
#include <cstdint>

#include "core/time.hpp"
#include "mac/mac_timing.hpp"

namespace wmnsim::mac {

// What a transmission arms ns-2's send timer for (check_pktRTS, check_pktTx,
// check_pktCTRL).
enum class Ns2SendWait : std::uint8_t {
  none,        // a broadcast, an ACK: the timer ends with the transmission
  cts,         // an RTS: until the CTS would have ended
  ack,         // an individually addressed DATA or management frame: until its ACK would have ended
  data_after,  // a CTS: until the DATA it announces (its Duration field) would have ended
};

class BusyTimeMeter {
 public:
  // `busy` is the channel cause at the start (as channel() would be told).
  explicit BusyTimeMeter(bool busy) : channel_busy_(busy) {}

  // ---- 003's channel busyness ----
  // The cause (transmitting, CCA busy or NAV) is `busy` from `now` on.
  void channel(bool busy, Time now);
  Time channel_busy_time(Time now) const;

  // ---- ns-2's is_idle() ----
  // Called on every change of the medium with the channel cause then (the same as
  // channel()'s): a cause keeps ns-2 busy, and without one it stays busy until the
  // send timer or the EIFS NAV below runs out.
  void ns2_update(bool cause, Time now);
  Time ns2_busy_time(Time now) const;
  // A transmission of `airtime` starting at `now`, carrying `duration_field`, arms
  // ns-2's send timer (2 us of DSSS_MaxPropagationDelay each way, mac-802_11.h).
  void ns2_arm_send_timer(Ns2SendWait wait, Time now, Time airtime, Time duration_field, const MacTiming& timing);
  // The response arrived (recvCTS, recvACK, a CTS sender's recvDATA): the timer stops
  // now. The caller then calls ns2_update.
  void ns2_stop_send_timer(Time now);
  // The send timer covers a CTS's wait for the DATA (ns-2's recvDATA stops it).
  bool ns2_waiting_for_data() const { return ns2_cts_wait_; }
  // ns-2's tx_state_ is not idle: its send timer runs (a CTS or ACK awaited, or the
  // DATA after a CTS this station sent).
  bool ns2_send_timer_running(Time now) const { return now < ns2_send_until_; }
  // ns-2 sets its NAV until `until` (EIFS after a lost frame, recv_timer; EIFS past
  // an ignored frame, capture()). A deadline armed once per frame: unlike the
  // standard's EIFS, later idle periods do not renew it. The caller then calls ns2_update.
  void ns2_nav_until(Time until);

 private:
  Time channel_busy_since_;
  Time channel_busy_total_;
  // ns-2's busy: a period from ns2_busy_since_ lasting until ns2_busy_until_
  // (Time::max() while a cause lasts, else the later deadline below).
  Time ns2_busy_since_;
  Time ns2_busy_until_;
  Time ns2_busy_total_;
  // ns2_update's last deadline (-1 ps: none yet; its cause is ns2_last_cause_).
  Time ns2_last_deadline_ = Time::ps(-1);
  // When ns-2's send timer (mhSend_) would fire: its tx_state_ is not idle until then.
  Time ns2_send_until_;
  // When ns-2's NAV set for EIFS would end.
  Time ns2_nav_until_;
  // The flags side by side after the times, so that no padding separates them
  // (issue 43 §3, memory per node: 72 bytes, not 96).
  bool channel_busy_ = false;
  bool ns2_busy_ = false;        // within the period above
  bool ns2_last_cause_ = false;  // ns2_update's cause at its last call
  bool ns2_cts_wait_ = false;    // the send timer covers a CTS's wait for the DATA
};

// Inline: the first two run on every change of the medium, the third with every frame.
inline void BusyTimeMeter::channel(bool busy, Time now) {
  if (busy == channel_busy_) return;
  if (busy) {
    channel_busy_since_ = now;
  } else {
    channel_busy_total_ += now - channel_busy_since_;
  }
  channel_busy_ = busy;
}

inline void BusyTimeMeter::ns2_update(bool cause, Time now) {
  const Time deadline = std::max(ns2_send_until_, ns2_nav_until_);
  // With the cause and the deadline of the last call, a call could only close a
  // period at its recorded end (an EIFS that ran out), which the next call with
  // other inputs, or ns2_busy_time, does alike.
  if (cause == ns2_last_cause_ && deadline == ns2_last_deadline_) return;
  ns2_last_cause_ = cause;
  ns2_last_deadline_ = deadline;
  if (ns2_busy_ && ns2_busy_until_ <= now) {  // an EIFS that ended since the last call
    ns2_busy_total_ += ns2_busy_until_ - ns2_busy_since_;
    ns2_busy_ = false;
  }
  const Time until = cause ? Time::max() : deadline;
  if (until > now) {
    if (!ns2_busy_) {
      ns2_busy_ = true;
      ns2_busy_since_ = now;
    }
    ns2_busy_until_ = until;
  } else if (ns2_busy_) {
    ns2_busy_total_ += now - ns2_busy_since_;
    ns2_busy_ = false;
  }
}

inline void BusyTimeMeter::ns2_arm_send_timer(Ns2SendWait wait, Time now, Time airtime, Time duration_field,
                                       const MacTiming& timing) {
  // ns-2's Mac802_11::check_pktRTS/check_pktTx/check_pktCTRL start mhSend_ with the
  // transmission; tx_state_ stays busy until it fires or the response stops it.
  constexpr Time prop = kNs2MaxPropagationDelay;
  Time until = now + airtime;
  switch (wait) {
    case Ns2SendWait::cts:
      until += prop + timing.sifs + timing.cts_airtime + prop;
      break;
    case Ns2SendWait::ack:
      until += prop + timing.sifs + timing.ack_airtime + prop;
      break;
    case Ns2SendWait::data_after:
      // "cts + data tx time": the CTS's duration field less SIFS and the ACK.
      until += prop + duration_field + prop - timing.sifs - timing.ack_airtime;
      break;
    case Ns2SendWait::none:
      break;
  }
  ns2_send_until_ = until;
  ns2_cts_wait_ = wait == Ns2SendWait::data_after;
}

}  // namespace wmnsim::mac
