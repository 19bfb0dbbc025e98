// The links routing sees, built from the PHY and the wired links: who hears whom
// both ways, interface numbering, and the airtime metric's costs.
#include "runner/network_links.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "core/not_supported.hpp"
#include "core/simulation.hpp"
#include "phy/error_model.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;

json base_doc() {
  return R"({
    "simulation": {"duration_s": 1},
    "phy": {"standard": "802.11b", "data_rate_bps": 11e6},
    "propagation": {"model": "range", "rx_range_m": 250, "cs_range_m": 550},
    "nodes": [
      {"id": "A", "position_m": [0, 0]},
      {"id": "B", "position_m": [200, 0]},
      {"id": "GW", "position_m": [400, 0], "role": "gateway"}
    ],
    "flows": [{"id": "f", "transport": "tcp", "src": "A", "dst": "GW"}]
  })"_json;
}

struct Built {
  Scenario scenario;
  Simulation sim{1};
  phy::PhyNetwork net;
  std::vector<RoutingLink> links;
  explicit Built(const json& doc) : scenario(parse_scenario(doc)) {
    net = phy::build_phy(sim, scenario);
    links = routing_links(scenario, net);
  }
  std::uint32_t node(const char* id) const { return static_cast<std::uint32_t>(*scenario.find_node(id)); }
  std::vector<const RoutingLink*> between(const char* a, const char* b) const {
    std::vector<const RoutingLink*> out;
    for (const auto& l : links) {
      if (l.from == node(a) && l.to == node(b)) out.push_back(&l);
    }
    return out;
  }
};

TEST(NetworkLinks, RangeModelChainAt11Mbps) {
  const Built b(base_doc());
  ASSERT_EQ(b.links.size(), 4u);  // A <-> B <-> GW; A and GW are 400 m apart
  const auto ab = b.between("A", "B");
  ASSERT_EQ(ab.size(), 1u);
  EXPECT_EQ(ab[0]->interface, 0u);
  EXPECT_EQ(ab[0]->address, b.net.node_radios[b.node("B")][0]);
  EXPECT_FALSE(ab[0]->wired);
  // 802.11b long preamble, 11 Mbit/s data: 192 us + ceil(8 (24 + 8 + 1024 + 4) / 11) us
  // = 963 us, SIFS 10 us, ACK at the 1 Mbit/s basic rate 192 + 112 = 304 us, DIFS 50 us.
  EXPECT_NEAR(ab[0]->cost_s, 1327e-6, 1e-12);
  EXPECT_TRUE(b.between("A", "GW").empty());
  EXPECT_EQ(b.between("GW", "B").size(), 1u);
  // Sorted by (from, to, interface).
  EXPECT_TRUE(std::is_sorted(b.links.begin(), b.links.end(), [](const RoutingLink& x, const RoutingLink& y) {
    return std::tie(x.from, x.to, x.interface) < std::tie(y.from, y.to, y.interface);
  }));
  const Routing r = compute_routing(b.scenario, b.links);
  EXPECT_EQ(r.tables.path(b.node("A"), b.node("GW")),
            (std::vector<std::uint32_t>{b.node("A"), b.node("B"), b.node("GW")}));
}

TEST(NetworkLinks, EdcaFramesCarryTheQosHeader) {
  json doc = base_doc();
  doc["mac"] = {{"type", "edca"}};
  const Built b(doc);
  // Two more header octets: ceil(8 * 1062 / 11) = 773 us instead of 771.
  EXPECT_NEAR(b.between("A", "B")[0]->cost_s, 1329e-6, 1e-12);
}

TEST(NetworkLinks, MultiRadioNodesLinkPerChannel) {
  json doc = base_doc();
  doc["nodes"] = R"([
    {"id": "A", "position_m": [0, 0], "radios": [{"channel": 1}, {"channel": 6}]},
    {"id": "B", "position_m": [100, 0], "radios": [{"channel": 1}, {"channel": 6}]},
    {"id": "C", "position_m": [0, 100], "radios": [{"channel": 6}]},
    {"id": "GW", "position_m": [100, 100], "role": "gateway", "radios": [{"channel": 11}]}
  ])"_json;
  doc["flows"] = {{{"id", "f"}, {"transport", "udp"}, {"src", "A"}, {"dst", "C"}}};
  const Built b(doc);
  const auto ab = b.between("A", "B");
  ASSERT_EQ(ab.size(), 2u);  // one per shared channel, never across channels
  EXPECT_EQ(ab[0]->interface, 0u);
  EXPECT_EQ(ab[0]->address, b.net.node_radios[b.node("B")][0]);
  EXPECT_EQ(ab[1]->interface, 1u);
  EXPECT_EQ(ab[1]->address, b.net.node_radios[b.node("B")][1]);
  const auto ca = b.between("C", "A");
  ASSERT_EQ(ca.size(), 1u);
  EXPECT_EQ(ca[0]->interface, 0u);
  EXPECT_EQ(ca[0]->address, b.net.node_radios[b.node("A")][1]);
  const auto ac = b.between("A", "C");
  ASSERT_EQ(ac.size(), 1u);
  EXPECT_EQ(ac[0]->interface, 1u);
  for (const auto& l : b.links) {
    EXPECT_NE(l.from, b.node("GW"));  // alone on channel 11
    EXPECT_NE(l.to, b.node("GW"));
  }
  const Routing r = compute_routing(b.scenario, b.links);
  EXPECT_EQ(r.tables.next_hop(b.node("A"), b.node("B"))->interface, 0u);  // equal costs: lowest interface
  EXPECT_EQ(r.tables.next_hop(b.node("A"), b.node("C"))->interface, 1u);
}

