// A GoogleTest program whose tests fail, abort, exit early or hang when an
// environment variable asks them to: what tests/shards/test_run_shards.py runs
// scripts/run_shards.sh on. Not part of wmnsim_tests (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

bool asked(const char* name) { return std::getenv(name) != nullptr; }

TEST(Probe, Passes) { EXPECT_EQ(1 + 1, 2); }
TEST(Probe, FailsWhenAsked) { EXPECT_FALSE(asked("PROBE_FAIL")); }
TEST(Probe, AbortsWhenAsked) {
  if (asked("PROBE_ABORT")) std::abort();
}
TEST(Probe, HangsWhenAsked) {
  if (asked("PROBE_HANG")) std::this_thread::sleep_for(std::chrono::seconds(120));
}
TEST(Probe, DISABLED_WouldFail) { FAIL(); }
TEST(DISABLED_Probe, WouldFail) { FAIL(); }
TEST(ProbeExit, ExitsEarlyWhenAsked) {
  if (asked("PROBE_EXIT")) std::exit(0);  // ends the shard "successfully", its later tests never run
}
TEST(ProbeExit, RunsLast) { SUCCEED(); }

}  // namespace
