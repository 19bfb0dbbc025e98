#include "core/fingerprint.hpp"

#include <gtest/gtest.h>

#include "core/scheduler.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

TEST(Fingerprint, Fnv1aMatchesThePublishedTestVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);  // the offset basis
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

Fingerprint one_of_each() {
  Fingerprint f;
  f.event(5_us, 3);
  f.frame(7_us, 2, "rts", 20, 352_us);
  f.delivery(1_ms, 4, 0, 1500);
  f.drop(2_ms, 1, "retry_limit", 1, 540);
  return f;
}

TEST(Fingerprint, TheFoldIsTheDocumentedOne) {
  // Computed apart from this code, in Python, from docs/fingerprints.md's
  // definition (SplitMix64's finaliser over state ^ word, FNV-1a for names): a
  // stored fingerprint means the same on every platform and compiler.
  EXPECT_EQ(one_of_each().value(), 0x19465f2112d89f8eull);
  EXPECT_EQ(one_of_each().hex(), "19465f2112d89f8e");
  EXPECT_EQ(Fingerprint{}.hex(), "9e3779b97f4a7c15");
  const Fingerprint::Counts c = one_of_each().counts();
  EXPECT_EQ(c, (Fingerprint::Counts{1, 1, 1, 1}));
}

TEST(Fingerprint, EveryFieldOfEveryRecordCounts) {
  const std::uint64_t base = one_of_each().value();
  const auto with = [](auto change) {
    Fingerprint f;
    change(f);
    return f.value();
  };
  const auto events = [](Fingerprint& f, Time t, std::uint32_t c) {
    f.event(t, c);
    f.frame(7_us, 2, "rts", 20, 352_us);
    f.delivery(1_ms, 4, 0, 1500);
    f.drop(2_ms, 1, "retry_limit", 1, 540);
  };
  EXPECT_EQ(with([&](Fingerprint& f) { events(f, 5_us, 3); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { events(f, 5_us + 1_ps, 3); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { events(f, 5_us, 4); }), base);
  const auto frames = [](Fingerprint& f, Time t, std::uint32_t tx, const char* kind, std::uint32_t bytes, Time air) {
    f.event(5_us, 3);
    f.frame(t, tx, kind, bytes, air);
    f.delivery(1_ms, 4, 0, 1500);
    f.drop(2_ms, 1, "retry_limit", 1, 540);
  };
  EXPECT_NE(with([&](Fingerprint& f) { frames(f, 8_us, 2, "rts", 20, 352_us); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { frames(f, 7_us, 1, "rts", 20, 352_us); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { frames(f, 7_us, 2, "cts", 20, 352_us); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { frames(f, 7_us, 2, "rts", 14, 352_us); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { frames(f, 7_us, 2, "rts", 20, 353_us); }), base);
  const auto tail = [](Fingerprint& f, std::uint32_t flow, std::uint32_t bytes, const char* cause) {
    f.event(5_us, 3);
    f.frame(7_us, 2, "rts", 20, 352_us);
    f.delivery(1_ms, 4, flow, bytes);
    f.drop(2_ms, 1, cause, 1, 540);
  };
  EXPECT_NE(with([&](Fingerprint& f) { tail(f, 1, 1500, "retry_limit"); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { tail(f, 0, 1499, "retry_limit"); }), base);
  EXPECT_NE(with([&](Fingerprint& f) { tail(f, 0, 1500, "queue_overflow"); }), base);
}

TEST(Fingerprint, RecordsOfDifferentKindsDoNotReadAlike) {
  // The same subject and time as an event, a delivery or a drop: three values.
  Fingerprint a, b, c;
  a.event(1_ms, 4);
  b.delivery(1_ms, 4, 0, 0);
  c.drop(1_ms, 4, "", 0, 0);
  EXPECT_NE(a.value(), b.value());
  EXPECT_NE(b.value(), c.value());
  EXPECT_NE(a.value(), c.value());
}

TEST(Fingerprint, OrderMatters) {
  Fingerprint a, b;
  a.event(1_us, 1);
  a.event(1_us, 2);
  b.event(1_us, 2);
  b.event(1_us, 1);
  EXPECT_NE(a.value(), b.value());
}

// The scheduler's part: every executed event, nothing while off, and never an
// observer's event.
TEST(Fingerprint, SchedulerFoldsEveryEventOnlyWhenEnabled) {
  Scheduler off;
  off.schedule_at(1_us, [] {}, 0);
  off.run();
  EXPECT_EQ(off.fingerprint(), nullptr);
  EXPECT_EQ(off.executed(), 1u);

  Scheduler on;
  on.enable_fingerprint();
  ASSERT_NE(on.fingerprint(), nullptr);
  on.schedule_at(1_us, [] {}, 0);
  on.schedule_at(2_us, [] {}, 7);
  const EventId cancelled = on.schedule_at(3_us, [] {}, 1);
  on.cancel(cancelled);
  on.run();
  Fingerprint expected;
  expected.event(1_us, 0);
  expected.event(2_us, 7);
  EXPECT_EQ(on.fingerprint()->value(), expected.value());
  EXPECT_EQ(on.fingerprint()->counts().events, 2u);
}

TEST(Fingerprint, ObserverEventsLeaveTheFingerprintAlone) {
  const auto trace = [](bool observed) {
    Scheduler s;
    s.enable_fingerprint();
    int ticks = 0;
    for (int i = 0; i < 20; ++i) s.schedule_at(Time::us(10 * i), [] {}, static_cast<ContextId>(i % 3));
    if (observed) {
      for (int i = 0; i < 20; ++i) s.schedule_at(Time::us(10 * i + 5), [&ticks] { ++ticks; }, kObserverContext);
    }
    s.run();
    EXPECT_EQ(ticks, observed ? 20 : 0);
    return s.fingerprint()->value();
  };
  EXPECT_EQ(trace(true), trace(false));
}

TEST(Fingerprint, LayersAddTheirRecordsBetweenEvents) {
  // A record folded from inside an event lands after that event's own record.
  Scheduler s;
  s.enable_fingerprint();
  s.schedule_at(1_us, [&s] { s.fingerprint()->delivery(s.now(), 2, 0, 100); }, 2);
  s.run();
  Fingerprint expected;
  expected.event(1_us, 2);
  expected.delivery(1_us, 2, 0, 100);
  EXPECT_EQ(s.fingerprint()->value(), expected.value());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
