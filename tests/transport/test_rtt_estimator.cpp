// RFC 6298's estimator: first and later samples, the clamps, back-off.
#include <gtest/gtest.h>

#include <stdexcept>

#include "transport/rtt_estimator.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using namespace time_literals;

TEST(RttEstimator, InitialRtoIsOneSecond) {
  RttEstimator e{RtoLimits{}};
  EXPECT_FALSE(e.has_sample());
  EXPECT_EQ(e.rto(), 1_s);
}

TEST(RttEstimator, SamplesFollowRfc6298) {
  RtoLimits limits;
  limits.min = 1_ms;
  RttEstimator e{limits};
  e.add_sample(100_ms);  // 2.2: SRTT = R, RTTVAR = R/2, RTO = R + 4 R/2
  EXPECT_EQ(e.srtt(), 100_ms);
  EXPECT_EQ(e.rttvar(), 50_ms);
  EXPECT_EQ(e.rto(), 300_ms);
  e.add_sample(200_ms);  // 2.3: RTTVAR = 3/4 * 50 + 1/4 * 100 = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5
  EXPECT_EQ(e.rttvar(), 62'500_us);
  EXPECT_EQ(e.srtt(), 112'500_us);
  EXPECT_EQ(e.rto(), 362'500_us);
}

TEST(RttEstimator, ClampsAndGranularity) {
  RttEstimator e{RtoLimits{}};  // min 200 ms
  e.add_sample(10_ms);
  EXPECT_EQ(e.rto(), 200_ms);
  RtoLimits no_floor;
  no_floor.min = 1_us;
  no_floor.granularity = 10_ms;
  RttEstimator g{no_floor};
  g.add_sample(2_ms);
  for (int i = 0; i < 50; ++i) g.add_sample(2_ms);  // RTTVAR decays towards 0: G takes over
  EXPECT_EQ(g.rto(), g.srtt() + 10_ms);
}

TEST(RttEstimator, BackOffDoublesUpToTheMaximumAndASampleResetsIt) {
  RttEstimator e{RtoLimits{}};
  const Time expected[] = {2_s, 4_s, 8_s, 16_s, 32_s, 60_s, 60_s};
  for (Time t : expected) {
    e.back_off();
    EXPECT_EQ(e.rto(), t);
  }
  EXPECT_EQ(e.backoffs(), 7);
  e.add_sample(100_ms);
  EXPECT_EQ(e.backoffs(), 0);
  EXPECT_EQ(e.rto(), 300_ms);
}

TEST(RttEstimator, RejectsInconsistentLimits) {
  RtoLimits bad;
  bad.max = 100_ms;
  EXPECT_THROW(RttEstimator{bad}, std::invalid_argument);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
