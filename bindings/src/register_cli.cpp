// The command line from Python: `python -m wmnsim` and the `wmnsim-py` script call
// the same C++ function as the `wmnsim` program (cli/command_line.hpp), so the two
// cannot disagree. The GIL is released while it runs; `wmnsim sweep` takes it back
// to call wmnsim.sweep in this interpreter.

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "cli/command_line.hpp"

namespace wmnsim::py {

namespace {

constexpr int kExitInterrupted = 130;  // as the program: 128 + SIGINT

int command_line(const std::vector<std::string>& args, pyb::object sweep, pyb::object reproduce) {
  cli::CommandLineHooks hooks;
  hooks.sweep = [&sweep](const cli::SweepArgs& a) -> int {
    std::cout.flush();
    std::fflush(stdout);
    pyb::gil_scoped_acquire gil;
    try {
      pyb::object scheduler = a.scheduler ? pyb::object(pyb::str(*a.scheduler)) : pyb::none();
      pyb::object workers = a.workers ? pyb::object(pyb::int_(*a.workers)) : pyb::none();
      return sweep(a.spec, a.output, scheduler, workers).cast<int>();
    } catch (pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) return kExitInterrupted;
      e.restore();
      PyErr_Print();  // the traceback: an internal error, as the program reports one
      return cli::kExitInternal;
    }
  };
  hooks.reproduce = [&reproduce](const cli::ReproduceArgs& a) -> int {
    std::cout.flush();
    std::fflush(stdout);
    pyb::gil_scoped_acquire gil;
    try {
      auto optional = [](const std::optional<std::string>& s) {
        return s ? pyb::object(pyb::str(*s)) : pyb::object(pyb::none());
      };
      pyb::object workers = a.workers ? pyb::object(pyb::int_(*a.workers)) : pyb::none();
      return reproduce(a.study, a.quick, optional(a.scheduler), workers, optional(a.output), a.report_only, a.check,
                       a.store, optional(a.experiments), a.no_plot, a.add_seeds)
          .cast<int>();
    } catch (pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) return kExitInterrupted;
      e.restore();
      PyErr_Print();
      return cli::kExitInternal;
    }
  };
  int status = 0;
  {
    pyb::gil_scoped_release nogil;
    status = cli::run_command_line(args, hooks);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
  }
  return status;
}

}  // namespace

void register_cli(pyb::module_& m) {
  m.def("command_line", &command_line, pyb::arg("args"), pyb::arg("sweep"), pyb::arg("reproduce"),
        "Runs the wmnsim command line (arguments without the program name) and returns its exit "
        "code; `sweep(spec, output, scheduler, workers)` runs `wmnsim sweep`, `reproduce(study, quick, "
        "scheduler, workers, output, report_only, check, store, experiments, no_plot, add_seeds)` `wmnsim reproduce`.");
}

}  // namespace wmnsim::py
