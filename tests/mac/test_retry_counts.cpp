// mac.retry_counts (mac/mac_params.hpp, docs/mac.md "Retries"): three readings of
// which counts give up a frame protected by RTS/CTS.
//
// A and C, hidden from each other, both saturate B (the hidden pair every study of
// the project is about): their RTS frames collide at B, a CTS sometimes answers, and
// the DATA frame after it is sometimes lost to the other's RTS, so failed RTS
// frames, CTS frames and failed DATA frames mix within one frame's life. Every failure A reports (a retry or a
// drop) is classified by the last frame A sent (an RTS: no CTS came; a DATA frame: no
// ACK came), and each reading's rule says whether the frame is given up there. The
// run's own reading must agree at every failure, and each other reading must
// disagree at some failure of the same run, so that a MAC following the wrong one
// fails the test.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "mac/mac.hpp"
#include "mac_world.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::MacWorld;

constexpr int kShortLimit = 7;  // dot11ShortRetryLimit's default
constexpr int kLongLimit = 4;   // dot11LongRetryLimit's default
constexpr std::uint32_t kBytes = 1000;

// What one frame's failures were, as each reading counts them.
struct Failures {
  int rts_in_a_row = 0;  // failed RTS frames since the last CTS (or the frame's start)
  int rts = 0;           // failed RTS frames over the frame's life
  int data = 0;          // failed DATA frames
};

bool gives_up(RetryCounts reading, const Failures& f) {
  switch (reading) {
    case RetryCounts::reset_on_cts:
      return f.rts_in_a_row >= kShortLimit || f.data >= kLongLimit;
    case RetryCounts::per_mpdu:
      return f.rts >= kShortLimit || f.data >= kLongLimit;
    case RetryCounts::ns3:
      return f.rts + f.data >= kShortLimit;
  }
  return false;
}

struct Outcome {
  int failures = 0, drops = 0, deliveries = 0;
  std::array<int, 3> disagreements{};  // failures where each reading decides otherwise
};

// A and C, hidden from each other, both saturate B for `duration` under `reading`,
// with RTS/CTS before every frame or none; returns A.
auto saturate_hidden_pair(MacWorld& w, RetryCounts reading, bool rts, Time duration) {
  w.params().retry_counts = reading;
  if (rts) w.params().rts_threshold_bytes = 0;
  w.params().short_retry_limit = kShortLimit;
  w.params().long_retry_limit = kLongLimit;
  const auto a = w.add(), b = w.add(), c = w.add();
  w.hide(a, c);
  w.hide(c, a);
  w.build();
  w.taps[a]->saturate(b, kBytes);
  w.taps[c]->saturate(b, kBytes);
  w.run(duration);
  return a;
}

