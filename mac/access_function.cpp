#include "mac/access_function.hpp"

#include <algorithm>

namespace wmnsim::mac {

void AccessFunction::set_params(const EdcaParams& p) {
  const bool at_reset = cw == params.cw_min;
  params = p;
  cw = at_reset ? p.cw_min : std::clamp(cw, p.cw_min, p.cw_max);
}

bool AccessFunction::charge_retry(RetryCount count, int limit) {
  std::uint8_t& n = count == RetryCount::long_count ? long_retries : short_retries;
  ++n;
  if (station_count_cw) {
    // CwAfterDrop::ns3: every failure, the last one before a drop included, moves the
    // station count, up to the frame's retry limit (ns-3 has one, FrameRetryLimit).
    if (station_retries < limit) {
      ++station_retries;
      cw = params.cw_min;  // CWmin doubled station_retries times, at most CWmax
      for (int i = 0; i < station_retries && cw < params.cw_max; ++i) cw = next_cw(cw, params.cw_max);
    } else {
      station_retries = 0;
      cw = params.cw_min;
    }
    return n >= limit;
  }
  if (n >= limit) return true;
  cw = next_cw(cw, params.cw_max);
  return false;
}

void AccessFunction::mpdu_done(Time now, bool given_up) {
  short_retries = 0;
  long_retries = 0;
  if (!(station_count_cw && given_up)) {
    cw = params.cw_min;
    station_retries = 0;
  }
  last_service_end = now;
}

}  // namespace wmnsim::mac
