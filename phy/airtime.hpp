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

namespace detail {
// std::invalid_argument: `data` is not one of the profile's family's rates.
[[noreturn]] void throw_wrong_family(const PhyProfile& profile, const Mcs& data);
}  // namespace detail

// Throws std::invalid_argument when `data` does not belong to the profile's family.
// (1 Mbit/s data on a short-preamble profile goes with the long preamble, as the
// standard requires). Inline: every lock asks for it (Radio::try_lock; a call cost
// as much as the rest, issue 43 §4).
inline PlcpFormat plcp_format(const PhyProfile& profile, const Mcs& data) {
  if (data.family != profile.family) [[unlikely]] detail::throw_wrong_family(profile, data);
  if (profile.family == PhyFamily::Ofdm) {
    // 10 short + 2 long training symbols = 16 us; SIGNAL = one BPSK 1/2 symbol of
    // 24 bits (IEEE 802.11-2012 18.3.2, 18.3.4).
    return {Time::us(16), Time::us(4), &kOfdmMcs[0], 24};
  }
  // The short PLCP exists only for 2, 5.5 and 11 Mbit/s (IEEE 802.11-2012
  // 17.2.2.3): a short-preamble station sends 1 Mbit/s frames with the long one.
  if (profile.preamble == Preamble::Long || data.rate_bps == kDsssMcs[0].rate_bps) {
    // 128-bit SYNC + 16-bit SFD, then the 48-bit header, all DBPSK at 1 Mbit/s.
    return {Time::us(144), Time::us(48), &kDsssMcs[0], 48};
  }
  // 56-bit SYNC + 16-bit SFD at 1 Mbit/s, then the 48-bit header DQPSK at 2 Mbit/s.
  return {Time::us(72), Time::us(24), &kDsssMcs[1], 48};
}

// The PSDU part alone: after the header, without the signal extension.
Time payload_duration(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes);

// TXTIME: preamble + header + payload + signal extension. The medium is busy for
// all of it as far as the MAC is concerned.
Time airtime(const PhyProfile& profile, const Mcs& data, std::uint32_t psdu_bytes);

}  // namespace wmnsim::phy
