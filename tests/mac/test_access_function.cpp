// AccessFunction alone: its phase, the backoff it draws (replayed from an identical
// stream), the whole slots a busy medium takes off it, CW doubling and reset, and
// the retry limits (IEEE 802.11-2012 9.3.3, 9.3.4.3, 9.3.4.4, 9.19.2.5).

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "link/drop_tail_queue.hpp"
#include "mac/access_function.hpp"
#include "mac/frame_exchange.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

class NoDrops : public DropSink {
 public:
  void on_drop(PacketPtr, DropCause, Time) override { ++drops; }
  int drops = 0;
};

constexpr std::uint64_t kStreamKey = 0x5eed;
constexpr Time kSlot = 20_us;

struct Fixture {
  NoDrops sink;
  RandomStream draws{kStreamKey};
  RandomStream replay{kStreamKey};  // the same draws, to predict the function's
  AccessFunction f{AccessCategory::ac_be, EdcaParams{2, 32, 1024, {}},
                   std::make_unique<link::DropTailQueue>(link::QueueLimit{}, sink)};
};

TEST(AccessFunction, StartsIdleWithCwMin) {
  Fixture x;
  EXPECT_EQ(x.f.phase(), AccessPhase::idle);
  EXPECT_FALSE(x.f.contending());
  EXPECT_EQ(x.f.cw, 32);
  EXPECT_EQ(x.f.access_at, Time::max());
}

TEST(AccessFunction, BackoffIsDrawnUniformlyBelowCwFromTheSharedStream) {
  Fixture x;
  for (int i = 0; i < 50; ++i) {
    const Time now = Time::us(i);
    const int slots = x.f.draw_backoff(now, x.draws);
    EXPECT_EQ(slots, static_cast<int>(x.replay.uniform_int(32)));
    EXPECT_GE(slots, 0);
    EXPECT_LT(slots, 32);
    EXPECT_EQ(x.f.backoff_slots, slots);
    EXPECT_EQ(x.f.phase(), AccessPhase::backoff);
    EXPECT_TRUE(x.f.contending());
    EXPECT_EQ(x.f.eligible_from, now);
    EXPECT_EQ(x.f.access_at, Time::max());  // dated by channel access, not here
  }
}

TEST(AccessFunction, FreezeSubtractsOnlyTheWholeIdleSlotsElapsed) {
  Fixture x;
  x.f.draw_backoff(0_us, x.draws);
  x.f.backoff_slots = 10;
  // Counting from 100 us: zero at 100 + 10 slots = 300 us.
  x.f.access_at = 300_us;
  // Busy at 165 us: 3 whole slots (100-160) elapsed, the 4th is partial and not consumed.
  x.f.freeze(165_us, kSlot);
  EXPECT_EQ(x.f.backoff_slots, 7);
  EXPECT_EQ(x.f.access_at, Time::max());
  EXPECT_EQ(x.f.phase(), AccessPhase::backoff);
  // Resumed: 7 slots from the next count start, then busy exactly at a slot boundary
  // (2 slots done): 5 left.
  x.f.access_at = 500_us + 7 * kSlot;
  x.f.freeze(540_us, kSlot);
  EXPECT_EQ(x.f.backoff_slots, 5);
}

TEST(AccessFunction, FreezeBeforeCountingStartsKeepsTheCounter) {
  Fixture x;
  x.f.draw_backoff(0_us, x.draws);
  x.f.backoff_slots = 4;
  x.f.access_at = 50_us + 4 * kSlot;  // AIFS until 50 us, then 4 slots
  x.f.freeze(30_us, kSlot);           // busy during AIFS: no slot counted
  EXPECT_EQ(x.f.backoff_slots, 4);
}

TEST(AccessFunction, ImmediateAccessCommitAndEndOfContentionArePhases) {
  Fixture x;
  x.f.defer_immediately(40_us);
  EXPECT_EQ(x.f.phase(), AccessPhase::deferring);
  EXPECT_TRUE(x.f.contending());
  EXPECT_EQ(x.f.backoff_slots, 0);
  EXPECT_EQ(x.f.eligible_from, 40_us);
  x.f.commit();
  EXPECT_TRUE(x.f.committed());
  EXPECT_TRUE(x.f.contending());
  x.f.access_at = 90_us;
  x.f.end_contention();
  EXPECT_EQ(x.f.phase(), AccessPhase::idle);
  EXPECT_EQ(x.f.access_at, Time::max());
  x.f.hold();
  EXPECT_TRUE(x.f.held());
  EXPECT_FALSE(x.f.contending());
  x.f.release();
  EXPECT_EQ(x.f.phase(), AccessPhase::idle);
}

