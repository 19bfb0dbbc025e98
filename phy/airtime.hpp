#pragma once
// Airtime (TXTIME) of a PPDU by the standard's formulas, exact in picoseconds.
//
// DSSS / HR-DSSS (IEEE 802.11-2012 clause 16 and 17.3.4, TXTIME):
//   TXTIME = preamble + PLCP header + ceil(8 * LENGTH / DATARATE) us
//   long preamble: 144 + 48 = 192 us; short: 72 + 24 = 96 us.
//   The PSDU time is rounded UP to the whole microsecond, as the PLCP LENGTH field
//   does: it carries microseconds, with the length-extension bit at 11 Mbit/s to
//   recover the octet count. At 5.5 Mbit/s one bit lasts 181818.18... ps, so the
//   exact end of the last bit is not a whole picosecond; the standard's whole
//   microsecond is what every station derives from the header (NAV, EIFS), so it is
//   what we use. 1 and 2 Mbit/s are exact anyway.
// OFDM (IEEE 802.11-2012 18.4.3), 20 MHz:
//   TXTIME = 16 (preamble) + 4 (SIGNAL) + 4 * ceil((16 + 8 * LENGTH + 6) / N_DBPS) us
//   (16-bit SERVICE field, 6 tail bits, padding to whole symbols).
// ERP-OFDM (IEEE 802.11-2012 clause 19, ERP TXTIME): the same plus the profile's
// 6 us signal extension.
//
// All arithmetic is on integers; nothing here touches floating point.

#include <cstdint>

#include "core/time.hpp"
#include "phy/mcs.hpp"
#include "phy/profile.hpp"

namespace wmnsim::phy {

// What precedes the PSDU in a PPDU, and at which MCS its header is sent: the SINR
// tracker evaluates the header as its own chunk at header_mcs (see error_model.hpp).
struct PlcpFormat {
  Time preamble;              // SYNC+SFD (DSSS) or training symbols (OFDM)
  Time header;                // PLCP header (DSSS) or SIGNAL field (OFDM)
  const Mcs* header_mcs;      // DSSS-1 (long), DSSS-2 (short) or OFDM-6 (SIGNAL)
  std::uint32_t header_bits;  // 48 (DSSS) or 24 (OFDM SIGNAL)
};

// Throws std::invalid_argument when `data` does not belong to the profile's family.
// (1 Mbit/s data on a short-preamble profile goes with the long preamble, as the
// standard requires).
PlcpFormat plcp_format(const PhyProfile& profile, const Mcs& data);

// The PSDU part alone: after the header, without the signal extension.
Time payload_duration(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes);

// TXTIME: preamble + header + payload + signal extension. The medium is busy for
// all of it as far as the MAC is concerned.
Time airtime(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes);

}  // namespace wmnsim::phy
