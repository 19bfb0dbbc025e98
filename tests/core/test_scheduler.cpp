#include "core/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/random.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

TEST(Scheduler, RunsEventsInTimeOrder) {
  Scheduler s;
  std::vector<int> order;
  s.schedule_at(30_us, [&] { order.push_back(3); });
  s.schedule_at(10_us, [&] { order.push_back(1); });
  s.schedule_at(20_us, [&] { order.push_back(2); });
  s.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s.now(), 30_us);
  EXPECT_EQ(s.executed(), 3u);
  EXPECT_EQ(s.pending(), 0u);
}

TEST(Scheduler, DelayPastTheEndOfTimeWaitsAtTheEnd) {
  // A period longer than what is left of Time's range (a long run's last timer)
  // is kept pending at Time::max instead of failing; no bounded run reaches it.
  Scheduler s;
  bool ran = false;
  s.schedule_at(Time::s(9000000), [] {});
  s.run_until(Time::s(9000000));
  const EventId far = s.schedule_in(Time::s(1000000), [&] { ran = true; });
  EXPECT_TRUE(s.is_pending(far));
  s.run_until(Time::s(9100000));
  EXPECT_FALSE(ran);
  EXPECT_TRUE(s.cancel(far));
}

TEST(Scheduler, EqualTimesLeaveInInsertionOrder) {
  Scheduler s;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i) s.schedule_at(5_us, [&order, i] { order.push_back(i); });
  // Events scheduled for "now" from inside a handler also queue behind the others.
  s.schedule_at(5_us, [&] { s.schedule_in(Time::zero(), [&] { order.push_back(1000); }); });
  s.run();
  ASSERT_EQ(order.size(), 101u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
  EXPECT_EQ(order.back(), 1000);
}

TEST(Scheduler, CancelThroughHandle) {
  Scheduler s;
  int fired = 0;
  const EventId a = s.schedule_at(10_us, [&] { fired += 1; });
  const EventId b = s.schedule_at(20_us, [&] { fired += 10; });
  EXPECT_TRUE(s.is_pending(a));
  EXPECT_TRUE(s.cancel(a));
  EXPECT_FALSE(s.is_pending(a));
  EXPECT_FALSE(s.cancel(a));  // a second cancel is harmless
  EXPECT_EQ(s.pending(), 1u);
  s.run();
  EXPECT_EQ(fired, 10);
  EXPECT_FALSE(s.cancel(b));  // already ran: stale handle, harmless
}

TEST(Scheduler, StaleHandleDoesNotCancelTheSlotsNextEvent) {
  Scheduler s;
  int fired = 0;
  const EventId a = s.schedule_at(1_us, [&] { ++fired; });
  s.run();
  // The freed slot is reused by the next event; the old handle must not reach it.
  const EventId b = s.schedule_at(2_us, [&] { fired += 100; });
  EXPECT_EQ(a.slot(), b.slot());
  EXPECT_FALSE(s.cancel(a));
  s.run();
  EXPECT_EQ(fired, 101);
}

TEST(Scheduler, HandlerCanCancelAndReschedule) {
  Scheduler s;
  std::vector<Time> fired;
  EventId timeout = s.schedule_at(100_us, [&] { fired.push_back(s.now()); });
  s.schedule_at(50_us, [&] {
    s.cancel(timeout);  // e.g. an ACK arrived before the ACK timeout
    timeout = s.schedule_in(70_us, [&] { fired.push_back(s.now()); });
  });
  s.run();
  EXPECT_EQ(fired, (std::vector<Time>{120_us}));
}

TEST(Scheduler, RunUntilStopsAtTheBoundaryInclusive) {
  Scheduler s;
  std::vector<int> order;
  s.schedule_at(10_us, [&] { order.push_back(1); });
  s.schedule_at(20_us, [&] { order.push_back(2); });
  s.schedule_at(21_us, [&] { order.push_back(3); });
  s.run_until(20_us);
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.now(), 20_us);
  EXPECT_EQ(s.pending(), 1u);
  s.run_until(1_ms);
  EXPECT_EQ(order.size(), 3u);
  EXPECT_EQ(s.now(), 1_ms);  // time advances to the end even with nothing left to do
}

