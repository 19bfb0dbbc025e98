#pragma once
// Receive-side duplicate detection (IEEE 802.11-2012 9.3.2.10): a frame with the
// Retry bit set whose sequence number equals the last one received from the same
// transmitter (and, for QoS data, the same traffic category) is a retransmission
// of a frame already received whose ACK was lost. It is acknowledged again but
// not delivered twice. The cache keeps one entry per (transmitter, category).
//
// Cost: one hash lookup per received data frame.

#include <cstdint>
#include <unordered_map>

namespace wmnsim::mac {

class DuplicateFilter {
 public:
  // Records the frame and says whether it is a duplicate of the last one.
  bool is_duplicate(std::uint32_t transmitter, std::uint8_t category, std::uint16_t sequence, bool retry) {
    const std::uint64_t key = (std::uint64_t{transmitter} << 8) | category;
    auto [it, inserted] = last_.try_emplace(key, sequence);
    if (inserted) return false;
    const bool duplicate = retry && it->second == sequence;
    it->second = sequence;
    return duplicate;
  }

 private:
  std::unordered_map<std::uint64_t, std::uint16_t> last_;
};

}  // namespace wmnsim::mac
