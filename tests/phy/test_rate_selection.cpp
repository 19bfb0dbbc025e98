#include "phy/rate_selection.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "phy/error_model.hpp"
#include "phy/mcs.hpp"
#include "phy/propagation.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

double from_db(double db) { return std::pow(10.0, db / 10.0); }
double to_db(double ratio) { return 10.0 * std::log10(ratio); }

// SNR (dB) at which each MCS reaches 1 % PER for a 1500-byte frame: the thresholds
// of paper 004's rate choice, with the NIST model. These pin the model down
// (regression, +-0.01 dB); the published points they rest on are checked in
// test_error_model.cpp (2000-byte frames, e.g. OFDM-6 succeeds with 0.885 at 4 dB
// and 0.997 at 5 dB, bracketing 4.59 dB here), and below against the standard.
TEST(PhyRateSelection, OnePercentThresholdsFor1500Bytes) {
  const double ofdm_db[] = {4.587, 7.520, 7.598, 10.530, 14.190, 17.310, 22.061, 23.351};
  for (std::size_t i = 0; i < kOfdmMcs.size(); ++i) {
    EXPECT_NEAR(to_db(snr_threshold(kOfdmMcs[i])), ofdm_db[i], 0.01) << kOfdmMcs[i].name;
  }
  // DSSS, SINR over the 11 MHz chip rate (subtract 3.01 dB for ns-3's 22 MHz).
  const double dsss_db[] = {0.825, 5.562, 8.014, 11.024};
  for (std::size_t i = 0; i < kDsssMcs.size(); ++i) {
    EXPECT_NEAR(to_db(snr_threshold(kDsssMcs[i])), dsss_db[i], 0.01) << kDsssMcs[i].name;
  }
  // At the threshold the PER is the target.
  EXPECT_NEAR(frame_error_rate(kOfdmMcs[4], snr_threshold(kOfdmMcs[4]), 12000), 0.01, 1e-6);
}

// IEEE 802.11-2012 clause 18, receiver minimum input sensitivity: PER below 10 % for
// a 1000-octet PSDU at -82, -81, -79, -77, -74, -70, -66, -65 dBm, "NF of 10 dB and
// 5 dB implementation margins assumed". Over 20 MHz at 290 K the noise floor is
// -174 + 73.0 + 10 = -91.0 dBm, so the SNR the standard expects of an ideal receiver
// is sensitivity + 91.0 - 5 = 4, 5, 7, 9, 12, 16, 20, 21 dB. The NIST model is a
// union bound for hard decisions, the standard a practical soft-decision receiver;
// they agree within 2 dB (measured: -0.15 to +1.73 dB), which catches any mix-up of
// modulation, code rate or N_DBPS.
TEST(PhyRateSelection, TenPercentThresholdsMatchTheStandardsSensitivity) {
  const double sensitivity_dbm[] = {-82, -81, -79, -77, -74, -70, -66, -65};
  const double noise_dbm = -174.0 + 10.0 * std::log10(20e6) + 10.0;
  for (std::size_t i = 0; i < kOfdmMcs.size(); ++i) {
    const double expected_db = sensitivity_dbm[i] - noise_dbm - 5.0;
    const double model_db = to_db(snr_threshold(kOfdmMcs[i], 1000, 0.10));
    EXPECT_NEAR(model_db, expected_db, 2.0) << kOfdmMcs[i].name;
  }
}

// Soft-decision link-level simulation of BPSK 1/2 (R. Patidar, S. Roy, T. Henderson,
// A. Chandramohan, "Link-to-system mapping for ns-3 Wi-Fi OFDM error models", WNS3
// 2017; tables published with ns-3's TableBasedErrorRateModel) puts 1 % PER for a
// 1458-byte frame near 1.56 dB (1.12 % at 1.50 dB, 0.64 % at 1.75 dB). The NIST model
// needs 4.58 dB: it is about 3 dB pessimistic, a known property of the hard-decision
// bound. Pinned here so that nobody mistakes it for link-level accuracy.
TEST(PhyRateSelection, NistIsAboutThreeDbPessimisticAgainstLinkLevel) {
  const double nist_db = to_db(snr_threshold(kOfdmMcs[0], 1458, 0.01));
  EXPECT_NEAR(nist_db - 1.56, 3.0, 0.1);
}

