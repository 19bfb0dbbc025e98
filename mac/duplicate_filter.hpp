#pragma once
// Receive-side duplicate detection (IEEE 802.11-2012 9.3.2.10): a frame with the
// Retry bit set whose sequence number equals the last one received from the same
// transmitter (and, for QoS data, the same traffic category) is a retransmission
// of a frame already received whose ACK was lost. It is acknowledged again but
// not delivered twice. The cache keeps one entry per (transmitter, category).
//
// The rule can be wrong: a transmitter's 12-bit counter (9.3.2.11) wraps, and a
// new frame whose first attempt failed can carry the number and the Retry bit of
// the last frame it sent this receiver long ago. A real receiver discards it like
// a duplicate, and so does the MAC; the simulator, which knows the packet, tells
// the two apart so that the lost packet is accounted for (a false duplicate).
//
// Cost: one hash lookup per received data frame.

#include <cstdint>
#include <unordered_map>

#include "core/packet.hpp"

namespace wmnsim::mac {

enum class SequenceMatch : std::uint8_t {
  new_frame,        // deliver it
  retransmission,   // the same MPDU again: discard
  false_duplicate,  // the standard's rule discards it, but it is a new packet
};

class DuplicateFilter {
 public:
  // Records the frame and says whether the 9.3.2.10 rule takes it for a duplicate
  // of the last one. `packet` is the frame's packet id (0 when it carries none, as
  // management frames: a match is then always a retransmission).
  SequenceMatch check(std::uint32_t transmitter, std::uint8_t category, std::uint16_t sequence, bool retry,
                      PacketId packet) {
    const std::uint64_t key = (std::uint64_t{transmitter} << 8) | category;
    auto [it, inserted] = last_.try_emplace(key, Last{packet, sequence});
    if (inserted) return SequenceMatch::new_frame;
    Last& last = it->second;
    SequenceMatch match = SequenceMatch::new_frame;
    if (retry && last.sequence == sequence) {
      // Without both packet ids (management frames) a match is taken as the rule takes it.
      const bool known = last.packet != 0 && packet != 0;
      match = known && last.packet != packet ? SequenceMatch::false_duplicate : SequenceMatch::retransmission;
    }
    last = Last{packet, sequence};
    return match;
  }

 private:
  struct Last {
    PacketId packet;
    std::uint16_t sequence;
  };
  std::unordered_map<std::uint64_t, Last> last_;
};

}  // namespace wmnsim::mac
