#include "mac/access_function.hpp"

#include <algorithm>

namespace wmnsim::mac {

void AccessFunction::set_params(const EdcaParams& p) {
  const bool at_reset = cw == params.cw_min;
  params = p;
  cw = at_reset ? p.cw_min : std::clamp(cw, p.cw_min, p.cw_max);
}

bool AccessFunction::charge_retry(RetryCount count, int limit) {
  int& n = count == RetryCount::long_count ? long_retries : short_retries;
  ++n;
  if (n >= limit) return true;
  cw = next_cw(cw, params.cw_max);
  return false;
}

}  // namespace wmnsim::mac
