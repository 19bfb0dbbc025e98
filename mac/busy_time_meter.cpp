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

void BusyTimeMeter::ns2_stop_send_timer(Time now) {
  ns2_send_until_ = std::min(ns2_send_until_, now);
  ns2_cts_wait_ = false;
}

void BusyTimeMeter::ns2_nav_until(Time until) { ns2_nav_until_ = std::max(ns2_nav_until_, until); }

}  // namespace wmnsim::mac
