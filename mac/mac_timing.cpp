#include "mac/mac_timing.hpp"

#include "mac/frame.hpp"
#include "phy/airtime.hpp"

namespace wmnsim::mac {

Time rx_start_delay(const phy::PhyProfile& profile, const phy::Mcs& rate) {
  // The PLCP preamble and header of a frame at `rate`: 192 us (DSSS long, and any
  // 1 Mbit/s frame), 96 us (DSSS short), 20 us (OFDM).
  const phy::PlcpFormat plcp = phy::plcp_format(profile, rate);
  return plcp.preamble + plcp.header;
}

Time eifs_ack_airtime(const phy::PhyProfile& profile) {
  if (profile.family == phy::PhyFamily::Dsss) {
    return phy::airtime(phy::profile_80211b(phy::Preamble::Long), phy::kDsssMcs[0], kAckBytes);
  }
  return phy::airtime(profile, profile.lowest_rate(), kAckBytes);
}

MacTiming mac_timing(const phy::PhyProfile& profile, const phy::Mcs& control_rate) {
  MacTiming t;
  t.slot = profile.slot;
  t.sifs = profile.sifs;
  t.difs = profile.difs();
  t.eifs = profile.sifs + profile.difs() + eifs_ack_airtime(profile);
  t.rx_start_delay = rx_start_delay(profile, control_rate);  // of the awaited ACK or CTS
  t.ack_timeout = profile.sifs + profile.slot + t.rx_start_delay;
  t.cts_timeout = t.ack_timeout;
  t.control_rate = &control_rate;
  t.ack_airtime = phy::airtime(profile, control_rate, kAckBytes);
  t.cts_airtime = phy::airtime(profile, control_rate, kCtsBytes);
  t.rts_airtime = phy::airtime(profile, control_rate, kRtsBytes);
  return t;
}

}  // namespace wmnsim::mac
