#pragma once
// PHY profiles: the timing numbers a PHY standard fixes, as plain data.
//
// The MAC derives its interframe spaces from these (DIFS = SIFS + 2 slots; EIFS =
// SIFS + DIFS + the ACK's airtime at the lowest rate, IEEE 802.11-2012 9.3.2.3);
// ACK and CTS sizes, CWmin/CWmax and retry limits are the MAC's business.

#include <span>
#include <string_view>

#include "core/time.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::phy {

// DSSS PLCP preamble. Long: 144 us SYNC+SFD and a 48 us header, both at 1 Mbit/s.
// Short: 72 us at 1 Mbit/s and a 24 us header at 2 Mbit/s; it cannot carry
// 1 Mbit/s data (IEEE 802.11-2012 clause 17, short PPDU format).
enum class Preamble { Long, Short };

// ERP (802.11g) slot: short (9 us) when every station in range is ERP, long (20 us)
// when 802.11b stations share the channel (IEEE 802.11-2012 clause 19, ERP
// characteristics).
enum class ErpSlot { Short, Long };

struct PhyProfile {
  std::string_view name;
  PhyFamily family;
  Preamble preamble;       // DSSS only; OFDM profiles keep Long and ignore it
  Time slot;               // aSlotTime
  Time sifs;               // aSIFSTime
  Time signal_extension;   // ERP-OFDM at 2.4 GHz: 6 us of silence after every frame
  // Bandwidth over which noise power is taken when forming the SINR that the error
  // model reads (see error_model.hpp). DSSS: the 11 MHz chip rate, so SINR = Ec/N0
  // (unless ReceptionConfig::dsss_sinr_gain reads it over 22 MHz, as ns-3 does).
  // OFDM: the 20 MHz channel, the NIST model's convention.
  double noise_bandwidth_hz;
  std::span<const Mcs> rates;  // increasing rate

  constexpr Time difs() const { return sifs + 2 * slot; }
  constexpr const Mcs& lowest_rate() const { return rates.front(); }
};

// Whether two profiles are the same one, field by field, the rates the same table
// (not only equal values): radios with the same profile share one copy (Medium).
constexpr bool same_profile(const PhyProfile& a, const PhyProfile& b) {
  return a.name == b.name && a.family == b.family && a.preamble == b.preamble && a.slot == b.slot &&
         a.sifs == b.sifs && a.signal_extension == b.signal_extension &&
         a.noise_bandwidth_hz == b.noise_bandwidth_hz && a.rates.data() == b.rates.data() &&
         a.rates.size() == b.rates.size();
}

// 802.11b, HR/DSSS: slot 20 us, SIFS 10 us (IEEE 802.11-2012 clause 17, HR/DSSS PHY
// characteristics).
constexpr PhyProfile profile_80211b(Preamble preamble = Preamble::Long) {
  return PhyProfile{preamble == Preamble::Long ? "802.11b" : "802.11b-short",
                    PhyFamily::Dsss,
                    preamble,
                    Time::us(20),
                    Time::us(10),
                    Time::zero(),
                    11e6,
                    std::span<const Mcs>(kDsssMcs)};
}

// 802.11a, OFDM 20 MHz at 5 GHz: slot 9 us, SIFS 16 us (IEEE 802.11-2012 clause 18,
// OFDM PHY characteristics).
constexpr PhyProfile profile_80211a() {
  return PhyProfile{"802.11a",
                    PhyFamily::Ofdm,
                    Preamble::Long,
                    Time::us(9),
                    Time::us(16),
                    Time::zero(),
                    20e6,
                    std::span<const Mcs>(kOfdmMcs)};
}

// 802.11g, ERP-OFDM at 2.4 GHz: SIFS 10 us plus a 6 us signal extension after each
// frame, so a response still starts 16 us after the end of the OFDM signal; slot 9
// or 20 us (IEEE 802.11-2012 clause 19, ERP characteristics). Only the ERP-OFDM
// rates are listed; DSSS frames in an 802.11g network use profile_80211b.
constexpr PhyProfile profile_80211g(ErpSlot slot = ErpSlot::Short) {
  return PhyProfile{slot == ErpSlot::Short ? "802.11g" : "802.11g-long-slot",
                    PhyFamily::Ofdm,
                    Preamble::Long,
                    Time::us(slot == ErpSlot::Short ? 9 : 20),
                    Time::us(10),
                    Time::us(6),
                    20e6,
                    std::span<const Mcs>(kOfdmMcs)};
}

}  // namespace wmnsim::phy
