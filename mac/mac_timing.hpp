#pragma once
// The timing a MAC derives from its PHY profile and its control-frame rate.
//
// IEEE 802.11-2012:
//   DIFS = aSIFSTime + 2 aSlotTime                        (9.3.2.3)
//   AIFS[AC] = aSIFSTime + AIFSN[AC] aSlotTime            (9.3.2.3, 9.19.2)
//   EIFS = aSIFSTime + DIFS + ACKTxTime, ACKTxTime being an ACK's TXTIME at the
//          lowest mandatory PHY rate, preamble and PLCP header included (9.3.2.3)
//   ACKTimeout = CTSTimeout = aSIFSTime + aSlotTime + aPHY-RX-START-Delay, counted
//          from the end of the sender's transmission (9.3.2.8 ACK, 9.3.2.6 CTS
//          procedure). It bounds when the response must START (PHY-RXSTART); if one
//          starts in time, the sender waits for its end before deciding.
//   aPHY-RX-START-Delay: HR/DSSS 192 us with the long preamble, 96 us with the short
//          one (clause 17, HR/DSSS PHY characteristics); OFDM 20 MHz 20 us, the
//          preamble and SIGNAL field (802.11-2016 Table 17-21, aRxPHYStartDelay;
//          802.11-2012 Table 18-17 listed 25 us).
// Check against paper 000 Table 3 (802.11b, long preamble): EIFS = 10 + 50 + 304 =
// 364 us, the 304 us being a 14-octet ACK at 1 Mbit/s (192 + 112).

#include "core/time.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::mac {

// ns-2's DSSS_MaxPropagationDelay (mac-802_11.h): the margin its send timer allows
// each way around a response (Deferral::ns2 waits as ns-2 does; docs/mac.md).
inline constexpr Time kNs2MaxPropagationDelay = Time::us(2);

struct MacTiming {
  Time slot;
  Time sifs;
  Time difs;
  Time eifs;
  Time rx_start_delay;  // aPHY-RX-START-Delay
  Time ack_timeout;
  Time cts_timeout;
  // Whole PPDUs at the control rate (ACK and CTS are sent at it, and so is RTS).
  const phy::Mcs* control_rate;
  Time ack_airtime;
  Time cts_airtime;
  Time rts_airtime;

  constexpr Time aifs(int aifsn) const { return sifs + aifsn * slot; }
};

// Throws std::invalid_argument when `control_rate` is not a rate of the profile's PHY.
MacTiming mac_timing(const phy::PhyProfile& profile, const phy::Mcs& control_rate);

// PHY-RXSTART delay of a frame sent at `rate`: its PLCP preamble and header.
Time rx_start_delay(const phy::PhyProfile& profile, const phy::Mcs& rate);

// ACKTxTime of EIFS: an ACK at the lowest mandatory rate. 802.11b: 1 Mbit/s, always
// with the long preamble (the short one cannot carry 1 Mbit/s). OFDM: 6 Mbit/s;
// ERP profiles list only their OFDM rates, so 802.11g uses 6 Mbit/s ERP-OFDM with
// its signal extension rather than the DSSS 1 Mbit/s an ERP STA also supports.
Time eifs_ack_airtime(const phy::PhyProfile& profile);

}  // namespace wmnsim::mac
