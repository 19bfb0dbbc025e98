// MAC benchmark: the 50-station saturation scenario (fixtures/saturation_testbed.hpp),
// 802.11b at 11 Mbit/s, basic access, 1500-byte packets, under both reception
// models. Reports the median over repetitions of wall time per simulated second
// and events per second.
//
//   bench_mac [simulated_seconds=10] [repetitions=3]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mac/edca_params.hpp"
#include "fixtures/saturation_testbed.hpp"

using namespace wmnsim;

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("%-10s %-10s %4s %12s %14s %12s %10s\n", "phy", "reception", "n", "sim s", "wall s/sim s", "events/s",
              "Mbit/s");
  for (const int n : {10, 50}) {
    for (const auto kind : {phy::ReceptionKind::sinr, phy::ReceptionKind::threshold}) {
      std::vector<double> wall_per_s, events_per_s;
      mac::SaturationResult last;
      for (int r = 0; r < repetitions; ++r) {
        mac::SaturationSetup s;
        s.profile = phy::profile_80211b(phy::Preamble::Long);
        s.stations = n;
        s.params.cw_min = 32;
        s.params.cw_max = 1024;
        s.reception = kind;
        s.warmup = Time::zero();
        s.duration = Time::from_seconds(seconds);
        s.seed = static_cast<std::uint64_t>(r + 1);
        last = mac::run_saturation(s);
        wall_per_s.push_back(last.wall_time_s / seconds);
        events_per_s.push_back(static_cast<double>(last.events) / last.wall_time_s);
      }
      std::sort(wall_per_s.begin(), wall_per_s.end());
      std::sort(events_per_s.begin(), events_per_s.end());
      std::printf("%-10s %-10s %4d %12.1f %14.4f %12.3g %10.3f\n", "802.11b", kind == phy::ReceptionKind::sinr ? "sinr" : "threshold",
                  n, seconds, wall_per_s[wall_per_s.size() / 2], events_per_s[events_per_s.size() / 2],
                  last.throughput_bps / 1e6);
    }
  }
  return 0;
}
