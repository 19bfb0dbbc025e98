#pragma once
// A Simulation owns everything one run needs: the scheduler, the random streams,
// its own logger and (as the layers arrive) the network and its metrics. There is
// no global state, so several simulations can live in one process and run on
// different threads at once.

#include <spdlog/logger.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"

namespace wmnsim {

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
  void stop() { scheduler_.stop(); }

 private:
  Scheduler scheduler_;
  RandomStreams random_;
  std::shared_ptr<spdlog::logger> logger_;  // not registered in spdlog's global registry
};

}  // namespace wmnsim
