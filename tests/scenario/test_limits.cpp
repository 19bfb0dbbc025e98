// The loader's and the engine's limits (docs/scenario.md, "Limits"): one rule per
// class of hostile input, each refused with its JSON path.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "config/json_reader.hpp"
#include "results/results.hpp"
#include "scenario/scenario.hpp"
#include "core/scheduler.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using test::has_issue;
using test::issues_of;
using test::minimal_scenario;

std::vector<ValidationIssue> text_issues(const std::string& text) {
  try {
    parse_json_text(text, "<test>");
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

// ---- JSON text ----------------------------------------------------------------------

TEST(JsonText, NestingIsLimitedWithoutRecursion) {
  // A million levels: the checker keeps its own stack and stops at the limit.
  const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
  const auto issues = text_issues(deep);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_NE(issues[0].message.find("nested deeper than 64 levels"), std::string::npos);
  EXPECT_EQ(issues[0].path.size(), 2 * kMaxJsonDepth);  // "/0" per enclosing array
  // The limit itself is allowed.
  EXPECT_TRUE(text_issues(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']')).empty());
  EXPECT_FALSE(text_issues(std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']')).empty());
}

TEST(JsonText, NumbersBeyondADoubleNameTheirPath) {
  EXPECT_TRUE(has_issue(text_issues(R"({"a": {"b": [1, 2, 1e400]}})"), "/a/b/2", "too large for a double"));
  EXPECT_TRUE(has_issue(text_issues(R"({"x": -1e999})"), "/x", "too large for a double"));
  EXPECT_TRUE(has_issue(text_issues("{\"seed\": " + std::string(400, '9') + "}"), "/seed", "too large"));
  EXPECT_TRUE(text_issues(R"({"x": 1.7e308, "y": 1e-400})").empty());  // underflow reads as 0
}

TEST(JsonText, SyntaxErrorsGiveLineAndColumn) {
  const auto issues = text_issues("{\n  \"a\": 1,,\n}");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].path, "");
  EXPECT_NE(issues[0].message.find("<test>: invalid JSON at line 2, column 10"), std::string::npos)
      << issues[0].message;
}

TEST(JsonText, LongKeysAndDuplicates) {
  EXPECT_TRUE(has_issue(text_issues("{\"a\": {\"" + std::string(300, 'k') + "\": 1}}"), "/a", "at most 256 bytes"));
  EXPECT_TRUE(has_issue(text_issues(R"({"a": {"k": 1, "k": 2}})"), "/a/k", "duplicate key \"k\""));
}

TEST(JsonText, OverridesKeepTheLimits) {
  const auto issues_for = [](const std::string& assignment) {
    try {
      apply_overrides(minimal_scenario(), {assignment});
    } catch (const ScenarioError& e) {
      return e.issues();
    }
    return std::vector<ValidationIssue>{};
  };
  std::string deep_pointer;
  for (int i = 0; i < 70; ++i) deep_pointer += "/a";
  EXPECT_TRUE(has_issue(issues_for(deep_pointer + "=1"), deep_pointer, "deeper than 64 levels"));
  EXPECT_TRUE(has_issue(issues_for("/description=" + std::string(100, '[') + std::string(100, ']')),
                        "/description" + std::string("/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/"
                                                     "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"),
                        "nested deeper"));
  EXPECT_TRUE(has_issue(issues_for("/phy/noise_dbm=-1e999"), "/phy/noise_dbm", "too large for a double"));
  EXPECT_TRUE(has_issue(issues_for("/name=\xff\xfe"), "", "not valid UTF-8"));
  // Text that is not JSON is still a string.
  EXPECT_EQ(apply_overrides(minimal_scenario(), {"/phy/standard=802.11a"})["phy"]["standard"], "802.11a");
}

TEST(JsonText, FilesThatNeverEndAndFolders) {
  const auto read = [](const std::filesystem::path& p) {
    try {
      read_json_file(p);
    } catch (const ScenarioError& e) {
      return e.issues();
    }
    return std::vector<ValidationIssue>{};
  };
  EXPECT_TRUE(has_issue(read("/dev/zero"), "", "larger than 64 MiB"));
  EXPECT_TRUE(has_issue(read(std::filesystem::temp_directory_path()), "", "it is a folder"));
}

// ---- times and periods ----------------------------------------------------------------

TEST(Limits, APositiveTimeMustNotRoundToZero) {
  auto doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 4e-13;  // rounds to 0 ps
  doc["phy"]["slot_us"] = 1e-7;
  doc["flows"][0]["tcp"]["min_rto_s"] = 1e-13;
  doc["flows"][0]["start_s"] = 1e-13;  // non-negative keys too: a positive value stays positive
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/simulation/duration_s", "rounds to 0 at the simulator's resolution of 1 ps"));
  EXPECT_TRUE(has_issue(issues, "/phy/slot_us", "the smallest positive time is 1e-06 us"));
  EXPECT_TRUE(has_issue(issues, "/flows/0/tcp/min_rto_s", "rounds to 0"));
  EXPECT_TRUE(has_issue(issues, "/flows/0/start_s", "rounds to 0"));
  // One picosecond is the smallest positive time and is accepted.
  doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 1e-12;
  EXPECT_TRUE(issues_of(doc).empty()) << test::render(issues_of(doc));
}

