#pragma once
// What a frame trace (trace/pcap_trace.hpp) watches on the air: every frame a
// radio starts to transmit, every frame a radio decodes, and every frame that
// reaches a radio without being decoded, with the cause; for the event trace, every
// frame a radio locks onto. Owned by phy/, which
// knows the rate, the channel and the powers; the observer reads the payload (the
// MAC frame) as its own business.
//
// One observer per Medium (Medium::set_air_observer), none by default: then the
// radios test one null pointer per transmission, per arriving signal and per
// reception's end, and nothing else happens (the interferer of a reception is
// looked up only while an observer is set). An observer only reads: it schedules no event and
// changes no state, so a traced run executes the same events as an untraced one
// (docs/fingerprints.md).

#include <cstdint>

#include "core/time.hpp"
#include "phy/phy_frame.hpp"
#include "phy/phy_listener.hpp"
#include "phy/rx_failure.hpp"

namespace wmnsim::phy {

using RadioId = std::uint32_t;  // as in phy/radio.hpp

class AirObserver {
 public:
  virtual ~AirObserver() = default;
  // Radio `from` starts transmitting `frame` now.
  virtual void on_transmit(RadioId from, const PhyFrame& frame) = 0;
  // Radio `to` locked onto `frame` now (detected its preamble: at its first bit, or
  // under PreambleDetection::window at the end of its detection window): its
  // reception begins; on_decoded or on_failed ends it. `power` is its received
  // power. Only the event trace (trace/event_trace.hpp) listens.
  virtual void on_locked(RadioId /*to*/, const PhyFrame& /*frame*/, PowerMw /*power*/) {}
  // Radio `to` decoded `frame` (RxOutcome::success) now, at its end; its first bit
  // arrived at `first_bit`. `info.power` is the frame's received power there.
  virtual void on_decoded(RadioId to, const PhyFrame& frame, const RxInfo& info, Time first_bit) = 0;
  // Radio `to` locked onto `frame` (its preamble and PLCP header were detected) and
  // lost it (RxOutcome::error or aborted), now; its first bit arrived at `first_bit`.
  virtual void on_failed(RadioId to, const PhyFrame& frame, const RxFailureInfo& why, Time first_bit) = 0;
  // `frame` reached radio `to` (its first bit at `first_bit`) and the radio never
  // locked onto it: why.cause says why. Called when the signal arrives, or (a faint
  // signal of the sinr model, handed over as an interval) when it is sent, or (a
  // preamble judged over a window, PreambleDetection::window) when the window ends,
  // the radio transmits or the signal ends, whichever comes first.
  virtual void on_missed(RadioId to, const PhyFrame& frame, const RxFailureInfo& why, Time first_bit) = 0;
};

}  // namespace wmnsim::phy
