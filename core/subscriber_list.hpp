#pragma once
// The subscribers of one observer hook (a MAC's frame observers, a wired link's
// departure listeners, a queue's observers, a node's signals), told in the order
// they subscribed.
//
// Contract
//  - subscribe() appends; unsubscribe() removes every entry of that subscriber (if
//    any), the others keeping their order. Subscribing one twice tells it twice.
//  - Neither while the list is being told (from inside a subscriber's call, or
//    anything it calls): a removal then would skip or repeat another subscriber, so
//    both throw std::logic_error. A subscriber's call may make the source tell the
//    list again (nested); that is allowed.
// Cost: one test of an empty list when nobody subscribes (nearly every hook in a
// run), inlined at the source; with subscribers, one call each, and no loop for a
// single one.

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace wmnsim {

// Subscriber::kHookName (a static constexpr const char*) names the hook in the
// error messages ("a MAC observer"): a name per subscriber type rather than a
// pointer in each list, which a node and each of its radios hold (issue 43 §3,
// memory per node: 32 bytes, not 40).
template <class Subscriber>
class SubscriberList {
 public:

  void subscribe(Subscriber& subscriber) {
    refuse_while_telling("subscribed");
    subscribers_.push_back(&subscriber);
  }
  void unsubscribe(Subscriber& subscriber) {
    refuse_while_telling("unsubscribed");
    subscribers_.erase(std::remove(subscribers_.begin(), subscribers_.end(), &subscriber), subscribers_.end());
  }
  bool empty() const { return subscribers_.empty(); }
  std::size_t size() const { return subscribers_.size(); }

  // Calls call(subscriber) for each, in subscription order.
  template <class Call>
  void tell(Call&& call) {
    if (subscribers_.empty()) return;
    const Telling guard(telling_);
    if (subscribers_.size() == 1) {
      call(*subscribers_.front());
      return;
    }
    for (Subscriber* s : subscribers_) call(*s);
  }

 private:
  // Counts the calls under way (nested ones included), also when one throws.
  class Telling {
   public:
    explicit Telling(int& depth) : depth_(depth) { ++depth_; }
    ~Telling() { --depth_; }
    Telling(const Telling&) = delete;
    Telling& operator=(const Telling&) = delete;

   private:
    int& depth_;
  };

  void refuse_while_telling(const char* change) const {
    if (telling_ > 0) {
      throw std::logic_error(std::string(Subscriber::kHookName) + " " + change + " while its subscribers were told");
    }
  }

  std::vector<Subscriber*> subscribers_;
  int telling_ = 0;
};

}  // namespace wmnsim
