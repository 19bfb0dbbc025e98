#pragma once
// What frame exchange asks of its radio: send a frame, and whether it is sending or
// receiving. A small interface so that frame exchange can be tested against a stub
// medium (tests/mac/test_frame_exchange.cpp); PhyRadioPort is the real radio's. One
// virtual call per frame sent, none per change of the medium (channel access is
// told of the radio's state, channel_access.hpp).

#include "core/time.hpp"
#include "phy/phy_frame.hpp"
#include "phy/radio.hpp"

namespace wmnsim::mac {

class RadioPort {
 public:
  // Starts transmitting now; the radio's listener hears on_tx_start and, after the
  // frame's airtime, on_tx_end.
  virtual void transmit(const phy::PhyFrame& frame) = 0;
  virtual bool transmitting() const = 0;
  virtual bool receiving() const = 0;
  // When the reception in progress began (receiving() only).
  virtual Time reception_start() const = 0;

 protected:
  ~RadioPort() = default;
};

class PhyRadioPort final : public RadioPort {
 public:
  explicit PhyRadioPort(phy::Radio& radio) : radio_(radio) {}
  void transmit(const phy::PhyFrame& frame) override { radio_.transmit(frame); }
  bool transmitting() const override { return radio_.transmitting(); }
  bool receiving() const override { return radio_.receiving(); }
  Time reception_start() const override { return radio_.reception_start(); }

 private:
  phy::Radio& radio_;
};

}  // namespace wmnsim::mac
