#include "mac/busy_time_meter.hpp"

#include <algorithm>

namespace wmnsim::mac {

Time BusyTimeMeter::channel_busy_time(Time now) const {
  return channel_busy_ ? channel_busy_total_ + (now - channel_busy_since_) : channel_busy_total_;
}

Time BusyTimeMeter::ns2_busy_time(Time now) const {
  if (!ns2_busy_) return ns2_busy_total_;
  return ns2_busy_total_ + (std::min(now, ns2_busy_until_) - ns2_busy_since_);
}

void BusyTimeMeter::ns2_arm_send_timer(Ns2SendWait wait, Time now, Time airtime, Time duration_field,
                                       const MacTiming& timing) {
  // ns-2's Mac802_11::check_pktRTS/check_pktTx/check_pktCTRL start mhSend_ with the
  // transmission; tx_state_ stays busy until it fires or the response stops it.
  // DSSS_MaxPropagationDelay (mac-802_11.h) is 2 us.
  constexpr Time prop = Time::us(2);
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

void BusyTimeMeter::ns2_stop_send_timer(Time now) {
  ns2_send_until_ = std::min(ns2_send_until_, now);
  ns2_cts_wait_ = false;
}

void BusyTimeMeter::ns2_nav_until(Time until) { ns2_nav_until_ = std::max(ns2_nav_until_, until); }

}  // namespace wmnsim::mac
