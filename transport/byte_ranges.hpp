#pragma once
// Sorted, disjoint byte ranges [first, second) of a TCP sequence space: the
// receiver's out-of-order data and the sender's SACK scoreboard (RFC 2018, RFC 6675)
// both keep one.

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace wmnsim::transport {

using ByteRange = std::pair<std::uint64_t, std::uint64_t>;  // [first, second)

// Adds [first, second) to `ranges` (sorted, disjoint, not touching) and merges it
// with the ranges it overlaps or touches, keeping that invariant.
inline void insert_merged(std::vector<ByteRange>& ranges, std::uint64_t first, std::uint64_t second) {
  auto it = std::lower_bound(ranges.begin(), ranges.end(), ByteRange{first, second});
  it = ranges.insert(it, {first, second});
  if (it != ranges.begin() && std::prev(it)->second >= it->first) {
    --it;
    it->second = std::max(it->second, std::next(it)->second);
    ranges.erase(std::next(it));
  }
  while (std::next(it) != ranges.end() && std::next(it)->first <= it->second) {
    it->second = std::max(it->second, std::next(it)->second);
    ranges.erase(std::next(it));
  }
}

}  // namespace wmnsim::transport
