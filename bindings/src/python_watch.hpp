#pragma once
// Keeps a run answering to Python while it runs with the GIL released.
//
// The simulation calls RunControl::on_progress between slices of events; every
// `poll_period_s` of wall time this takes the GIL for a moment and
//  - runs Python's pending signal handlers (PyErr_CheckSignals): Ctrl-C raises
//    KeyboardInterrupt there, which is kept and sets the cancel flag, so the run
//    stops at the next slice (milliseconds) and the caller re-raises it;
//  - sets the cancel flag when the optional cancel object's is_set() is true (a
//    threading.Event: the way to stop a run in another thread, where Python does
//    not deliver signals);
//  - calls the optional progress callable, about every `progress_period_s` and
//    once at the end, with (simulated_s, end_s, events_executed, wall_time_s).
// An exception from the callable is kept and cancels the run like Ctrl-C.
//
// Built and destroyed with the GIL held; poll() runs on the simulating thread
// without it. Only that thread calls poll(), so the members need no lock beyond
// the GIL itself.

#include <atomic>
#include <limits>

#include "bindings.hpp"
#include "core/simulation.hpp"

namespace wmnsim::py {

class PythonWatch {
 public:
  PythonWatch(pyb::object progress, pyb::object cancel_event, double poll_period_s = 0.05,
              double progress_period_s = 0.25)
      : progress_(std::move(progress)),
        cancel_event_(std::move(cancel_event)),
        poll_period_s_(poll_period_s),
        progress_period_s_(progress_period_s) {}
  PythonWatch(const PythonWatch&) = delete;
  PythonWatch& operator=(const PythonWatch&) = delete;

  RunControl control() {
    RunControl c;
    c.progress_period_s = poll_period_s_;
    c.cancel = &cancel_;
    c.on_progress = [this](const Progress& p) { poll(p); };
    return c;
  }

  // The exception raised by a signal handler or the progress callable, or None.
  pyb::object pending_error() const { return error_ ? error_ : pyb::none(); }
  bool cancelled() const { return cancel_.load(); }

 private:
  void poll(const Progress& p) {
    pyb::gil_scoped_acquire gil;
    if (error_) return;
    try {
      if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
      if (!cancel_event_.is_none() && cancel_event_.attr("is_set")().cast<bool>()) cancel_.store(true);
      const bool final = p.now >= p.end;
      if (!progress_.is_none() && (final || p.wall_time_s - last_progress_s_ >= progress_period_s_)) {
        last_progress_s_ = p.wall_time_s;
        progress_(p.now.to_seconds(), p.end.to_seconds(), p.events_executed, p.wall_time_s);
      }
    } catch (pyb::error_already_set& e) {
      error_ = e.value();
      cancel_.store(true);
    }
  }

  pyb::object progress_;
  pyb::object cancel_event_;
  pyb::object error_;  // null until something raised
  double poll_period_s_;
  double progress_period_s_;
  double last_progress_s_ = -std::numeric_limits<double>::infinity();
  std::atomic<bool> cancel_{false};
};

}  // namespace wmnsim::py