TEST(NetworkLinks, WiredInterfacesFollowTheRadios) {
  json doc = base_doc();
  doc["nodes"].push_back({{"id", "H1"}, {"role", "host"}});
  doc["nodes"].push_back({{"id", "H2"}, {"role", "host"}});
  doc["links"] = R"([
    {"nodes": ["GW", "H1"]},
    {"nodes": ["H1", "H2"], "rate_bps": 10e6, "delay_s": 0.005},
    {"nodes": ["H2", "GW"]}
  ])"_json;
  const Built b(doc);
  const std::size_t gw = b.node("GW"), h1 = b.node("H1"), h2 = b.node("H2");
  EXPECT_EQ(wired_interface(b.scenario, gw, 0), 1u);  // after GW's one radio
  EXPECT_EQ(wired_interface(b.scenario, gw, 2), 2u);
  EXPECT_EQ(wired_interface(b.scenario, h1, 0), 0u);  // hosts have no radios
  EXPECT_EQ(wired_interface(b.scenario, h1, 1), 1u);
  EXPECT_EQ(wired_interface(b.scenario, h2, 1), 0u);
  EXPECT_EQ(wired_interface(b.scenario, h2, 2), 1u);
  EXPECT_THROW(wired_interface(b.scenario, gw, 1), std::invalid_argument);
  // All at once, the same numbering.
  const auto all = wired_interfaces(b.scenario);
  ASSERT_EQ(all.size(), b.scenario.links.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(all[k].first, wired_interface(b.scenario, b.scenario.links[k].a, k));
    EXPECT_EQ(all[k].second, wired_interface(b.scenario, b.scenario.links[k].b, k));
  }
  EXPECT_EQ(wired_link_of(b.scenario, gw, 0), std::nullopt);  // the radio
  EXPECT_EQ(wired_link_of(b.scenario, gw, 1), 0u);
  EXPECT_EQ(wired_link_of(b.scenario, gw, 2), 2u);
  EXPECT_EQ(wired_link_of(b.scenario, gw, 3), std::nullopt);
  EXPECT_EQ(wired_link_of(b.scenario, h2, 0), 1u);

  const auto h1h2 = b.between("H1", "H2");
  ASSERT_EQ(h1h2.size(), 1u);
  EXPECT_TRUE(h1h2[0]->wired);
  EXPECT_EQ(h1h2[0]->interface, 1u);
  EXPECT_EQ(h1h2[0]->address, h2);
  EXPECT_NEAR(h1h2[0]->cost_s, 8192 / 10e6 + 0.005, 1e-15);
  const auto gwh2 = b.between("GW", "H2");
  ASSERT_EQ(gwh2.size(), 1u);
  EXPECT_EQ(gwh2[0]->interface, 2u);
  EXPECT_NEAR(gwh2[0]->cost_s, 8192 / 100e6 + 0.001, 1e-15);
  EXPECT_EQ(b.between("H2", "GW")[0]->interface, 1u);
}

// Auto rates under log-distance path loss: a long hop runs at a slow rate, two
// short ones at 11 Mbit/s, and the airtime metric prefers the two fast hops.
constexpr double kHalf = 100;

json auto_rate_doc(const char* metric) {
  json doc = base_doc();
  doc["phy"] = {{"standard", "802.11b"}, {"data_rate_bps", "auto"}};
  doc["propagation"] = {{"model", "log_distance"}, {"exponent", 3.0}};
  doc["nodes"] = {{{"id", "A"}, {"position_m", {0, 0}}},
                  {{"id", "B"}, {"position_m", {kHalf, 0}}},
                  {{"id", "C"}, {"position_m", {2 * kHalf, 0}}}};
  doc["flows"] = {{{"id", "f"}, {"transport", "tcp"}, {"src", "A"}, {"dst", "C"}}};
  doc["routing"] = {{"metric", metric}};
  return doc;
}

TEST(NetworkLinks, AirtimeMetricPrefersTwoFastHopsToOneSlowHop) {
  const Built hops(auto_rate_doc("hop_count"));
  const auto ab = hops.between("A", "B");
  const auto ac = hops.between("A", "C");
  ASSERT_EQ(ab.size(), 1u);
  ASSERT_EQ(ac.size(), 1u);
  // 100 m runs at 11 Mbit/s, 200 m at 1 Mbit/s: 192 + 8480 + 10 + 304 + 50 us.
  EXPECT_NEAR(ab[0]->cost_s, 1327e-6, 1e-12);
  EXPECT_NEAR(ac[0]->cost_s, 9036e-6, 1e-12);
  const std::uint32_t a = hops.node("A"), b = hops.node("B"), c = hops.node("C");
  EXPECT_EQ(compute_routing(hops.scenario, hops.links).tables.path(a, c), (std::vector<std::uint32_t>{a, c}));
  const Built airtime(auto_rate_doc("airtime"));
  EXPECT_EQ(compute_routing(airtime.scenario, airtime.links).tables.path(a, c),
            (std::vector<std::uint32_t>{a, b, c}));
}