TEST(Scheduler, ScheduleBetweenARunsEndAndTheNextEvent) {
  // run_until looked at the 30 us event and left it queued; an event scheduled
  // afterwards at 25 us must still run first.
  Scheduler s;
  std::vector<int> order;
  s.schedule_at(10_us, [&] { order.push_back(1); });
  s.schedule_at(30_us, [&] { order.push_back(3); });
  s.run_until(20_us);
  s.schedule_at(25_us, [&] { order.push_back(2); });
  s.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(Scheduler, ScheduleAfterRunPoppedCancelledEventsPastNow) {
  // run() ends when the queue is empty; the last entries it popped were
  // cancelled and later than the last event that ran, so now() stays at 10 us.
  // Scheduling at 15 us is legal and must work.
  Scheduler s;
  std::vector<int> order;
  s.schedule_at(10_us, [&] { order.push_back(1); });
  const EventId late = s.schedule_at(20_us, [&] { order.push_back(99); });
  s.cancel(late);
  s.run();
  EXPECT_EQ(s.now(), 10_us);
  s.schedule_at(15_us, [&] { order.push_back(2); });
  s.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

TEST(Scheduler, CancelTakesTheEventOutAndFreesItsSlotAtOnce) {
  // A cancelled timer leaves the event set at once: its slot serves the next
  // event, and nothing is popped for it later.
  Scheduler s;
  std::vector<int> order;
  const EventId a = s.schedule_at(10_us, [&] { order.push_back(99); });
  s.schedule_at(20_us, [&] { order.push_back(2); });
  EXPECT_TRUE(s.cancel(a));
  const EventId b = s.schedule_at(10_us, [&] { order.push_back(1); });
  EXPECT_EQ(b.slot(), a.slot());
  EXPECT_FALSE(s.cancel(a));  // stale: the slot's new event is untouched
  EXPECT_TRUE(s.is_pending(b));
  s.run();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.executed(), 2u);
}

TEST(Scheduler, ADefaultHandleMatchesNoEvent) {
  // The handle names its slot by its key's low bits; a default handle names slot
  // 0xffffff, which the scheduler never creates (it refuses that many pending).
  Scheduler s;
  bool ran = false;
  const EventId first = s.schedule_at(1_us, [&] { ran = true; });
  ASSERT_EQ(first.slot(), 0u);
  EXPECT_FALSE(s.is_pending(EventId{}));
  EXPECT_FALSE(s.cancel(EventId{}));
  s.run();
  EXPECT_TRUE(ran);
}

TEST(Scheduler, CancelInACrowdedBucketIsSkippedWhenPopped) {
  // 300 events at one instant share a bucket longer than RadixQueue::erase
  // searches: the cancelled one keeps its slot and is dropped when its turn comes.
  Scheduler s;
  std::vector<int> order;
  std::vector<EventId> ids;
  for (int i = 0; i < 300; ++i) ids.push_back(s.schedule_at(5_us, [&order, i] { order.push_back(i); }));
  EXPECT_TRUE(s.cancel(ids[299]));
  EXPECT_TRUE(s.cancel(ids[7]));
  EXPECT_EQ(s.pending(), 298u);
  const EventId next = s.schedule_at(6_us, [&] { order.push_back(1000); });
  EXPECT_NE(next.slot(), ids[299].slot());
  s.run();
  std::vector<int> expected;
  for (int i = 0; i < 299; ++i) {
    if (i != 7) expected.push_back(i);
  }
  expected.push_back(1000);
  EXPECT_EQ(order, expected);
  EXPECT_EQ(s.pending(), 0u);
}

TEST(Scheduler, ACallableWhoseCopyThrowsLeavesNothingBehind) {
  struct CopyThrows {
    CopyThrows() = default;
    CopyThrows(const CopyThrows&) { throw std::runtime_error("copy"); }
    CopyThrows(CopyThrows&&) noexcept = default;
    void operator()() const {}
  };
  Scheduler s;
  const EventId first = s.schedule_at(1_us, [] {});
  s.run();
  const CopyThrows lvalue;
  EXPECT_THROW(s.schedule_at(2_us, lvalue), std::runtime_error);
  EXPECT_EQ(s.pending(), 0u);
  // The slot went back to the pool: the next event gets it again.
  const EventId next = s.schedule_at(3_us, [] {});
  EXPECT_EQ(next.slot(), first.slot());
  s.run();
  EXPECT_EQ(s.executed(), 2u);
}

TEST(Scheduler, StopReturnsAfterCurrentEvent) {
  Scheduler s;
  int count = 0;
  for (int i = 1; i <= 10; ++i) s.schedule_at(Time::us(i), [&] {
      if (++count == 4) s.stop();
    });
  s.run();
  EXPECT_EQ(count, 4);
  EXPECT_EQ(s.now(), 4_us);
  EXPECT_TRUE(s.stopped());
  s.run();  // resumes
  EXPECT_EQ(count, 10);
}

TEST(Scheduler, RejectsEventsInThePast) {
  Scheduler s;
  s.schedule_at(10_us, [] {});
  s.run();
  EXPECT_THROW(s.schedule_at(5_us, [] {}), std::logic_error);
}

TEST(Scheduler, ExceptionInHandlerLeavesSchedulerUsable) {
  Scheduler s;
  int later = 0;
  s.schedule_at(1_us, [] { throw std::runtime_error("boom"); });
  s.schedule_at(2_us, [&] { ++later; });
  EXPECT_THROW(s.run(), std::runtime_error);
  EXPECT_EQ(s.pending(), 1u);
  s.run();
  EXPECT_EQ(later, 1);
}

TEST(Scheduler, ContextIsVisibleDuringTheEvent) {
  Scheduler s;
  ContextId seen = kNoContext;
  s.schedule_at(1_us, [&] { seen = s.current_context(); }, 7);
  s.run();
  EXPECT_EQ(seen, 7u);
  EXPECT_EQ(s.current_context(), kNoContext);
}

// Against a reference: random schedules and cancels must pop in exactly the order
// of a sorted (time, insertion) list.
TEST(Scheduler, MatchesSortedReferenceUnderRandomLoad) {
  Scheduler s;
  RandomStream rng(42);
  struct Ref { std::int64_t t; int id; bool cancelled; };
  std::vector<Ref> ref;
  std::vector<EventId> ids;
  std::vector<int> popped;
  for (int i = 0; i < 5000; ++i) {
    const auto t = static_cast<std::int64_t>(rng.uniform_int(1000));  // many equal times
    ref.push_back({t, i, false});
    ids.push_back(s.schedule_at(Time::ps(t), [&popped, i] { popped.push_back(i); }));
  }
  for (int i = 0; i < 5000; i += 3) {
    ASSERT_TRUE(s.cancel(ids[i]));
    ref[i].cancelled = true;
  }
  std::stable_sort(ref.begin(), ref.end(), [](const Ref& a, const Ref& b) { return a.t < b.t; });
  std::vector<int> expected;
  for (const Ref& r : ref)
    if (!r.cancelled) expected.push_back(r.id);
  s.run();
  EXPECT_EQ(popped, expected);
}

// Handlers that schedule and cancel, delays from picoseconds to seconds, runs cut
// into slices at random ends with events scheduled between them: every event that
// was not cancelled runs once, in (time, scheduling order).
TEST(Scheduler, RunsInOrderUnderNestedSchedulingAndSlicedRuns) {
  struct Ran { std::int64_t t; int id; };
  struct World {
    Scheduler s;
    RandomStream rng{11};
    std::vector<Ran> ran;
    std::vector<EventId> handles;
    std::vector<bool> cancelled;
    int budget = 60000;
    Time random_delay() {
      // 10^0 .. 10^12 ps, with many zero delays (same-time events).
      if (rng.uniform01() < 0.2) return Time::zero();
      return Time::ps(static_cast<std::int64_t>(std::pow(10.0, rng.uniform(0.0, 12.0))));
    }
    void add(Time at) {
      const int id = static_cast<int>(handles.size());
      cancelled.push_back(false);
      handles.push_back(s.schedule_at(at, [this, id] { run(id); }));
    }
    void run(int id) {
      ran.push_back({s.now().picoseconds(), id});
      const int children = budget > 0 ? static_cast<int>(rng.uniform_int(3)) : 0;
      for (int c = 0; c < children; ++c, --budget) add(s.now() + random_delay());
      if (rng.uniform01() < 0.1) {  // cancel a random earlier event, maybe already run
        const auto victim = static_cast<std::size_t>(rng.uniform_int(handles.size()));
        if (s.cancel(handles[victim])) cancelled[victim] = true;
      }
    }
  };
  World w;
  Scheduler& s = w.s;
  auto& ran = w.ran;
  auto& cancelled = w.cancelled;
  auto& budget = w.budget;
  auto& rng = w.rng;
  auto random_delay = [&] { return w.random_delay(); };
  auto add = [&](Time at) { w.add(at); };
  for (int i = 0; i < 200; ++i) add(random_delay());
  while (s.pending() > 0) {
    s.run_until(s.now() + random_delay());
    if (budget > 0 && rng.uniform01() < 0.5) {  // from outside, between slices
      add(s.now() + random_delay());
      --budget;
    }
  }
  std::vector<Ran> expected_order = ran;
  std::stable_sort(expected_order.begin(), expected_order.end(), [](const Ran& a, const Ran& b) {
    return a.t != b.t ? a.t < b.t : a.id < b.id;
  });
  ASSERT_EQ(ran.size(), expected_order.size());
  for (std::size_t i = 0; i < ran.size(); ++i) {
    ASSERT_EQ(ran[i].id, expected_order[i].id) << "event " << i;
  }
  const auto not_cancelled = std::count(cancelled.begin(), cancelled.end(), false);
  EXPECT_EQ(static_cast<std::ptrdiff_t>(ran.size()), not_cancelled);
  EXPECT_GT(ran.size(), 20000u);
}

TEST(Scheduler, SteadyStateReusesSlots) {
  // The hold model: each event schedules one successor. The slot pool must not
  // grow past the number of pending events (no allocation per event).
  Scheduler s;
  RandomStream rng(1);
  int remaining = 100000;
  struct Hold {
    Scheduler* s; RandomStream* rng; int* remaining;
    void operator()() const {
      if (--*remaining > 0) s->schedule_in(Time::ps(1 + static_cast<std::int64_t>(rng->uniform_int(1000))), *this);
    }
  };
  for (int i = 0; i < 100; ++i) s.schedule_at(Time::ps(i), Hold{&s, &rng, &remaining});
  s.run();
  EXPECT_LE(remaining, 0);
  EXPECT_EQ(s.pending(), 0u);
}

TEST(Scheduler, SequenceWrapRenumbersAndKeepsFifoOrder) {
  // Start just below the 40-bit sequence limit: the renumbering happens inside
  // the handler below, after its own event has left the queue.
  Scheduler s(Scheduler::kMaxSequence - 25);
  std::vector<int> order;
  for (int i = 0; i < 20; ++i) s.schedule_at(Time::us(i % 2), [&order, i] { order.push_back(i); });
  // 21 events use sequence numbers up to the limit - 5; the handler crosses it.
  s.schedule_at(Time::us(1), [&] {
    for (int i = 100; i < 110; ++i) s.schedule_in(Time::zero(), [&order, i] { order.push_back(i); });
  });
  s.run();
  std::vector<int> expected;
  for (int i = 0; i < 20; i += 2) expected.push_back(i);
  for (int i = 1; i < 20; i += 2) expected.push_back(i);
  for (int i = 100; i < 110; ++i) expected.push_back(i);
  EXPECT_EQ(order, expected);
}

TEST(Scheduler, HandlesGivenBeforeARenumberingStillNameTheirEvents) {
  // The slot keeps the order its event was scheduled under, not its renumbered
  // key: a handle from before still tells whether its event is pending and
  // cancels it (the entry, under its new key, is dropped when popped).
  Scheduler s(Scheduler::kMaxSequence - 2);
  std::vector<int> ran;
  const EventId early = s.schedule_at(10_us, [&] { ran.push_back(1); });
  const EventId kept = s.schedule_at(20_us, [&] { ran.push_back(2); });
  for (int i = 0; i < 5; ++i) s.schedule_at(30_us, [&ran, i] { ran.push_back(100 + i); });  // renumbers
  EXPECT_TRUE(s.is_pending(early));
  EXPECT_TRUE(s.is_pending(kept));
  EXPECT_TRUE(s.cancel(early));
  EXPECT_FALSE(s.is_pending(early));
  EXPECT_EQ(s.pending(), 6u);
  s.run_until(25_us);
  EXPECT_FALSE(s.is_pending(kept));  // it ran
  EXPECT_FALSE(s.cancel(kept));
  s.run();
  EXPECT_EQ(ran, (std::vector<int>{2, 100, 101, 102, 103, 104}));
}

TEST(Scheduler, FingerprintTracksTheEventTrace) {
  auto trace = [](std::int64_t shift) {
    Scheduler s;
    s.enable_fingerprint();
    for (int i = 0; i < 50; ++i) s.schedule_at(Time::us(i * 3 + (i == 25 ? shift : 0)), [] {}, static_cast<ContextId>(i % 5));
    s.run();
    return s.fingerprint()->value();
  };
  EXPECT_EQ(trace(0), trace(0));
  EXPECT_NE(trace(0), trace(1));
}


// Batched events (Scheduler::reserve_sequences, schedule_reserved, advance_inline)
// against the same events scheduled one by one: a random workload of handlers that
// schedule children (many at the same instant), cancel, and start bursts (a group
// of events at increasing times, as a frame's arrivals at its receivers); run in
// random slices (end times and event budgets). Both modes must run the same events
// in the same order, count them alike and leave the same fingerprint.
struct BurstWorld {
  struct Ran { std::int64_t t; int id; };
  struct Burst {
    std::vector<Time> at;
    std::vector<int> ids;
    std::size_t next = 0;
    std::uint64_t sequence = 0, epoch = 0;
  };
  explicit BurstWorld(bool batch, std::uint64_t first_sequence = 0) : s(first_sequence), batched(batch) {
    s.enable_fingerprint();
  }
  Scheduler s;
  bool batched;
  RandomStream rng{5};
  std::vector<Ran> ran;
  std::vector<EventId> handles;
  std::vector<Burst> bursts;
  int next_id = 0;
  int budget = 40000;

  Time random_delay() {
    if (rng.uniform01() < 0.25) return Time::zero();
    return Time::ps(static_cast<std::int64_t>(std::pow(10.0, rng.uniform(0.0, 7.0))));
  }
  void add(Time at) {
    const int id = next_id++;
    handles.push_back(s.schedule_at(at, [this, id] { run(id); }, static_cast<ContextId>(id % 7)));
  }
  void burst() {
    Burst b;
    const int n = 1 + static_cast<int>(rng.uniform_int(12));
    Time t = s.now() + random_delay();
    for (int k = 0; k < n; ++k) {
      if (rng.uniform01() < 0.7) t += random_delay();  // non-decreasing, with ties
      b.at.push_back(t);
      b.ids.push_back(next_id++);
    }
    budget -= n;
    if (!batched) {
      for (int k = 0; k < n; ++k) {
        const int id = b.ids[static_cast<std::size_t>(k)];
        s.schedule_at(b.at[static_cast<std::size_t>(k)], [this, id] { run(id); }, static_cast<ContextId>(id % 7));
      }
      return;
    }
    b.sequence = s.reserve_sequences(static_cast<std::uint64_t>(n));
    b.epoch = s.reservation_epoch();
    const auto index = bursts.size();
    bursts.push_back(std::move(b));
    const Burst& f = bursts.back();
    s.schedule_reserved(f.at[0], f.sequence, f.epoch, [this, index] { walk(index); },
                        static_cast<ContextId>(f.ids[0] % 7));
  }
  void walk(std::size_t index) {
    for (;;) {
      Burst& b = bursts[index];
      const int id = b.ids[b.next++];
      run(id);
      Burst& after = bursts[index];  // run() may have grown the vector
      if (after.next == after.ids.size()) return;
      const Time at = after.at[after.next];
      const auto ctx = static_cast<ContextId>(after.ids[after.next] % 7);
      const std::uint64_t sequence = after.sequence + after.next;  // the one it would have had alone
      if (!s.advance_inline(at, sequence, after.epoch, ctx)) {
        s.schedule_reserved(at, sequence, after.epoch, [this, index] { walk(index); }, ctx);
        return;
      }
    }
  }
  void run(int id) {
    ran.push_back({s.now().picoseconds(), id});
    if (budget <= 0) return;
    const int children = static_cast<int>(rng.uniform_int(3));
    for (int c = 0; c < children; ++c, --budget) add(s.now() + random_delay());
    if (rng.uniform01() < 0.15) burst();
    if (rng.uniform01() < 0.05 && !handles.empty()) {
      s.cancel(handles[static_cast<std::size_t>(rng.uniform_int(handles.size()))]);
    }
    if (rng.uniform01() < 0.002) s.stop();
  }
  void go() {
    for (int i = 0; i < 100; ++i) add(random_delay());
    for (int i = 0; i < 20; ++i) burst();
    RandomStream slices(9);
    while (s.pending() > 0) {
      const auto events = 1 + static_cast<std::uint64_t>(slices.uniform_int(50));
      s.run_until(s.now() + Time::ps(static_cast<std::int64_t>(std::pow(10.0, slices.uniform(0.0, 7.0)))), events);
    }
  }
};

TEST(Scheduler, AdvanceInlineOnlyInsideARunUntilNotPastItsEndNorAfterAStop) {
  // advance_inline folds "a run_until runs, no stop was requested, and the event is
  // not past the run's end" into one comparison (issue 43 §4): each case apart.
  Scheduler s;
  const std::uint64_t seq = s.reserve_sequences(8);
  const std::uint64_t epoch = s.reservation_epoch();
  EXPECT_FALSE(s.advance_inline(Time::ps(5), seq, epoch, 1));  // no run yet
  std::vector<std::pair<std::int64_t, bool>> seen;  // (now, advanced) inside the events
  const auto inline_at = [&](std::int64_t t, std::uint64_t k) {
    const bool advanced = s.advance_inline(Time::ps(t), seq + k, epoch, 1);
    seen.emplace_back(s.now().picoseconds(), advanced);
  };
  s.schedule_reserved(Time::ps(10), seq, epoch, [&] {
    inline_at(25, 1);  // at the run's end: runs inline
    inline_at(26, 2);  // past it: not
  });
  s.run_until(Time::ps(25));
  EXPECT_FALSE(s.advance_inline(Time::ps(25), seq + 3, epoch, 1));  // the run returned
  s.schedule_reserved(Time::ps(30), seq + 4, epoch, [&] {
    inline_at(40, 5);  // runs inline
    s.stop();
    inline_at(50, 6);  // not after a stop
  });
  s.run_until(Time::ps(100));
  EXPECT_FALSE(s.advance_inline(Time::ps(100), seq + 7, epoch, 1));  // stopped and returned
  const std::vector<std::pair<std::int64_t, bool>> expected{{25, true}, {25, false}, {40, true}, {40, false}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(s.executed(), 4u);  // two events, two inline
}

TEST(Scheduler, BatchedEventsRunAsIfScheduledOneByOne) {
  BurstWorld one_by_one(false), batched(true);
  one_by_one.go();
  batched.go();
  ASSERT_EQ(batched.ran.size(), one_by_one.ran.size());
  for (std::size_t i = 0; i < batched.ran.size(); ++i) {
    ASSERT_EQ(batched.ran[i].id, one_by_one.ran[i].id) << "event " << i;
    ASSERT_EQ(batched.ran[i].t, one_by_one.ran[i].t) << "event " << i;
  }
  EXPECT_EQ(batched.s.executed(), one_by_one.s.executed());
  EXPECT_EQ(batched.s.fingerprint()->value(), one_by_one.s.fingerprint()->value());
  EXPECT_GT(batched.ran.size(), 20000u);
}

TEST(Scheduler, BatchedEventsSurviveARenumbering) {
  // Reservations made before a renumbering are void: the events still all run, in
  // time order, and each exactly once.
  BurstWorld w(true, Scheduler::kMaxSequence - 5000);
  w.go();
  EXPECT_GT(w.s.reservation_epoch(), 0u);
  std::vector<int> ids;
  for (std::size_t i = 0; i < w.ran.size(); ++i) {
    if (i > 0) {
      ASSERT_GE(w.ran[i].t, w.ran[i - 1].t);
    }
    ids.push_back(w.ran[i].id);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
