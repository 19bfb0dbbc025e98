// 000 Sec. 5.5 / Fig. 27: the Markov model and the simulator, both with a fixed TCP
// window of 3, across B's CWmin. They must show the same physics: the two-hop flow
// starves at small CWmin_B, its share rises with CWmin_B, and the two flows are
// close to fair by 128, while the total falls. The table is printed for the reader
// (docs/reproductions/starvation.md quotes it).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "control/starvation_model.hpp"
#include "scenario/scenario.hpp"
#include "runner/run_scenario.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Point {
  int cw_min_b;
  double model_share, model_jain, model_total_bps;
  double sim_share, sim_jain, sim_total_bps;
};

Point measure(int cw_min_b) {
  control::StarvationModelParams p;
  p.cw_min_b = cw_min_b;
  const control::StarvationModelResult m = control::solve_starvation_model(p);

  nlohmann::json doc =
      read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/starvation/chain2_fixed_window3.json");
  doc["simulation"]["duration_s"] = 40;
  doc["nodes"][1]["mac"]["cw_min"] = cw_min_b;
  const Results r = run_scenario(parse_scenario(doc));
  double a = 0, b = 0;
  for (const auto& f : r.flows) (flow_column::id.of(f) == "A_to_GW" ? a : b) = flow_column::goodput_bps.of(f);
  return {cw_min_b, m.share_a, m.jain_index, m.lambda_a_bps + m.lambda_b_bps,
          a / (a + b), summary_column::jain_fairness_index.of(r.summary), a + b};
}

TEST(StarvationModelVsSimulation, SameTrendAcrossTheCwMinSweep) {
  std::vector<Point> sweep;
  for (const int cw : {16, 32, 64, 128, 256, 512}) sweep.push_back(measure(cw));

  std::printf("CWmin_B  model: share  Jain  total Mbit/s | simulation: share  Jain  total Mbit/s\n");
  for (const Point& x : sweep) {
    std::printf("%7d  %12.3f %5.3f %13.2f | %17.3f %5.3f %13.2f\n", x.cw_min_b, x.model_share, x.model_jain,
                x.model_total_bps / 1e6, x.sim_share, x.sim_jain, x.sim_total_bps / 1e6);
  }
  for (const Point& x : sweep) {
    SCOPED_TRACE(x.cw_min_b);
    if (x.cw_min_b <= 32) {
      // Default and smaller windows at B: the two-hop flow starves in both.
      EXPECT_LT(x.model_share, 0.1);
      EXPECT_LT(x.sim_share, 0.1);
    }
    if (x.cw_min_b >= 128) {
      // Fairness reached: Jain's index near 1 in both (a share of 1/3 to 1/2).
      EXPECT_GT(x.model_jain, 0.85);
      EXPECT_GT(x.sim_jain, 0.85);
    }
    // The two agree within 0.15 on the share everywhere.
    EXPECT_NEAR(x.model_share, x.sim_share, 0.15);
  }
  // The share rises with CWmin_B up to 128 (beyond it both level off), and
  // fairness costs throughput: the total falls all along.
  for (std::size_t i = 1; i < sweep.size(); ++i) {
    SCOPED_TRACE(sweep[i].cw_min_b);
    if (sweep[i].cw_min_b <= 128) {
      EXPECT_GT(sweep[i].model_share, sweep[i - 1].model_share);
      EXPECT_GT(sweep[i].sim_share, sweep[i - 1].sim_share);
    }
    EXPECT_LT(sweep[i].model_total_bps, sweep[i - 1].model_total_bps);
    EXPECT_LT(sweep[i].sim_total_bps, sweep[i - 1].sim_total_bps);
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
