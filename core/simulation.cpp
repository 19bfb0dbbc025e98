#include "core/simulation.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <chrono>
#include <cstdio>

namespace wmnsim {

namespace {
// Adds the simulated time and the event context to each log line (%*).
class SimTimeFlag final : public spdlog::custom_flag_formatter {
 public:
  explicit SimTimeFlag(const Scheduler* scheduler) : scheduler_(scheduler) {}
  void format(const spdlog::details::log_msg&, const std::tm&, spdlog::memory_buf_t& dest) override {
    char buf[64];
    const ContextId ctx = scheduler_->current_context();
    const int n = ctx == kNoContext || ctx == kObserverContext
                      ? std::snprintf(buf, sizeof buf, "%.9fs", scheduler_->now().to_seconds())
                      : std::snprintf(buf, sizeof buf, "%.9fs #%u", scheduler_->now().to_seconds(), ctx);
    dest.append(buf, buf + n);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SimTimeFlag>(scheduler_);
  }

 private:
  const Scheduler* scheduler_;
};
}  // namespace

Simulation::Simulation(std::uint64_t seed, std::string name, spdlog::level::level_enum log_level)
    : random_(seed) {
  // A sink of our own (not spdlog's registry or default logger): nothing global.
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  logger_ = std::make_shared<spdlog::logger>(std::move(name), std::move(sink));
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SimTimeFlag>('*', &scheduler_).set_pattern("[%^%l%$] [%n %*] %v");
  logger_->set_formatter(std::move(formatter));
  logger_->set_level(log_level);
  scheduler_.log().configure(logger_.get(), log_level);
}

bool Simulation::run_until(Time end, const RunControl& control) {
  // Slices of events keep the clock and cancel checks off the per-event path; at
  // tens of millions of events per second a slice lasts a few milliseconds.
  constexpr std::uint64_t kSliceEvents = 1u << 16;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto last_report = start;
  const auto report = [&](Clock::time_point t) {
    if (control.on_progress) {
      control.on_progress(Progress{now(), end, scheduler_.executed(), std::chrono::duration<double>(t - start).count()});
    }
  };
  for (;;) {
    if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) return false;
    const bool done = scheduler_.run_until(end, kSliceEvents);
    const auto t = Clock::now();
    if (done) {
      report(t);
      return true;
    }
    if (std::chrono::duration<double>(t - last_report).count() >= control.progress_period_s) {
      report(t);
      last_report = t;
    }
  }
}

}  // namespace wmnsim
