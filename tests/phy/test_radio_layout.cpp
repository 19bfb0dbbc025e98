// Issue 43 §2 (docs/performance.md "Locality", session 17): at 100,000 nodes a
// frame's receivers' radios are out of cache and each line of a radio a delivery
// touches is a miss; the Radio's members are declared by use so that what a faint
// delivery reads (Radio::faint_signal) lies within 64 bytes: one cache line, two
// at worst as the object falls. A reordering that spreads them fails here (the
// layout before f048f3d spread them over 146 bytes), as a field added to the Radio
// fails tests/runner/test_memory_budget.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/simulation.hpp"
#include "phy/medium.hpp"
#include "phy/profile.hpp"
#include "phy/radio.hpp"
#include "phy/reception.hpp"

namespace wmnsim::phy {

struct RadioLayout {
  // [first byte, past the last byte) of the fields faint_signal reads, from the radio's start.
  static std::pair<std::ptrdiff_t, std::ptrdiff_t> faint_path(const Radio& r) {
    std::ptrdiff_t lo = PTRDIFF_MAX, hi = 0;
    const auto field = [&](const auto& f) {
      const auto at = reinterpret_cast<const char*>(&f) - reinterpret_cast<const char*>(&r);
      lo = std::min(lo, at);
      hi = std::max(hi, at + static_cast<std::ptrdiff_t>(sizeof(f)));
    };
    field(r.locked_);
    field(r.faint_);
    field(r.faint_first_end_);
    field(r.faint_watch_at_);
    field(r.cca_ambiguous_);
    field(r.faint_assessed_busy_);
    return {lo, hi};
  }
};

namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(RadioLayout, WhatAFaintDeliveryReadsLiesWithinOneCacheLine) {
  Simulation sim(1);
  Medium medium(sim, ReceptionConfig{});
  const PhyProfile profile = profile_80211a();
  const RadioId id = medium.add_radio(RadioSpec{0, Point{0, 0, 0}, 36, PowerDbm(20.0), profile},
                                      sim.random().stream("node", 0, "rx_error"));
  const auto [lo, hi] = RadioLayout::faint_path(medium.radio(id));
  EXPECT_LE(hi - lo, 64) << "the faint path's fields span bytes " << lo << " to " << hi;
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
