#pragma once
// Limits on what a scenario sets in motion (docs/scenario.md, "Limits"), for the
// scenario layer and for every registered entry that reads its own keys.

namespace wmnsim {

// Anything the scenario makes happen again and again (a source's packets, on/off
// switches, a controller's timer, the time-series samples) has a mean period of at
// least kMinPeriodS: at most 10^6 events per simulated second from each. The fastest
// 802.11a/g frame exchange takes over 50 us, so a faster source only fills queues.
inline constexpr double kMinPeriodS = 1e-6;

}  // namespace wmnsim
