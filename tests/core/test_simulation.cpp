#include "core/simulation.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "results/results.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

// A small stand-in workload for the engine: each node is a Poisson source drawing
// from its own named stream; a sampler records per-node counts per interval.
// It exercises scheduling, streams and results the way the radio stack will.
class PoissonNodes {
 public:
  PoissonNodes(Simulation& sim, int nodes, double rate_per_s, Time interval)
      : sim_(sim), counts_(static_cast<std::size_t>(nodes), 0), interval_(interval) {
    for (int i = 0; i < nodes; ++i) {
      streams_.push_back(sim.random().stream("node", static_cast<std::uint64_t>(i), "arrivals"));
      arrival_times_.emplace_back();
    }
    mean_gap_s_ = 1.0 / rate_per_s;
    for (int i = 0; i < nodes; ++i) schedule_next(i);
    sim.scheduler().schedule_in(interval_, [this] { sample(); });
  }

  Results results() const {
    Results r;
    r.seed = sim_.seed();
    r.stats.simulated = sim_.now();
    r.stats.events_executed = sim_.scheduler().executed();
    if (const Fingerprint* fp = sim_.scheduler().fingerprint()) r.stats.fingerprint = *fp;
    r.stats.wall_time_s = 0.123;  // wall clock differs between runs by nature
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      nlohmann::ordered_json n;
      n["id"] = "N" + std::to_string(i);
      n["arrivals"] = counts_[i];
      r.nodes.push_back(n);
    }
    r.timeseries["arrivals"] = series_;
    return r;
  }
  const std::vector<std::vector<Time>>& arrival_times() const { return arrival_times_; }

 private:
  void schedule_next(int i) {
    const Time gap = Time::from_seconds(streams_[static_cast<std::size_t>(i)].exponential(mean_gap_s_));
    sim_.scheduler().schedule_in(gap, [this, i] {
      ++counts_[static_cast<std::size_t>(i)];
      arrival_times_[static_cast<std::size_t>(i)].push_back(sim_.now());
      schedule_next(i);
    }, static_cast<ContextId>(i));
  }
  void sample() {
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      series_.samples.push_back({sim_.now().to_seconds(), "N" + std::to_string(i), static_cast<double>(counts_[i])});
    }
    sim_.scheduler().schedule_in(interval_, [this] { sample(); });
  }

  Simulation& sim_;
  std::vector<RandomStream> streams_;
  std::vector<std::uint64_t> counts_;
  std::vector<std::vector<Time>> arrival_times_;
  double mean_gap_s_ = 1.0;
  Time interval_;
  TimeSeries series_{"packets", Time::zero(), {}};
};

std::string run_to_results_file(std::uint64_t seed, const std::filesystem::path& file) {
  Simulation sim(seed);
  sim.scheduler().enable_fingerprint();
  PoissonNodes model(sim, 20, 1000.0, 100_ms);
  sim.run_until(2_s);
  write_file_atomically(file, model.results().to_json().dump(2));
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json without_wall_clock(const std::string& text) {
  auto j = nlohmann::json::parse(text);
  j.erase("wall_clock");
  return j;
}

TEST(Simulation, SameSeedGivesBitIdenticalResultsFiles) {
  const auto dir = std::filesystem::temp_directory_path() / ("wmnsim-det-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string a = run_to_results_file(7, dir / "a.json");
  const std::string b = run_to_results_file(7, dir / "b.json");
  const std::string c = run_to_results_file(8, dir / "c.json");
  EXPECT_EQ(without_wall_clock(a).dump(), without_wall_clock(b).dump());
  EXPECT_NE(without_wall_clock(a)["run"]["event_fingerprint"], without_wall_clock(c)["run"]["event_fingerprint"]);
  EXPECT_GT(without_wall_clock(a)["run"]["events_executed"].get<std::uint64_t>(), 30000u);
  std::filesystem::remove_all(dir);
}

TEST(Simulation, AddingANodeDoesNotChangeOtherNodesDraws) {
  Simulation small(5), large(5);
  PoissonNodes a(small, 3, 500.0, 1_s);
  PoissonNodes b(large, 4, 500.0, 1_s);
  small.run_until(1_s);
  large.run_until(1_s);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(a.arrival_times()[i], b.arrival_times()[i]) << "node " << i;
}

TEST(Simulation, TwoSimulationsOnTwoThreadsRunIndependently) {
  // The same seeds on two threads at once must reproduce a single-threaded run:
  // nothing is shared between simulations.
  auto fingerprint = [](std::uint64_t seed) {
    Simulation sim(seed);
    sim.scheduler().enable_fingerprint();
    PoissonNodes model(sim, 50, 2000.0, 10_ms);
    sim.run_until(3_s);
    return std::pair{sim.scheduler().fingerprint()->value(), sim.scheduler().executed()};
  };
  const auto ref1 = fingerprint(1), ref2 = fingerprint(2);
  std::pair<std::uint64_t, std::uint64_t> got1, got2;
  std::thread t1([&] { got1 = fingerprint(1); });
  std::thread t2([&] { got2 = fingerprint(2); });
  t1.join();
  t2.join();
  EXPECT_EQ(got1, ref1);
  EXPECT_EQ(got2, ref2);
  EXPECT_NE(ref1, ref2);
}

TEST(Simulation, RunReportsProgressAndFinishes) {
  Simulation sim(3);
  PoissonNodes model(sim, 10, 10000.0, 1_s);
  std::vector<Progress> reports;
  RunControl control;
  control.progress_period_s = 0.0;  // report after every slice
  control.on_progress = [&](const Progress& p) { reports.push_back(p); };
  EXPECT_TRUE(sim.run_until(5_s, control));
  ASSERT_GE(reports.size(), 2u);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GE(reports[i].now, reports[i - 1].now);
    EXPECT_GT(reports[i].events_executed, reports[i - 1].events_executed);
  }
  EXPECT_EQ(reports.back().now, 5_s);
  EXPECT_EQ(sim.now(), 5_s);
}

TEST(Simulation, CancelFlagStopsTheRunBetweenSlices) {
  Simulation sim(3);
  PoissonNodes model(sim, 10, 10000.0, 1_s);
  std::atomic<bool> cancel{false};
  RunControl control;
  control.cancel = &cancel;
  control.progress_period_s = 0.0;
  control.on_progress = [&](const Progress& p) {
    if (p.now > 1_s) cancel = true;  // as a signal handler or another thread would
  };
  EXPECT_FALSE(sim.run_until(1000_s, control));
  EXPECT_GT(sim.now(), 1_s);
  EXPECT_LT(sim.now(), 3_s);
}

TEST(Simulation, LogLinesCarrySimulatedTimeWithoutGlobalLogger) {
  Simulation sim(1, "test-sim", spdlog::level::info);
  EXPECT_EQ(sim.log().name(), "test-sim");
  EXPECT_EQ(spdlog::get("test-sim"), nullptr);  // not in spdlog's global registry
  testing::internal::CaptureStderr();
  sim.scheduler().schedule_at(1500_us, [&] { sim.log().info("hello"); }, 4);
  sim.run_until(2_ms);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("0.001500000s #4] hello"), std::string::npos) << err;
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
