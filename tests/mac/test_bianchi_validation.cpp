// The DCF against Bianchi's saturation model (control/bianchi.hpp): n stations in
// one collision domain (no capture: the threshold reception model, see the
// testbed), always backlogged, 1500-byte IP packets, basic access and
// RTS/CTS, 802.11b at 11 Mbit/s (control frames at 1 Mbit/s, long preamble) and
// 802.11a at 54 Mbit/s (control at 6 Mbit/s). The model is evaluated here from the
// same parameters as the simulated MAC: windows, the finite retry limit (Wu et
// al.'s chain with m = short retry limit - 1 = 6; with RTS/CTS only RTS frames
// collide and they count against the short limit too), and slot durations from
// the same airtimes. After a collision the stations that did not transmit defer
// EIFS (they received a corrupted frame), so the model's T_c uses EIFS.
//
// The table is printed; docs/performance.md quotes it.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "control/bianchi.hpp"
#include "mac/edca_params.hpp"
#include "fixtures/saturation_testbed.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;

struct PhyCase {
  const char* name;
  phy::PhyProfile profile;
  double data_bps;
  double control_bps;
  Time measured;
};

TEST(BianchiValidation, SaturationThroughputWithinThreePercentOfTheModel) {
  const PhyCase cases[] = {
      {"802.11b 11M", phy::profile_80211b(phy::Preamble::Long), 11e6, 1e6, 8_s},
      {"802.11a 54M", phy::profile_80211a(), 54e6, 6e6, 3_s},
  };
  const int ns[] = {1, 2, 5, 10, 20, 50};
  std::printf("%-12s %-8s %4s %10s %10s %7s %7s %7s\n", "phy", "access", "n", "sim Mb/s", "model", "diff%",
              "p sim", "p model");
  for (const PhyCase& c : cases) {
    const auto bounds = phy_cw_bounds(c.profile);
    for (const bool rts : {false, true}) {
      for (const int n : ns) {
        SaturationSetup s;
        s.profile = c.profile;
        s.data_rate_bps = c.data_bps;
        s.control_rate_bps = c.control_bps;
        s.stations = n;
        s.params.cw_min = bounds.cw_min;
        s.params.cw_max = bounds.cw_max;
        s.params.short_retry_limit = 7;
        s.params.long_retry_limit = 4;
        if (rts) s.params.rts_threshold_bytes = 500;
        s.warmup = 500_ms;
        s.duration = c.measured;
        const SaturationResult sim = run_saturation(s);

        const phy::Mcs* data = phy::find_mcs(c.profile.family, static_cast<std::int64_t>(c.data_bps));
        const phy::Mcs* control = phy::find_mcs(c.profile.family, static_cast<std::int64_t>(c.control_bps));
        const auto chain = control::backoff_chain(bounds.cw_min, bounds.cw_max, 7);
        const auto times = control::exchange_times(c.profile, *data, *control, 1500, Time::ns(17),
                                                   control::CollisionGap::eifs);
        const auto model = control::saturation(
            chain, n, control::slot_durations(rts ? control::AccessMode::rts_cts : control::AccessMode::basic, times),
            1500.0 * 8);
        const double diff = (sim.throughput_bps - model.throughput_bps) / model.throughput_bps;
        std::printf("%-12s %-8s %4d %10.3f %10.3f %+7.2f %7.4f %7.4f\n", c.name, rts ? "RTS/CTS" : "basic", n,
                    sim.throughput_bps / 1e6, model.throughput_bps / 1e6, 100.0 * diff, sim.collision_probability,
                    model.p);
        EXPECT_NEAR(diff, 0.0, 0.03) << c.name << (rts ? " RTS/CTS" : " basic") << " n=" << n;
      }
    }
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