TEST(Limits, PeriodicProcessesRunAtMostAMillionTimesASecond) {
  auto doc = minimal_scenario();
  doc["flows"][0]["transport"] = "udp";
  doc["flows"][0]["traffic"] = {{"type", "cbr"}, {"rate_bps", 1e15}};
  EXPECT_TRUE(has_issue(issues_of(doc), "/flows/0/traffic/rate_bps", "more than 10^6 packets per second"));
  doc["flows"][0]["traffic"] = {{"type", "cbr"}, {"rate_bps", 1460 * 8e6}};  // exactly one per microsecond
  EXPECT_TRUE(issues_of(doc).empty()) << test::render(issues_of(doc));
  doc["flows"][0]["traffic"] = {{"type", "poisson"}, {"interval_s", 1e-7}};
  EXPECT_TRUE(has_issue(issues_of(doc), "/flows/0/traffic/interval_s", ">= 1e-06"));
  doc["flows"][0]["traffic"] = {{"type", "on_off"}, {"interval_s", 0.01}, {"on_s", 1e-9}, {"off_s", 1}};
  EXPECT_TRUE(has_issue(issues_of(doc), "/flows/0/traffic/on_s", ">= 1e-06"));
  doc = minimal_scenario();
  doc["simulation"]["measurement_interval_s"] = 1e-7;
  EXPECT_TRUE(has_issue(issues_of(doc), "/simulation/measurement_interval_s", ">= 1e-06"));
}

TEST(Limits, TimeSeriesVolumeIsBounded) {
  auto doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 120;
  doc["simulation"]["measurement_interval_s"] = 1e-6;  // 1.2e8 intervals x 1 flow
  EXPECT_TRUE(has_issue(issues_of(doc), "/simulation/measurement_interval_s",
                        "the time series would hold 1.2e+08 samples"));
  // 10 s / 1e-6 s = 1e7 intervals x 1 flow: exactly the limit.
  doc["simulation"]["duration_s"] = 10;
  EXPECT_TRUE(issues_of(doc).empty()) << test::render(issues_of(doc));
  // Three radios with the MAC kinds make it four series.
  doc["outputs"]["timeseries"] = {"flow_goodput", "queue_length"};
  EXPECT_TRUE(has_issue(issues_of(doc), "/simulation/measurement_interval_s", "use measurement_interval_s >= 4e-06"));
}

TEST(Limits, NodesAndGridPointsAreBounded) {
  auto doc = minimal_scenario();
  const auto cap = static_cast<std::int64_t>(kMaxNodes);
  doc["node_groups"] = {{{"id_prefix", "n"}, {"placement", "line"}, {"count", cap}, {"spacing_m", 10},
                         {"origin_m", {0, 500}}},
                        {{"id_prefix", "m"}, {"placement", "line"}, {"count", cap}, {"spacing_m", 10},
                         {"origin_m", {0, 900}}}};
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/node_groups/0", std::to_string(cap + 3) + " nodes with this group; at most " +
                                                      std::to_string(cap) + " "));
  for (const auto& i : issues) EXPECT_NE(i.path, "/node_groups/1");  // not placed at all
  // A group's count is bounded by the same cap, where it is read.
  doc["node_groups"][0]["count"] = cap + 1;
  EXPECT_TRUE(has_issue(issues_of(doc), "/node_groups/0/count", "1.." + std::to_string(cap)));
  doc = minimal_scenario();
  for (int i = 0; i < 5; ++i) {
    doc["node_groups"].push_back({{"id_prefix", "r" + std::to_string(i) + "n"},
                                  {"placement", "random_grid"},
                                  {"count", 1},
                                  {"spacing_m", 2},
                                  {"area_m", {1000, 1000}},
                                  {"origin_m", {0, 1e5 + 3 * i}}});
  }
  EXPECT_TRUE(has_issue(issues_of(doc), "/node_groups/3/spacing_m", "more than a million grid points"));
}

// ---- reports --------------------------------------------------------------------------

TEST(Limits, ReportsListAHundredProblemsAndCostLinearTime) {
  auto doc = minimal_scenario();
  for (int i = 0; i < 5000; ++i) doc["simulation"]["k" + std::to_string(i)] = i;
  auto issues = issues_of(doc);
  ASSERT_EQ(issues.size(), IssueSink::kMaxListed + 1);
  EXPECT_EQ(issues.back().path, "");
  EXPECT_NE(issues.back().message.find("... and 4900 more problems not listed"), std::string::npos);

  // 2 x 10^4 references to ids one letter off among 10^3 nodes, and a megabyte-long
  // unknown key and id: well under a second, not quadratic.
  doc = minimal_scenario();
  doc["node_groups"] = {{{"id_prefix", "n"}, {"placement", "line"}, {"count", 997}, {"spacing_m", 10},
                         {"origin_m", {0, 500}}}};
  for (int i = 0; i < 20000; ++i) {
    doc["flows"].push_back({{"id", "f" + std::to_string(i)}, {"transport", "udp"}, {"src", "A"},
                            {"dst", "n" + std::to_string(i % 997) + "x"}});
  }
  doc["phy"][std::string(1'000'000, 'k')] = 1;
  doc["flows"][0]["dst"] = std::string(1'000'000, 'x');
  const auto start = std::chrono::steady_clock::now();
  issues = issues_of(doc);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(issues.size(), IssueSink::kMaxListed + 1);
  for (const auto& i : issues) EXPECT_LE(i.message.size(), IssueSink::kMaxMessage);
}

