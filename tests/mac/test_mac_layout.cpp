// Issue 43 §2 (docs/performance.md "The MAC laid out by use", session 18): at
// 100,000 nodes the MACs of a frame's receivers are out of cache, and each line of
// a MAC that a receiver's event reads is a miss. Most receivers only overhear: the
// radio tells their MAC of each change of its CCA (ChannelAccess::refresh, with
// the meter and FrameExchange::active() through ChannelAccess::Owner) and of each
// frame's end (FrameExchange::on_rx_end, handle_frame: EIFS or not, the NAV, the
// observers). The members of ChannelAccess, BusyTimeMeter, FrameExchange and the
// Mac are declared by use so that what those paths read lies in one stretch of
// 272 bytes (five lines, as the object falls), where the layout before spread it
// over bytes 112 to 607 of the MAC's 608 (eight or nine lines). A reordering that
// spreads them again fails here, as a field added to the MAC fails
// tests/runner/test_memory_budget.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "mac/mac.hpp"

// offsetof, because most of these fields are references (whose address is not
// theirs): conditionally supported for a class that is not standard-layout, which
// GCC and Clang support. Pushed and popped: in a unity build the files after this one
// share its translation unit.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"

namespace wmnsim::mac {

struct MacLayout {
  // The bytes a member takes in its class: a reference is stored as a pointer.
  template <class T>
  static constexpr std::ptrdiff_t stored = std::is_reference_v<T> ? sizeof(void*) : sizeof(T);

  // [first byte, past the last byte) of the fields the paths above read, from the
  // MAC's start. The MAC's vtable pointers (its first 24 bytes, read by each call
  // from the radio and by ChannelAccess::Owner's) are where the language puts them.
  static std::pair<std::ptrdiff_t, std::ptrdiff_t> overheard_path() {
    std::ptrdiff_t lo = PTRDIFF_MAX, hi = 0;
    const auto field = [&](std::ptrdiff_t at, std::ptrdiff_t size) {
      lo = std::min(lo, at);
      hi = std::max(hi, at + size);
    };
    // ChannelAccess: refresh (and what a change of busy_ runs), set_phy_busy,
    // set_nav, errored_reception, error_free_reception, account_ns2.
    const std::ptrdiff_t a = offsetof(Mac, access_);
#define WMNSIM_ACCESS(m) field(a + offsetof(ChannelAccess, m), stored<decltype(ChannelAccess::m)>)
    WMNSIM_ACCESS(scheduler_);
    WMNSIM_ACCESS(meter_);
    WMNSIM_ACCESS(owner_);
    WMNSIM_ACCESS(timing_);
    WMNSIM_ACCESS(functions_);
    WMNSIM_ACCESS(observers_);
    WMNSIM_ACCESS(node_);
    WMNSIM_ACCESS(deferral_);
    WMNSIM_ACCESS(phy_busy_);
    WMNSIM_ACCESS(transmitting_);
    WMNSIM_ACCESS(busy_);
    WMNSIM_ACCESS(use_eifs_);
    WMNSIM_ACCESS(nav_end_);
    WMNSIM_ACCESS(idle_since_);
    WMNSIM_ACCESS(timer_at_);
    WMNSIM_ACCESS(nav_timer_);
#undef WMNSIM_ACCESS
    // The meter: channel() and ns2_update() on every refresh, ns2_nav_until() on
    // an errored frame, ns2_waiting_for_data() on an intact one; all of it.
    field(offsetof(Mac, meter_), sizeof(BusyTimeMeter));
    // FrameExchange: on_rx_end and handle_frame for a frame to someone else, and
    // active().
    const std::ptrdiff_t x = offsetof(Mac, exchange_);
#define WMNSIM_EXCHANGE(m) field(x + offsetof(FrameExchange, m), stored<decltype(FrameExchange::m)>)
    WMNSIM_EXCHANGE(scheduler_);
    WMNSIM_EXCHANGE(access_);
    WMNSIM_EXCHANGE(meter_);
    WMNSIM_EXCHANGE(observers_);
    WMNSIM_EXCHANGE(address_);
    WMNSIM_EXCHANGE(rx_errors_);
    WMNSIM_EXCHANGE(response_window_start_);
    WMNSIM_EXCHANGE(awaiting_);
    WMNSIM_EXCHANGE(timeout_passed_);
    WMNSIM_EXCHANGE(sifs_action_);
    WMNSIM_EXCHANGE(sending_);
    WMNSIM_EXCHANGE(ns2_);
#undef WMNSIM_EXCHANGE
    return {lo, hi};
  }
};

namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(MacLayout, WhatAnOverheardFrameAndTheCcaReadLiesWithin272Bytes) {
  const auto [lo, hi] = MacLayout::overheard_path();
  EXPECT_LE(hi - lo, 272) << "the overheard frame's and the CCA's fields span bytes " << lo << " to " << hi;
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac

#pragma GCC diagnostic pop