// A fixed rate meets the test "auto" applies to a rate: a link whose FER at it is
// not below auto_rate.max_fer is no link (docs/network.md, "Which links routing uses").
json fixed_rate_doc(double rate_bps) {
  json doc = auto_rate_doc("hop_count");
  doc["phy"]["data_rate_bps"] = rate_bps;
  return doc;
}

TEST(NetworkLinks, AFixedRateLinkMustMeetTheFrameErrorRateRule) {
  // 200 m at 4 dB SNR: no 11 Mbit/s frame gets through, 1 Mbit/s ones do.
  const Built fast(fixed_rate_doc(11e6));
  const std::uint32_t a = fast.node("A"), b = fast.node("B"), c = fast.node("C");
  EXPECT_EQ(fast.between("A", "B").size(), 1u);
  EXPECT_TRUE(fast.between("A", "C").empty());
  EXPECT_TRUE(fast.between("C", "A").empty());
  EXPECT_EQ(compute_routing(fast.scenario, fast.links).tables.path(a, c), (std::vector<std::uint32_t>{a, b, c}));
  const Built slow(fixed_rate_doc(1e6));
  EXPECT_EQ(slow.between("A", "C").size(), 1u);
  EXPECT_EQ(compute_routing(slow.scenario, slow.links).tables.path(a, c), (std::vector<std::uint32_t>{a, c}));
}

TEST(NetworkLinks, TheFixedRateRuleReadsAutoRatesThreshold) {
  // The 200 m link at 2 Mbit/s: its FER for 1500 bytes lies well inside (0, 1); a
  // max_fer just above that FER admits the link, one just below refuses it.
  constexpr int kReferenceBytes = 1500;
  json doc = fixed_rate_doc(2e6);
  const Built probe(doc);
  const phy::RadioId ra = probe.net.node_radios[probe.node("A")][0];
  const phy::RadioId rc = probe.net.node_radios[probe.node("C")][0];
  const phy::Db snr = probe.net.medium->power_dbm(ra, *probe.net.medium->link(ra, rc)) - probe.net.medium->reception().noise;
  const double fer = phy::frame_error_rate(*probe.net.fixed_data_rate, snr.linear(), 8 * kReferenceBytes);
  ASSERT_GT(fer, 0.05);
  ASSERT_LT(fer, 0.95);
  doc["phy"]["auto_rate"] = {{"max_fer", fer * 1.001}, {"reference_bytes", kReferenceBytes}};
  EXPECT_EQ(Built(doc).between("A", "C").size(), 1u);
  doc["phy"]["auto_rate"]["max_fer"] = fer * 0.999;
  EXPECT_TRUE(Built(doc).between("A", "C").empty());
}

TEST(NetworkLinks, WithoutFrameErrorsEveryDecodableLinkIsUsable) {
  // The threshold reception model decodes every frame above its sensitivity.
  json doc = fixed_rate_doc(11e6);
  doc["phy"]["reception"] = {{"model", "threshold"}, {"rx_sensitivity_dbm", -95}, {"cs_threshold_dbm", -95}};
  EXPECT_EQ(Built(doc).between("A", "C").size(), 1u);
}

// Every stored scenario routes: each flow has its paths under the scenario's own
// routing, with the PHY the scenario builds.
TEST(NetworkLinks, EveryScenarioInTheRepositoryRoutes) {
  const std::filesystem::path root = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios";
  int routed = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    if (entry.path().parent_path().filename() == "schema") continue;
    if (entry.path().filename().string().ends_with(".reference.json")) continue;  // docs/references.md
    if (entry.path().filename().string().ends_with(".sweep.json")) continue;      // docs/sweeps.md
    // A study's reproduction folder holds experiments, stored runs and generated scenarios,
    // checked by the sweep that runs them (docs/reproduce.md).
    if (std::find(entry.path().begin(), entry.path().end(), std::filesystem::path("reproduction")) != entry.path().end()) continue;
    SCOPED_TRACE(entry.path().string());
    const Scenario s = load_scenario_file(entry.path());
    Simulation sim(s.simulation.seed);
    phy::PhyNetwork net;
    try {
      net = phy::build_phy(sim, s);
    } catch (const NotSupportedError&) {
      continue;  // the PHY cannot build it yet; nothing to route
    }
    try {
      const Routing r = compute_routing(s, routing_links(s, net));
      EXPECT_EQ(r.flows.size(), s.flows.size());
      ++routed;
    } catch (const ScenarioError& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_GE(routed, 6);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
