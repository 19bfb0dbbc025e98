#pragma once
// A test-only shaping discipline: a FIFO that holds its head back until the test
// releases it, at a time it announces through ready_at() (`release_at`) or on an
// explicit release() that calls notify_ready() (or, to show what the MAC would do
// without it, does not).

#include <deque>

#include "link/queue_discipline.hpp"

namespace wmnsim::mac::testing {

class ReleaseQueue final : public link::QueueDiscipline {
 public:
  explicit ReleaseQueue(DropSink& drops) : link::QueueDiscipline(drops) {}

  // Lets the head go from now on.
  void release(bool notify = true) {
    released_ = true;
    if (notify) notify_ready();
  }
  // Holds the head again.
  void block() { released_ = false; }
  // Announces a release at `t` (ready_at), without notify_ready().
  void release_at(Time t) { release_at_ = t; }

  std::size_t length_packets() const override { return packets_.size(); }
  std::int64_t length_bytes() const override {
    std::int64_t b = 0;
    for (const auto& p : packets_) b += p->size_bytes;
    return b;
  }
  Time ready_at(Time now) const override {
    if (packets_.empty()) return Time::max();
    if (released_) return now;
    return release_at_ > now ? release_at_ : now;  // Time::max() while neither released nor dated
  }

 protected:
  link::EnqueueResult do_enqueue(PacketPtr& packet, Time /*now*/) override {
    packets_.push_back(std::move(packet));
    return link::EnqueueResult::accepted();
  }
  PacketPtr do_dequeue(Time now) override {
    if (packets_.empty() || ready_at(now) > now) return nullptr;
    PacketPtr p = std::move(packets_.front());
    packets_.pop_front();
    return p;
  }
  const Packet* do_peek() const override { return packets_.empty() ? nullptr : packets_.front().get(); }

 private:
  std::deque<PacketPtr> packets_;
  bool released_ = false;
  Time release_at_ = Time::max();
};

}  // namespace wmnsim::mac::testing
