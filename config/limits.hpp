#pragma once
// Limits on what a scenario sets in motion or holds (docs/scenario.md, "Limits"), for the
// scenario layer and for every registered entry that reads its own keys.

#include <cstdint>

namespace wmnsim {

// The most packets any buffer holds (a queue's capacity_packets, a controller's or a
// discipline's buffers and thresholds): ours, far above any buffer the papers use
// (tens of packets), and small enough that a full buffer's bookkeeping stays cheap.
inline constexpr std::int64_t kMaxBufferPackets = 1'000'000;

// Anything the scenario makes happen again and again (a source's packets, on/off
// switches, a controller's timer, the time-series samples) has a mean period of at
// least kMinPeriodS: at most 10^6 events per simulated second from each. The fastest
// 802.11a/g frame exchange takes over 50 us, so a faster source only fills queues.
inline constexpr double kMinPeriodS = 1e-6;

}  // namespace wmnsim
