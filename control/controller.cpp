#include "control/controller.hpp"

#include <utility>

namespace wmnsim::control {

Controller::~Controller() = default;

void Controller::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (Timer& t : timers_) sim().scheduler().cancel(t.next);
  on_stop();
}

std::size_t Controller::every(Time period, std::function<void()> tick) {
  const std::size_t index = timers_.size();
  timers_.push_back(Timer{period, std::move(tick), EventId{}});
  timers_[index].next = sim().scheduler().schedule_in(period, [this, index] { fire(index); });
  return index;
}

void Controller::fire(std::size_t timer) {
  if (stopped_) return;
  // Reschedule first: the tick may stop the controller, which cancels this.
  timers_[timer].next = sim().scheduler().schedule_in(timers_[timer].period, [this, timer] { fire(timer); });
  timers_[timer].tick();
}

}  // namespace wmnsim::control
