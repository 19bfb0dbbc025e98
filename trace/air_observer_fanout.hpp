#pragma once
// Several frame traces on one medium (a pcap trace and the event trace): the
// medium holds one AirObserver (phy/air_observer.hpp), this one, which tells each
// of its observers in turn. Set as the medium's observer while it lives.
//
// Cost: one call per observer and notification, only while traces are on.

#include <utility>
#include <vector>

#include "phy/air_observer.hpp"
#include "phy/medium.hpp"

namespace wmnsim::trace {

class AirObserverFanout final : public phy::AirObserver {
 public:
  AirObserverFanout(phy::Medium& medium, std::vector<phy::AirObserver*> observers)
      : medium_(medium), observers_(std::move(observers)) {
    medium_.set_air_observer(this);
  }
  ~AirObserverFanout() override {
    if (medium_.air_observer() == this) medium_.set_air_observer(nullptr);
  }
  AirObserverFanout(const AirObserverFanout&) = delete;
  AirObserverFanout& operator=(const AirObserverFanout&) = delete;

  void on_transmit(phy::RadioId from, const phy::PhyFrame& frame) override {
    for (phy::AirObserver* o : observers_) o->on_transmit(from, frame);
  }
  void on_locked(phy::RadioId to, const phy::PhyFrame& frame, phy::PowerMw power) override {
    for (phy::AirObserver* o : observers_) o->on_locked(to, frame, power);
  }
  void on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) override {
    for (phy::AirObserver* o : observers_) o->on_decoded(to, frame, info, first_bit);
  }
  void on_failed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override {
    for (phy::AirObserver* o : observers_) o->on_failed(to, frame, why, first_bit);
  }
  void on_missed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override {
    for (phy::AirObserver* o : observers_) o->on_missed(to, frame, why, first_bit);
  }

 private:
  phy::Medium& medium_;
  std::vector<phy::AirObserver*> observers_;
};

}  // namespace wmnsim::trace
