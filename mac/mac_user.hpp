#pragma once
// How a MAC talks to the layer above it (the node): packets received for it, and
// room freed in a queue. Owned by mac/ so that mac/ knows nothing of the node
// (DESIGN.md: upward calls go through small listener interfaces).

#include <cstddef>
#include <cstdint>

#include "core/management_body.hpp"
#include "core/packet.hpp"
#include "mac/mac_params.hpp"
#include "core/time.hpp"

namespace wmnsim::mac {

class MacUser {
 public:
  virtual ~MacUser() = default;
  // A data frame addressed to this radio (or broadcast) arrived intact and is not a
  // duplicate. `from_radio` is the transmitter's MAC address (radio index).
  virtual void on_mac_receive(PacketPtr packet, std::uint32_t from_radio) = 0;
  // A management frame addressed to this radio (or broadcast) arrived intact and is
  // not a duplicate. Returns whether anyone took it (false: discarded, counted in
  // MacStats::mgmt_rx_discarded). Never a data delivery.
  virtual bool on_management_receive(const ManagementBody& /*body*/, std::uint32_t /*from_radio*/) { return false; }
  // `departed` left the queue of `ac` for the air (its first transmission attempt
  // follows): a saturated source refills here. The MAC's state is consistent, so
  // the user may enqueue at once.
  virtual void on_queue_space(AccessCategory /*ac*/, const Packet& /*departed*/) {}
};

// Frame-level trace of one MAC: every frame it puts on the air and every frame it
// decodes (timelines in tests; frame traces for users). Frames are those of
// mac/frame.hpp; forward-declared to keep this header light.
struct Frame;
class MacObserver {
 public:
  static constexpr const char* kHookName = "a MAC observer";  // SubscriberList's messages
  virtual ~MacObserver() = default;
  virtual void on_frame_sent(std::uint32_t /*radio*/, const Frame& /*frame*/, Time /*airtime*/) {}
  virtual void on_frame_received(std::uint32_t /*radio*/, const Frame& /*frame*/) {}
  virtual void on_drop(std::uint32_t /*radio*/, const Packet& /*packet*/, DropCause /*cause*/) {}
  // The contention of the MAC, for the event trace (trace/event_trace.hpp). Told
  // after the MAC's state changed; an observer only reads.
  // `packet` entered the queue of `ac`, now `queue_length` packets long.
  virtual void on_enqueue(std::uint32_t /*radio*/, const Packet& /*packet*/, AccessCategory /*ac*/,
                          std::size_t /*queue_length*/) {}
  // `packet` left the queue of `ac` for service (its first attempt follows).
  virtual void on_dequeue(std::uint32_t /*radio*/, const Packet& /*packet*/, AccessCategory /*ac*/,
                          std::size_t /*queue_length*/) {}
  // A backoff of `slots` was drawn for `ac` in [0, cw - 1] (9.3.4.3).
  virtual void on_backoff(std::uint32_t /*radio*/, AccessCategory /*ac*/, int /*slots*/, int /*cw*/) {}
  // The NAV was set (grown) to end at `until` (9.3.2.4).
  virtual void on_nav(std::uint32_t /*radio*/, Time /*until*/) {}
  // The MPDU in service failed an attempt and will be tried again: its retry count
  // is now `retries` (9.3.4.4); `packet` is null for a management frame.
  virtual void on_retry(std::uint32_t /*radio*/, const Packet* /*packet*/, std::uint16_t /*sequence*/,
                        int /*retries*/) {}
  // The parameters of `ac`'s access function were set (Mac::set_params: a
  // controller's doing during a run) to `params`.
  virtual void on_params(std::uint32_t /*radio*/, AccessCategory /*ac*/, const EdcaParams& /*params*/) {}
};

}  // namespace wmnsim::mac