TEST(PhyRateSelection, PicksHigherMcsAsSnrRises) {
  const auto pick = [](double db) { return select_mcs(kOfdmMcs, from_db(db)); };
  EXPECT_FALSE(pick(3.0).has_value());  // even 6 Mbit/s fails
  EXPECT_EQ(pick(5.0)->name, "OFDM-6");
  EXPECT_EQ(pick(7.56)->name, "OFDM-9");  // the 0.08 dB window between 9 and 12
  EXPECT_EQ(pick(8.0)->name, "OFDM-12");
  EXPECT_EQ(pick(11.0)->name, "OFDM-18");
  EXPECT_EQ(pick(15.0)->name, "OFDM-24");
  EXPECT_EQ(pick(18.0)->name, "OFDM-36");
  EXPECT_EQ(pick(22.5)->name, "OFDM-48");
  EXPECT_EQ(pick(25.0)->name, "OFDM-54");

  const auto pick_b = [](double db) { return select_mcs(kDsssMcs, from_db(db)); };
  EXPECT_FALSE(pick_b(0.0).has_value());
  EXPECT_EQ(pick_b(1.0)->name, "DSSS-1");
  EXPECT_EQ(pick_b(6.0)->name, "DSSS-2");
  EXPECT_EQ(pick_b(9.0)->name, "CCK-5.5");
  EXPECT_EQ(pick_b(12.0)->name, "CCK-11");

  // Never a slower MCS at a higher SNR.
  std::int64_t last = 0;
  for (double db = 0.0; db <= 30.0; db += 0.1) {
    const auto m = pick(db);
    const std::int64_t rate = m ? m->rate_bps : 0;
    EXPECT_GE(rate, last) << db << " dB";
    last = rate;
  }
}

TEST(PhyRateSelection, CandidateOrderDoesNotMatter) {
  std::vector<Mcs> shuffled{kOfdmMcs[5], kOfdmMcs[0], kOfdmMcs[7], kOfdmMcs[2]};
  EXPECT_EQ(select_mcs(shuffled, from_db(19.0))->name, "OFDM-36");
  EXPECT_EQ(select_mcs(shuffled, from_db(12.0))->name, "OFDM-12");
  EXPECT_FALSE(select_mcs(std::span<const Mcs>{}, from_db(40.0)).has_value());
}

TEST(PhyRateSelection, LargerFramesAndStricterTargetsNeedMoreSnr) {
  EXPECT_LT(snr_threshold(kOfdmMcs[4], 100), snr_threshold(kOfdmMcs[4], 1500));
  EXPECT_LT(snr_threshold(kOfdmMcs[4], 1500, 0.1), snr_threshold(kOfdmMcs[4], 1500, 0.01));
  EXPECT_THROW(snr_threshold(kOfdmMcs[4], 1500, 0.0), std::invalid_argument);
  EXPECT_THROW(snr_threshold(kOfdmMcs[4], 1500, 1.0), std::invalid_argument);
}

// Paper 004's link budget end to end: Pt 20 dBm, Eq. (1) without shadowing, noise
// -93.5 dBm. At 100 m: 20 - 140.046 + 40 = -80.046 dBm, SNR 13.454 dB: 18 Mbit/s
// (24 needs 14.19 dB). At 160 m: -80.046 - 40 log10(1.6) = -88.21 dBm, SNR 5.29 dB:
// 6 Mbit/s. At 170 m (SNR 4.24 dB) no MCS reaches 1 %.
TEST(PhyRateSelection, Paper004LinkBudget) {
  const PropagationModel eq1 = LogDistance{};
  const auto snr_at = [&](double d) {
    return from_db((received_power(eq1, PowerDbm(20.0), d) - PowerDbm(-93.5)).db());
  };
  EXPECT_NEAR(to_db(snr_at(100.0)), 13.454, 1e-3);
  EXPECT_EQ(select_mcs(kOfdmMcs, snr_at(100.0))->name, "OFDM-18");
  EXPECT_EQ(select_mcs(kOfdmMcs, snr_at(160.0))->name, "OFDM-6");
  EXPECT_FALSE(select_mcs(kOfdmMcs, snr_at(170.0)).has_value());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
