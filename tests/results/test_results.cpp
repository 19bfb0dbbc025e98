#include "results/results.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Results, JsonIsVersionedAndKeepsWallClockApart) {
  Results r;
  r.seed = 42;
  r.scenario = {{"simulation", {{"duration_s", 10}}}};
  r.stats.events_executed = 1000;
  r.stats.wall_time_s = 0.5;
  r.stats.simulated = Time::s(10);
  const auto j = r.to_json();
  EXPECT_EQ(j["format"], "wmnsim-results");
  EXPECT_EQ(j["format_version"], kResultsFormatVersion);
  EXPECT_EQ(j["wmnsim"]["version"], std::string(wmnsim_version()));
  EXPECT_EQ(j["seed"], 42);
  EXPECT_EQ(j["run"]["events_executed"], 1000);
  EXPECT_DOUBLE_EQ(j["run"]["simulated_time_s"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["wall_clock"]["events_per_s"].get<double>(), 2000.0);
  EXPECT_FALSE(j["run"].contains("wall_time_s"));
  EXPECT_EQ(j["scenario"]["simulation"]["duration_s"], 10);
}

TEST(Results, FlowsCsvQuotesWhenNeeded) {
  Results r;
  r.flows.push_back({{"id", "f1"}, {"goodput_bps", 1.5e6}, {"note", "a,b"}});
  r.flows.push_back({{"id", "f\"2"}, {"goodput_bps", 2}, {"note", nullptr}});
  EXPECT_EQ(r.flows_csv(), "id,goodput_bps,note\nf1,1500000.0,\"a,b\"\n\"f\"\"2\",2,\n");
}

TEST(Results, AtomicWriteReplacesAndLeavesNoTemporaryFile) {
  const auto dir = std::filesystem::temp_directory_path() / "wmnsim-atomic-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "out.json", "first");
  write_file_atomically(dir / "out.json", "second");
  EXPECT_EQ(slurp(dir / "out.json"), "second");
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
  EXPECT_THROW(write_file_atomically(dir / "missing-dir" / "x.json", "x"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
