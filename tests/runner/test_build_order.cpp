// Issue 43 §2, docs/performance.md "Locality": since 58ca536 nodes, radios and
// MACs are constructed along a Hilbert curve over the nodes' positions (near in
// space, near in memory), while ids and indices keep the scenario's order. The
// order must change nothing but where objects sit in memory: these runs build the
// same scenarios in the scenario's order and in its reverse (a test hook) and
// compare the whole results, the events executed and the event-trace fingerprint.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "runner/run_scenario.hpp"
#include "scenario/phy_builder.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using phy::test_hooks::BuildOrder;

// The results of one run, built in `order`, without its wall clock and version.
nlohmann::ordered_json results_built(const nlohmann::json& doc, BuildOrder order) {
  phy::test_hooks::set_node_build_order(order);
  struct Reset {
    ~Reset() { phy::test_hooks::set_node_build_order(BuildOrder::along_space); }
  } reset;
  RunOptions options;
  options.fingerprint = true;
  nlohmann::ordered_json out = run_scenario(parse_scenario(doc), options).to_json();
  for (const char* key : {"wall_clock", "wmnsim"}) out.erase(key);
  return out;
}

nlohmann::json shipped(const char* file, double seconds) {
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / file);
  doc["simulation"]["duration_s"] = seconds;
  doc.erase("outputs");
  return doc;
}

void expect_same_in_every_order(const nlohmann::json& doc, const std::string& what) {
  const nlohmann::ordered_json along_space = results_built(doc, BuildOrder::along_space);
  ASSERT_TRUE(along_space["run"]["event_fingerprint"].is_string()) << what;  // the trace is compared too
  EXPECT_EQ(results_built(doc, BuildOrder::as_listed).dump(), along_space.dump()) << what << ", built in the scenario's order";
  EXPECT_EQ(results_built(doc, BuildOrder::reversed).dump(), along_space.dump()) << what << ", built in reverse";
}

TEST(BuildOrder, TheMeshRunsTheSameWhateverOrderItsNodesAreBuiltIn) {
  // 004's mesh: 40 nodes placed at random, 4 gateways (a Hilbert order far from
  // the listed one).
  expect_same_in_every_order(shipped("scenarios/fu2009/mesh40_4gw.json", 3), "mesh40_4gw");
}

TEST(BuildOrder, MultiRadioNodesWithControllersRunTheSameWhateverTheOrder) {
  // Several radios per node on their channels, and a controller reading the MACs
  // through the network's lists. The flows start within the first second (they
  // start at 100 s and later in the shipped file).
  nlohmann::json doc = shipped("scenarios/jamshaid/multi_radio.json", 5);
  double start = 0.0;
  for (nlohmann::json& flow : doc["flows"]) {
    flow["start_s"] = start += 0.1;
    flow.erase("stop_s");
  }
  expect_same_in_every_order(doc, "multi_radio");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
