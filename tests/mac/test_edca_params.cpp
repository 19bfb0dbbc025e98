// Default EDCA parameters, DCF as the one-category case, and the contention-window
// convention (sizes in slots) shared with the scenario.
#include "scenario/scenario.hpp"
#include "mac/edca_params.hpp"

#include <gtest/gtest.h>

#include <string>

#include "mac/mac_timing.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

void expect_eq(const EdcaParams& got, const EdcaParams& want, const std::string& what) {
  EXPECT_EQ(got.aifsn, want.aifsn) << what;
  EXPECT_EQ(got.cw_min, want.cw_min) << what;
  EXPECT_EQ(got.cw_max, want.cw_max) << what;
  EXPECT_EQ(got.txop.time, want.txop.time) << what;
  EXPECT_EQ(got.txop.frames, want.txop.frames) << what;
}

TEST(MacEdca, DefaultsDsss) {
  const auto acs = default_edca_params(phy::profile_80211b());
  expect_eq(acs[index_of(AccessCategory::ac_bk)], {7, 32, 1024, {}}, "BK");
  expect_eq(acs[index_of(AccessCategory::ac_be)], {3, 32, 1024, {}}, "BE");
  // (aCWmin+1)/2 - 1 = 15 and aCWmin = 31 in the standard's notation: sizes 16, 32.
  expect_eq(acs[index_of(AccessCategory::ac_vi)], {2, 16, 32, {Time::us(6016), 0}}, "VI");
  // (aCWmin+1)/4 - 1 = 7 and (aCWmin+1)/2 - 1 = 15: sizes 8, 16.
  expect_eq(acs[index_of(AccessCategory::ac_vo)], {2, 8, 16, {Time::us(3264), 0}}, "VO");
}

TEST(MacEdca, DefaultsOfdm) {
  for (const phy::PhyProfile& p : {phy::profile_80211a(), phy::profile_80211g()}) {
    const auto acs = default_edca_params(p);
    expect_eq(acs[index_of(AccessCategory::ac_bk)], {7, 16, 1024, {}}, "BK");
    expect_eq(acs[index_of(AccessCategory::ac_be)], {3, 16, 1024, {}}, "BE");
    expect_eq(acs[index_of(AccessCategory::ac_vi)], {2, 8, 16, {Time::us(3008), 0}}, "VI");
    expect_eq(acs[index_of(AccessCategory::ac_vo)], {2, 4, 8, {Time::us(1504), 0}}, "VO");
  }
}

TEST(MacEdca, AifsFromAifsn) {
  // 802.11a: AIFS[BE] = 16 + 3 x 9 = 43 us, AIFS[VO] = DIFS = 34 us.
  const phy::PhyProfile a = phy::profile_80211a();
  const MacTiming t = mac_timing(a, phy::kOfdmMcs[0]);
  const auto acs = default_edca_params(a);
  EXPECT_EQ(t.aifs(acs[index_of(AccessCategory::ac_be)].aifsn), Time::us(43));
  EXPECT_EQ(t.aifs(acs[index_of(AccessCategory::ac_bk)].aifsn), Time::us(79));
  EXPECT_EQ(t.aifs(acs[index_of(AccessCategory::ac_vo)].aifsn), t.difs);
}

TEST(MacEdca, DcfIsOneCategoryWithDifs) {
  MacParams mac;
  mac.cw_min = 32;
  mac.cw_max = 1024;
  const EdcaParams dcf = dcf_params(mac);
  expect_eq(dcf, {2, 32, 1024, {}}, "DCF");
  const MacTiming t = mac_timing(phy::profile_80211b(), phy::kDsssMcs[1]);
  EXPECT_EQ(t.aifs(dcf.aifsn), t.difs);
}

TEST(MacEdca, ContentionWindowDoubling) {
  // Sizes double up to cw_max: 32, 64, ..., 1024, 1024 (the standard's 31 .. 1023).
  int cw = 32;
  const int expected[] = {64, 128, 256, 512, 1024, 1024};
  for (const int want : expected) {
    cw = next_cw(cw, 1024);
    EXPECT_EQ(cw, want);
  }
  EXPECT_EQ(doubling_stages(32, 1024), 5);
  EXPECT_EQ(doubling_stages(16, 1024), 6);
  EXPECT_EQ(doubling_stages(32, 32), 0);
  EXPECT_EQ(doubling_stages(8, 16), 1);
}

TEST(MacEdca, PriorityOrder) {
  EXPECT_TRUE(higher_priority(AccessCategory::ac_vo, AccessCategory::ac_vi));
  EXPECT_TRUE(higher_priority(AccessCategory::ac_vi, AccessCategory::ac_be));
  EXPECT_TRUE(higher_priority(AccessCategory::ac_be, AccessCategory::ac_bk));
  EXPECT_FALSE(higher_priority(AccessCategory::ac_be, AccessCategory::ac_be));
}

// The scenario fills the same defaults (core/ cannot call mac/, so the table lives in
// both places); this keeps them equal.
TEST(MacEdca, MatchesTheScenarioDefaults) {
  const struct {
    const char* standard;
    phy::PhyProfile profile;
  } cases[] = {{"802.11b", phy::profile_80211b()},
               {"802.11a", phy::profile_80211a()},
               {"802.11g", phy::profile_80211g()}};
  for (const auto& c : cases) {
    nlohmann::json doc = R"({
      "simulation": {"duration_s": 1},
      "mac": {"type": "edca"},
      "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "B", "position_m": [50, 0]}],
      "flows": [{"id": "f", "transport": "udp", "src": "A", "dst": "B",
                 "traffic": {"type": "saturated"}}]
    })"_json;
    doc["phy"] = {{"standard", c.standard}};
    const Scenario s = parse_scenario(doc);
    const auto want = default_edca_params(c.profile);
    for (std::size_t i = 0; i < kAccessCategoryCount; ++i) {
      expect_eq(s.mac.params.access_categories[i], want[i],
                std::string(c.standard) + " AC " + std::to_string(i));
    }
    EXPECT_EQ(s.mac.params.cw_min, phy_cw_bounds(c.profile).cw_min) << c.standard;
    EXPECT_EQ(s.mac.params.cw_max, phy_cw_bounds(c.profile).cw_max) << c.standard;
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