TEST(Limits, SuggestionsSkipWordsTooLongToBeTypos) {
  EXPECT_EQ(closest_match("cw_mni", {"cw_min", "cw_max"}), "cw_min");
  EXPECT_EQ(closest_match(std::string(100, 'a'), {std::string(100, 'a') + "b"}), std::nullopt);
  EXPECT_EQ(closest_match("duration", {"duration_s"}), "duration_s");  // the unit-suffix rule is kept
}

TEST(Limits, IssueMessagesAreCutOnACharacterBoundary) {
  IssueSink sink;
  std::string long_message;
  for (int i = 0; i < 1000; ++i) long_message += "\xc3\xa9";  // "é", two bytes each
  sink.add("/x", long_message);
  const std::string& m = sink.issues()[0].message;
  EXPECT_LE(m.size(), IssueSink::kMaxMessage);
  EXPECT_TRUE(valid_utf8(m));
}

// ---- the engine's backstop ---------------------------------------------------------------

TEST(Limits, EventsAtOneInstantStopTheRun) {
  Scheduler s;
  s.set_max_events_per_instant(1000);
  struct Again {
    Scheduler* s;
    void operator()() { s->schedule_in(Time::zero(), Again{s}); }
  };
  s.schedule_at(Time::us(5), Again{&s});
  try {
    s.run_until(Time::s(1));
    FAIL() << "expected EventFlood";
  } catch (const EventFlood& e) {
    EXPECT_NE(std::string(e.what()).find("1000 events ran at t = 5us without time advancing"), std::string::npos)
        << e.what();
  }
  // Many events at many instants are fine.
  Scheduler t;
  t.set_max_events_per_instant(1000);
  int ran = 0;
  for (int i = 0; i < 5000; ++i) t.schedule_at(Time::ns(i / 2), [&ran] { ++ran; });
  EXPECT_TRUE(t.run_until(Time::s(1)));
  EXPECT_EQ(ran, 5000);
}

// ---- output files ------------------------------------------------------------------------

class OutputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("wmnsim_outputs_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    input_ = dir_ / "scenario.json";
    std::ofstream(input_) << "{}";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_, input_;
};

TEST_F(OutputFiles, ClashesInputsFoldersAndUnwritableFoldersAreFoundBeforeARun) {
  EXPECT_TRUE(check_output_files(input_, {{"-o", dir_ / "r.json"}, {"--csv", dir_ / "f.csv"}}).empty());
  auto p = check_output_files(input_, {{"-o", dir_ / "r.json"}, {"--csv", dir_ / "sub" / ".." / "r.json"}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("(--csv): -o writes the same file"), std::string::npos) << p[0];
  p = check_output_files(input_, {{"-o", dir_ / "." / "scenario.json"}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("it is the scenario file"), std::string::npos) << p[0];
  p = check_output_files(input_, {{"-o", dir_}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("it is a folder"), std::string::npos) << p[0];
  p = check_output_files(input_, {{"-o", dir_ / "missing" / "r.json"}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("does not exist"), std::string::npos) << p[0];
  // A folder no one may create a file in, whatever the user (root included).
  p = check_output_files(input_, {{"-o", "/proc/wmnsim_results.json"}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("does not take a new file"), std::string::npos) << p[0];
  // The probe leaves nothing behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 1);
}

TEST_F(OutputFiles, AtomicWritesLeaveNoNamedTemporaryFile) {
  write_file_atomically(dir_ / "r.json", std::string(1 << 20, 'x'));
  write_file_atomically(dir_ / "r.json", "second");
  std::ifstream in(dir_ / "r.json");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "second");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 2);
}

TEST(TimeseriesCsv, OneLinePerSampleWithKindAndUnit) {
  nlohmann::ordered_json doc;
  doc["timeseries"]["flow_goodput"] = {{"unit", "bit/s"},
                                       {"interval_s", 1.0},
                                       {"columns", {"time_s", "id", "value"}},
                                       {"rows", {{1.0, "f,1", 2.5}, {2.0, "f,1", 3.0}}}};
  doc["timeseries"]["drops"] = {{"unit", "packets"}, {"rows", {{1.0, "A", 0}}}};
  EXPECT_EQ(timeseries_csv(doc),
            "kind,unit,time_s,id,value\n"
            "flow_goodput,bit/s,1.0,\"f,1\",2.5\n"
            "flow_goodput,bit/s,2.0,\"f,1\",3.0\n"
            "drops,packets,1.0,A,0\n");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