Outcome run_hidden_pair(RetryCounts reading) {
  MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 2e6};
  const auto a = saturate_hidden_pair(w, reading, true, 20_s);

  // A's frames and its failures in time order (a failure comes at a timeout, after
  // the frame it follows and before A's next frame).
  enum class Kind { rts, data, retry, drop };
  struct Event {
    Time at;
    Kind kind;
  };
  std::vector<Event> events;
  for (const auto& s : w.taps[a]->sent) {
    if (s.kind == FrameKind::rts) events.push_back({s.at, Kind::rts});
    if (s.kind == FrameKind::data) events.push_back({s.at, Kind::data});
  }
  for (const Time t : w.taps[a]->retries) events.push_back({t, Kind::retry});
  for (const auto& d : w.taps[a]->drops) {
    EXPECT_EQ(d.second, DropCause::retry_limit);
    events.push_back({d.first, Kind::drop});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.at < y.at; });

  Outcome out;
  Failures f;
  Kind last_sent = Kind::rts;
  bool outcome_pending = false;  // the last frame sent has no failure reported yet
  for (const Event& e : events) {
    if (e.kind == Kind::rts) {
      // An RTS after a DATA frame that no failure followed: that frame was
      // acknowledged, and this RTS is a new frame's.
      if (last_sent == Kind::data && outcome_pending) {
        f = {};
        ++out.deliveries;
      }
      last_sent = Kind::rts;
      outcome_pending = true;
      continue;
    }
    if (e.kind == Kind::data) {
      f.rts_in_a_row = 0;  // a DATA frame is sent only after a CTS
      last_sent = Kind::data;
      outcome_pending = true;
      continue;
    }
    EXPECT_TRUE(outcome_pending) << "a failure with no frame sent before it, at " << e.at.to_seconds() << " s";
    outcome_pending = false;
    if (last_sent == Kind::rts) {
      ++f.rts_in_a_row;
      ++f.rts;
    } else {
      ++f.data;
    }
    ++out.failures;
    const bool dropped = e.kind == Kind::drop;
    EXPECT_EQ(dropped, gives_up(reading, f))
        << "at " << e.at.to_seconds() << " s: " << f.rts_in_a_row << " RTS failures in a row, " << f.rts << " in all, " << f.data
        << " DATA failures";
    for (const RetryCounts other : {RetryCounts::reset_on_cts, RetryCounts::per_mpdu, RetryCounts::ns3}) {
      if (gives_up(other, f) != dropped) ++out.disagreements[static_cast<std::size_t>(other)];
    }
    if (dropped) {
      ++out.drops;
      f = {};
    }
  }
  return out;
}

void expect_told_apart(RetryCounts reading, const Outcome& out) {
  // The pair mixes the outcomes (else the readings could not be told apart).
  EXPECT_GT(out.failures, 200);
  EXPECT_GT(out.drops, 10);
  EXPECT_GT(out.deliveries, 10);
  for (const RetryCounts other : {RetryCounts::reset_on_cts, RetryCounts::per_mpdu, RetryCounts::ns3}) {
    const int n = out.disagreements[static_cast<std::size_t>(other)];
    if (other == reading) {
      EXPECT_EQ(n, 0);
    } else {
      EXPECT_GT(n, 0) << "no failure of the run where reading " << static_cast<int>(other)
                      << " decides otherwise: the test cannot tell them apart";
    }
  }
}

TEST(RetryCounts, ResetOnCtsGivesUpAfterTheShortLimitOfRtsFailuresInARowOrTheLongLimitOfDataFailures) {
  expect_told_apart(RetryCounts::reset_on_cts, run_hidden_pair(RetryCounts::reset_on_cts));
}

TEST(RetryCounts, PerMpduCountsEveryRtsFailureOfTheFrameWhateverCtsCameBetween) {
  expect_told_apart(RetryCounts::per_mpdu, run_hidden_pair(RetryCounts::per_mpdu));
}

TEST(RetryCounts, Ns3CountsRtsAndDataFailuresTogetherAgainstTheShortLimit) {
  expect_told_apart(RetryCounts::ns3, run_hidden_pair(RetryCounts::ns3));
}

TEST(RetryCounts, WithoutRtsTheReadingsGiveTheSameRun) {
  // No RTS: every failure is a DATA frame's, counted against the short limit (a
  // frame not longer than the RTS threshold) in all three.
  std::vector<std::vector<Time>> sent;
  for (const RetryCounts reading : {RetryCounts::reset_on_cts, RetryCounts::per_mpdu, RetryCounts::ns3}) {
    MacWorld w{phy::profile_80211b(phy::Preamble::Long), 11e6, 2e6};
    const auto a = saturate_hidden_pair(w, reading, false, 5_s);
    EXPECT_GT(w.taps[a]->drops.size(), 5u);
    std::vector<Time> times;
    for (const auto& s : w.taps[a]->sent) times.push_back(s.at);
    sent.push_back(times);
  }
  EXPECT_EQ(sent[0], sent[1]);
  EXPECT_EQ(sent[0], sent[2]);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
