#pragma once
// The run's budget of stored samples (docs/scenario.md, "Limits", output volume).
//
// What a run keeps in memory and writes grows with what it records: the time
// series (intervals x series, known before the run and refused at load when over
// kMaxTimeseriesSamples) and the histories controllers keep, one entry per event
// they record (tcc/lscc's duration D over time, a gateway controller's per-report
// rates, edca_txop's and counter_starvation's changes), which no rule bounds
// beforehand. Both draw from one count: the time series take theirs when the
// network is built, and a history takes one per entry as it grows. A history whose
// entry finds the budget spent stops growing (the run goes on, its events
// untouched) and the run says so in its warnings.
//
// Recording only: nothing here schedules events or draws random numbers.

#include <cstddef>

namespace wmnsim {

class SampleBudget {
 public:
  explicit SampleBudget(double limit) : left_(limit) {}

  // Takes `n` samples; false, taking none, when fewer are left.
  bool take(double n = 1.0) {
    if (n > left_) {
      spent_ = true;
      return false;
    }
    left_ -= n;
    return true;
  }
  double left() const { return left_; }
  // Whether a take() was refused.
  bool spent() const { return spent_; }

 private:
  double left_;
  bool spent_ = false;
};

}  // namespace wmnsim