TEST(AccessFunction, CwDoublesOnEachFailureUpToCwMaxAndResetsWhenTheFrameIsDone) {
  Fixture x;
  const int expected[] = {64, 128, 256, 512, 1024, 1024};
  for (int cw : expected) {
    EXPECT_FALSE(x.f.charge_retry(RetryCount::short_count, 100));
    EXPECT_EQ(x.f.cw, cw);
  }
  EXPECT_EQ(x.f.short_retries, 6);
  EXPECT_EQ(x.f.long_retries, 0);
  x.f.mpdu_done(7_ms);
  EXPECT_EQ(x.f.cw, 32);
  EXPECT_EQ(x.f.short_retries, 0);
  EXPECT_EQ(x.f.last_service_end, 7_ms);
}

TEST(AccessFunction, RetryLimitIsReachedOnTheLimitThAttemptWithoutDoublingAgain) {
  Fixture x;
  // Long limit 4: three failures double CW, the fourth reaches the limit.
  EXPECT_FALSE(x.f.charge_retry(RetryCount::long_count, 4));
  EXPECT_FALSE(x.f.charge_retry(RetryCount::long_count, 4));
  EXPECT_FALSE(x.f.charge_retry(RetryCount::long_count, 4));
  EXPECT_EQ(x.f.cw, 256);
  EXPECT_TRUE(x.f.charge_retry(RetryCount::long_count, 4));
  EXPECT_EQ(x.f.cw, 256);
  EXPECT_EQ(x.f.long_retries, 4);
  EXPECT_EQ(x.f.short_retries, 0);  // the counts are apart
}

// The retry counts are one byte each (issue 43 §3): the largest limit the standard
// allows, 255 (dot11ShortRetryLimit, dot11LongRetryLimit), is still reached on its
// 255th attempt, by either count and by the ns-3 station count; a larger one is refused.
TEST(AccessFunction, TheLargestRetryLimitIsReachedOnItsLastAttempt) {
  Fixture x;
  x.f.station_count_cw = true;
  for (int i = 1; i < kMaxRetryLimit; ++i) ASSERT_FALSE(x.f.charge_retry(RetryCount::short_count, kMaxRetryLimit)) << i;
  EXPECT_EQ(x.f.station_retries, kMaxRetryLimit - 1);
  EXPECT_TRUE(x.f.charge_retry(RetryCount::short_count, kMaxRetryLimit));
  EXPECT_EQ(x.f.short_retries, kMaxRetryLimit);
  EXPECT_EQ(x.f.station_retries, kMaxRetryLimit);
  EXPECT_EQ(x.f.cw, 1024);
  x.f.mpdu_done(1_ms, /*given_up=*/true);
  EXPECT_EQ(x.f.station_retries, kMaxRetryLimit);  // ns-3: only a success or the next failure resets it
  for (int i = 1; i < kMaxRetryLimit; ++i) ASSERT_FALSE(x.f.charge_retry(RetryCount::long_count, kMaxRetryLimit)) << i;
  EXPECT_TRUE(x.f.charge_retry(RetryCount::long_count, kMaxRetryLimit));
  EXPECT_EQ(x.f.long_retries, kMaxRetryLimit);

  EXPECT_NO_THROW(check_retry_limits(kMaxRetryLimit, kMaxRetryLimit));
  EXPECT_THROW(check_retry_limits(kMaxRetryLimit + 1, 4), std::invalid_argument);
  EXPECT_THROW(check_retry_limits(7, kMaxRetryLimit + 1), std::invalid_argument);
  EXPECT_THROW(check_retry_limits(0, 4), std::invalid_argument);
}

TEST(AccessFunction, CtsResetsOnlyTheShortCount) {
  Fixture x;
  x.f.charge_retry(RetryCount::short_count, 7);
  x.f.charge_retry(RetryCount::long_count, 4);
  x.f.cts_received();
  EXPECT_EQ(x.f.short_retries, 0);
  EXPECT_EQ(x.f.long_retries, 1);
  EXPECT_EQ(x.f.cw, 128);  // the window stays doubled until the frame is done
}

TEST(AccessFunction, NewParametersMoveAWindowAtResetAndClampADoubledOne) {
  Fixture x;
  x.f.set_params(EdcaParams{2, 16, 1024, {}});
  EXPECT_EQ(x.f.cw, 16);  // at reset: the new CWmin
  x.f.charge_retry(RetryCount::short_count, 7);
  x.f.charge_retry(RetryCount::short_count, 7);
  EXPECT_EQ(x.f.cw, 64);
  x.f.set_params(EdcaParams{2, 8, 32, {}});
  EXPECT_EQ(x.f.cw, 32);  // doubled: kept within the new bounds
}

TEST(AccessFunction, FramesAreDataManagementOrNone) {
  Fixture x;
  EXPECT_FALSE(x.f.has_frame());
  EXPECT_FALSE(x.f.has_frame_ready(0_us));
  x.f.queue_management(ManagementFrame{});
  EXPECT_TRUE(x.f.has_frame());
  EXPECT_TRUE(x.f.has_frame_ready(0_us));
  EXPECT_FALSE(x.f.has_mpdu());  // waiting, not taken
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
