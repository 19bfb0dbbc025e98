#pragma once
// A Simulation owns everything one run needs: the scheduler, the random streams,
// its own logger and (as the layers arrive) the network and its metrics. There is
// no global state, so several simulations can live in one process and run on
// different threads at once.

#include <spdlog/logger.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"

namespace wmnsim {

struct Progress {
  Time now;
  Time end;
  std::uint64_t events_executed;
  double wall_time_s;  // since the run started
};

// How a long run reports progress and how it can be interrupted.
struct RunControl {
  // Called about every `progress_period_s` of wall time, and once at the end.
  std::function<void(const Progress&)> on_progress;
  double progress_period_s = 0.25;
  // Checked between slices of events (a few milliseconds of wall time apart):
  // setting it from another thread or a signal handler stops the run.
  const std::atomic<bool>* cancel = nullptr;
};

class Simulation {
 public:
  // `name` labels log lines (e.g. the scenario name). Log lines go to stderr with
  // the simulated time and the current event's context: "[0.001250000s #3] ...".
  explicit Simulation(std::uint64_t seed, std::string name = "wmnsim",
                      spdlog::level::level_enum log_level = spdlog::level::warn);
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  Scheduler& scheduler() { return scheduler_; }
  const Scheduler& scheduler() const { return scheduler_; }
  const RandomStreams& random() const { return random_; }
  spdlog::logger& log() { return *logger_; }

  Time now() const { return scheduler_.now(); }
  std::uint64_t seed() const { return random_.master_seed(); }

  // Runs the event loop until `end` (or until stop()); see Scheduler::run_until.
  void run_until(Time end) { scheduler_.run_until(end); }
  // The same in slices, reporting progress and honouring `control.cancel`.
  // Returns false if cancelled before reaching `end`.
  bool run_until(Time end, const RunControl& control);
  void stop() { scheduler_.stop(); }

 private:
  Scheduler scheduler_;
  RandomStreams random_;
  std::shared_ptr<spdlog::logger> logger_;  // not registered in spdlog's global registry
};

}  // namespace wmnsim
