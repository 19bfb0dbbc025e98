// Issue 14, section 1, on a whole network: 001's three-hop chain (Fig. 3) with a
// shared FIFO at the gateway, i.e. scenarios/jamshaid/chain_1mbps.json without its
// rate controller. A TCP source on the wired side sends to n1, n2 and n3 (1, 2
// and 3 hops). While the RTO collapsed to the stale SRTT on every new ACK, one
// flow per seed locked into a timeout every half second for the whole run with
// next to no drops (seed 1, 300 s: f1 at 15 kbit/s with 610 timeouts against
// 124 kbit/s for its neighbours). With Karn's back-off kept until a valid sample
// no flow times out more than a few times.
//
// Criterion: a flow is stuck at a timeout rate when it averages more than one
// RTO expiry per 10 s of the run; none may be. And no flow is starved by its own
// timer: the poorest gets at least a quarter of the richest's goodput (5 seeds
// after the fix: 0.40-0.48; before: 0.12 when a flow was stuck).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>

#include "scenario/scenario.hpp"
#include "runner/run_scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(TcpNoTimeoutLivelock, ThreeHopFifoChainHasNoFlowStuckAtATimeoutRate) {
  constexpr double kDurationS = 120;
  for (const int seed : {1, 2, 4}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/jamshaid/chain_1mbps.json");
    doc.erase("controllers");  // 001 Fig. 3's shared-FIFO baseline
    // The reception the criterion was measured with (before and after the fix). The
    // shipped scenario now uses the ns2 model, under which the three-hop flow also
    // loses frames to hidden senders: 10-14 timeouts in 120 s and a quarter or less
    // of the best flow's goodput (real losses, not the timer), which would blur
    // what this test guards.
    doc["phy"]["reception"]["model"] = "threshold";
    doc["propagation"].erase("frequency_hz");
    doc["simulation"]["duration_s"] = kDurationS;
    doc["simulation"]["seed"] = seed;
    const Results r = run_scenario(parse_scenario(doc));
    ASSERT_EQ(r.flows.size(), 3u);
    double lo = 1e300, hi = 0;
    for (const auto& f : r.flows) {
      const auto timeouts = f["timeouts"].get<std::uint64_t>();
      const double goodput = flow_column::goodput_bps.of(f);
      EXPECT_LE(timeouts, kDurationS / 10) << flow_column::id.of(f) << " at " << goodput << " bit/s";
      lo = std::min(lo, goodput);
      hi = std::max(hi, goodput);
    }
    EXPECT_GE(lo, hi / 4);
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
