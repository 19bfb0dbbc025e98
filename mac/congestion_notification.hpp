#pragma once
// The 802.11s Congestion Control Notification frame body (IEEE 802.11-2012
// 8.5.17.3, the Congestion Notification element 8.4.2.102): what a congested mesh
// STA tells its neighbours, the time it expects the congestion to last, one
// expiration timer per access category (004 Sec. 3.1: "the only information an
// IEEE 802.11s compliant congestion notification element carries").
//
// On the air (18 octets, after the 24-octet management header):
//   Category     1  Mesh (13, Table 8-38)
//   Mesh Action  1  Congestion Control Notification (3)
//   Element ID   1  Congestion Notification (116)
//   Length       1  14
//   Destination Mesh STA Address  6  the mesh destination the congestion concerns
//   Congestion Notification Duration AC_BK, AC_BE, AC_VI, AC_VO  2 octets each
// A duration field is 16 bits; 004 Sec. 3.1 gives its range as 0 to roughly
// 6.5 s, i.e. units of 100 us (65535 x 100 us = 6.5535 s). Durations are kept
// in whole units, rounded up, as the field carries them.
//
// Sent with Mac::send_management; received by the handlers a node subscribes to
// category kCategoryMesh (Node::subscribe_management).

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/management_body.hpp"
#include "core/packet.hpp"  // kBroadcastRadio
#include "core/time.hpp"
#include "mac/edca_params.hpp"

namespace wmnsim::mac {

class CongestionNotification final : public ManagementBody {
 public:
  static constexpr std::uint8_t kCategoryMesh = 13;
  static constexpr std::uint8_t kActionCongestionControlNotification = 3;
  static constexpr std::uint8_t kElementId = 116;
  static constexpr std::uint32_t kBodyBytes = 1 + 1 + 1 + 1 + 6 + 4 * 2;
  static constexpr Time kDurationUnit = Time::us(100);
  static constexpr std::int64_t kMaxDurationUnits = 65535;
  static constexpr Time kMaxDuration = kDurationUnit * kMaxDurationUnits;  // 6.5535 s

  // `destination`: the radio (mesh STA) the congestion concerns; kBroadcastRadio
  // for every destination.
  explicit CongestionNotification(std::uint32_t destination = kBroadcastRadio) : destination_(destination) {}

  std::uint8_t category() const override { return kCategoryMesh; }
  std::uint8_t action() const override { return kActionCongestionControlNotification; }
  std::uint32_t size_bytes() const override { return kBodyBytes; }

  std::uint32_t destination() const { return destination_; }
  // A group-addressed notification is for the neighbours its group address names:
  // here the list of their radios (the address is the frame's RA, so the list adds
  // nothing on the air). Empty: every receiver (a unicast frame has one anyway).
  const std::vector<std::uint32_t>& addressees() const { return addressees_; }
  void set_addressees(std::vector<std::uint32_t> radios) { addressees_ = std::move(radios); }
  bool addressed_to(std::uint32_t radio) const {
    return addressees_.empty() || std::find(addressees_.begin(), addressees_.end(), radio) != addressees_.end();
  }
  Time duration(AccessCategory ac) const { return duration_[index_of(ac)]; }
  // Rounded up to the field's unit; throws std::invalid_argument outside
  // [0, 65535 x 100 us].
  void set_duration(AccessCategory ac, Time d) {
    if (d < Time::zero() || d > kMaxDuration) {
      throw std::invalid_argument("congestion notification duration out of range 0.." + kMaxDuration.to_string() +
                                  ": " + d.to_string());
    }
    const std::int64_t unit = kDurationUnit.picoseconds();
    duration_[index_of(ac)] = Time::ps((d.picoseconds() + unit - 1) / unit * unit);
  }

 private:
  std::uint32_t destination_;
  std::vector<std::uint32_t> addressees_;
  std::array<Time, kAccessCategoryCount> duration_{};
};

}  // namespace wmnsim::mac
