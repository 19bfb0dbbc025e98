#include "control/controller.hpp"

#include <utility>

namespace wmnsim::control {

Controller::~Controller() { unsubscribe_all(); }

void Controller::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (Timer& t : timers_) sim().scheduler().cancel(t.next);
  unsubscribe_all();
  on_stop();
}

void Controller::subscribe(std::uint32_t node, NodeSubscriber& subscriber) {
  Node* n = context_.nodes.at(node);
  n->subscribe(subscriber);
  subscriptions_.emplace_back(n, &subscriber);
}

void Controller::subscribe_management(std::uint32_t node, std::uint8_t category, ManagementHandler& handler) {
  Node* n = context_.nodes.at(node);
  n->subscribe_management(category, handler);
  management_subscriptions_.emplace_back(n, &handler);
}

void Controller::unsubscribe_all() {
  // The nodes outlive every controller (ControlContext).
  for (const auto& [node, subscriber] : subscriptions_) node->unsubscribe(*subscriber);
  for (const auto& [node, handler] : management_subscriptions_) node->unsubscribe_management(*handler);
  subscriptions_.clear();
  management_subscriptions_.clear();
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
