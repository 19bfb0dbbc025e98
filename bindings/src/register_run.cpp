// Running a scenario from Python: the command line's run_scenario(), with the GIL
// released for the whole simulation (python_watch.hpp keeps Ctrl-C working).

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "python_watch.hpp"
#include "results_document.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim::py {

namespace {

spdlog::level::level_enum log_level_of(const std::string& name) {
  // The command line's --log-level choices; spdlog would read any other word as "off".
  constexpr std::array<std::string_view, 7> kNames{"trace", "debug", "info", "warn", "error", "critical", "off"};
  for (const auto n : kNames) {
    if (n == name) return spdlog::level::from_str(name);
  }
  throw pyb::value_error("log_level must be one of trace, debug, info, warn, error, critical, off; got \"" +
                         name + "\"");
}

// Returns (ResultsDocument, pending exception or None). Raises ScenarioError,
// NotSupportedError; the caller raises the pending exception (KeyboardInterrupt).
pyb::tuple run(const std::string& text, const std::string& name, const std::string& log_level,
               pyb::object progress, pyb::object cancel, bool fingerprint, std::vector<std::string> log_nodes) {
  Scenario scenario = parse_scenario(parse_document(text));
  if (scenario.name.empty()) scenario.name = name;
  RunOptions options;
  options.log_level = log_level_of(log_level);
  options.fingerprint = fingerprint;
  options.log_nodes = std::move(log_nodes);
  PythonWatch watch(std::move(progress), std::move(cancel));
  options.control = watch.control();
  Results results;
  {
    pyb::gil_scoped_release nogil;
    results = run_scenario(scenario, options);
  }
  return pyb::make_tuple(ResultsDocument{results.to_json()}, watch.pending_error());
}

// The event engine alone, driven like a run: one timer that reschedules itself
// every `period_s`, run to `duration_s` in slices through the same PythonWatch.
// Needs no radio stack, so the GIL release, Ctrl-C and cancel plumbing can be
// tested (tests/python/test_interrupt.py) before any scenario can be simulated.
pyb::dict engine_workload(double duration_s, double period_s, pyb::object progress, pyb::object cancel) {
  if (!(duration_s > 0) || !(period_s > 0) || duration_s > 1e6 || period_s < 1e-9) {
    throw pyb::value_error("engine_workload: need 0 < duration_s <= 1e6 and period_s >= 1e-9");
  }
  Simulation sim(1, "wmnsim.engine_workload", spdlog::level::off);
  struct Tick {
    Scheduler* scheduler;
    Time period;
    void operator()() { scheduler->schedule_in(period, Tick{*this}); }
  };
  sim.scheduler().schedule_at(Time::zero(), Tick{&sim.scheduler(), Time::from_seconds(period_s)});
  PythonWatch watch(std::move(progress), std::move(cancel));
  const RunControl control = watch.control();
  bool finished = false;
  {
    pyb::gil_scoped_release nogil;
    finished = sim.run_until(Time::from_seconds(duration_s), control);
  }
  pyb::dict out;
  out["finished"] = finished;
  out["simulated_time_s"] = sim.now().to_seconds();
  out["events_executed"] = sim.scheduler().executed();
  out["pending_error"] = watch.pending_error();
  return out;
}

}  // namespace

void register_run(pyb::module_& m) {
  m.def("run", &run, pyb::arg("document"), pyb::arg("name"), pyb::arg("log_level") = "warn",
        pyb::arg("progress") = pyb::none(), pyb::arg("cancel") = pyb::none(), pyb::arg("fingerprint") = false,
        pyb::arg("log_nodes") = std::vector<std::string>{},
        "Validates and runs a scenario document with the GIL released; returns "
        "(ResultsDocument, pending exception or None).");
  m.def("engine_workload", &engine_workload, pyb::arg("duration_s"), pyb::arg("period_s"),
        pyb::arg("progress") = pyb::none(), pyb::arg("cancel") = pyb::none(),
        "Testing aid: runs the event engine alone (a self-rescheduling timer) through the "
        "same GIL release and interrupt plumbing as run().");
}

}  // namespace wmnsim::py
