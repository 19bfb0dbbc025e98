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
// the two apart (each MPDU carries its transmitter's serial, Frame::mpdu_id, which
// is not on the air) so that the loss is accounted for (a false duplicate).
//
// Cost: one hash lookup per received data frame.

#include <cstdint>
#include <unordered_map>

namespace wmnsim::mac {

enum class SequenceMatch : std::uint8_t {
  new_frame,        // deliver it
  retransmission,   // the same MPDU again: discard
  false_duplicate,  // the standard's rule discards it, but it is a new packet
};

class DuplicateFilter {
 public:
  // Records the frame and says whether the 9.3.2.10 rule takes it for a duplicate
  // of the last one. `mpdu` is the frame's Frame::mpdu_id (0: unknown, and a match
  // is then taken as the rule takes it).
  SequenceMatch check(std::uint32_t transmitter, std::uint8_t category, std::uint16_t sequence, bool retry,
                      std::uint64_t mpdu) {
    const std::uint64_t key = (std::uint64_t{transmitter} << 8) | category;
    auto [it, inserted] = last_.try_emplace(key, Last{mpdu, sequence});
    if (inserted) return SequenceMatch::new_frame;
    Last& last = it->second;
    SequenceMatch match = SequenceMatch::new_frame;
    if (retry && last.sequence == sequence) {
      const bool known = last.mpdu != 0 && mpdu != 0;
      match = known && last.mpdu != mpdu ? SequenceMatch::false_duplicate : SequenceMatch::retransmission;
    }
    last = Last{mpdu, sequence};
    return match;
  }

 private:
  struct Last {
    std::uint64_t mpdu;
    std::uint16_t sequence;
  };
  std::unordered_map<std::uint64_t, Last> last_;
};

}  // namespace wmnsim::mac
