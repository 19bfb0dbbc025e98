// outputs.pcap as the loader reads it (docs/traces.md "The key"), and the file
// names a trace of a built network writes.
#include <gtest/gtest.h>

#include "runner/network.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "trace/pcap_trace.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;
using test::has_issue;
using test::issues_of;
using test::minimal_scenario;

TEST(PcapOutput, AbsentMeansNoTraceAndDefaultsApply) {
  EXPECT_FALSE(parse_scenario(minimal_scenario()).outputs.pcap);
  json doc = minimal_scenario();
  doc["outputs"]["pcap"] = {{"path", "out/trace"}};
  const Scenario s = parse_scenario(doc);
  ASSERT_TRUE(s.outputs.pcap);
  EXPECT_EQ(s.outputs.pcap->path, "out/trace");
  EXPECT_EQ(s.outputs.pcap->per, PcapSplit::channel);
  EXPECT_EQ(s.outputs.pcap->snap_length, 65535);
  EXPECT_TRUE(s.outputs.pcap->nodes.empty());
  // Today's files: classic pcap with decoded frames only.
  EXPECT_EQ(s.outputs.pcap->failed, PcapFailed::none);
  EXPECT_EQ(s.outputs.pcap->format, PcapFormat::pcap);
}

TEST(PcapOutput, FailedFramesNeedPcapngWhichTheyGetByDefault) {
  json doc = minimal_scenario();
  doc["outputs"]["pcap"] = {{"path", "t"}, {"failed", "decoded-header"}};
  Scenario s = parse_scenario(doc);
  EXPECT_EQ(s.outputs.pcap->failed, PcapFailed::decoded_header);
  EXPECT_EQ(s.outputs.pcap->format, PcapFormat::pcapng);
  doc["outputs"]["pcap"] = {{"path", "t"}, {"failed", "all"}, {"format", "pcapng"}};
  EXPECT_EQ(parse_scenario(doc).outputs.pcap->failed, PcapFailed::all);
  doc["outputs"]["pcap"] = {{"path", "t"}, {"format", "pcapng"}};
  s = parse_scenario(doc);
  EXPECT_EQ(s.outputs.pcap->format, PcapFormat::pcapng);
  EXPECT_EQ(s.outputs.pcap->failed, PcapFailed::none);
  doc["outputs"]["pcap"] = {{"path", "t"}, {"failed", "all"}, {"format", "pcap"}};
  EXPECT_TRUE(has_issue(issues_of(doc), "/outputs/pcap/format", "no packet comments")) << test::render(issues_of(doc));
  doc["outputs"]["pcap"] = {{"path", "t"}, {"failed", "some"}, {"format", "ng"}};
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/failed", "decoded-header")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/format", "pcapng")) << test::render(issues);
}

TEST(PcapOutput, PerNodeWithNodesAndSnapLength) {
  json doc = minimal_scenario();
  doc["outputs"]["pcap"] = {{"path", "t"}, {"per", "node"}, {"snap_length", 128}, {"nodes", {"GW", "A"}}};
  const Scenario s = parse_scenario(doc);
  EXPECT_EQ(s.outputs.pcap->per, PcapSplit::node);
  EXPECT_EQ(s.outputs.pcap->snap_length, 128);
  EXPECT_EQ(s.outputs.pcap->nodes, (std::vector<std::size_t>{2, 0}));
}

TEST(PcapOutput, BadValuesNameTheirPath) {
  json doc = minimal_scenario();
  doc["nodes"].push_back({{"id", "H"}, {"role", "host"}});
  doc["links"] = json::array({{{"nodes", {"GW", "H"}}}});
  doc["outputs"]["pcap"] = {{"per", "radio"}, {"snap_length", 63}, {"nodes", {"A", "A", "Z", "H", 3}}, {"extra", 1}};
  const auto issues = issues_of(doc);
  // The missing path: reported at the section or at the key, naming it.
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/path", "") || has_issue(issues, "/outputs/pcap", "path"))
      << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/per", "channel"));
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/snap_length", "64"));
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/nodes/1", "listed twice"));
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/nodes/2", "not defined"));
  // A host has no radio, but its wired link is traced (docs/traces.md "Wired links").
  EXPECT_FALSE(has_issue(issues, "/outputs/pcap/nodes/3", "")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/nodes/4", "node id"));
  EXPECT_TRUE(has_issue(issues, "/outputs/pcap/extra", ""));
  doc["outputs"]["pcap"] = {{"path", "dir/"}};
  EXPECT_TRUE(has_issue(issues_of(doc), "/outputs/pcap/path", "file name prefix"));
}

TEST(PcapOutput, FileNamesPerChannelAndPerNode) {
  json doc = minimal_scenario();
  doc["nodes"][2]["radios"] = json::array({{{"channel", 6}}, {{"channel", 11}}});
  const Scenario s = parse_scenario(doc);
  Simulation sim(1, "t", spdlog::level::off);
  Network net(sim, s);
  trace::TracedNetwork names{{"A", "B", "GW"}, {}, {}};
  trace::PcapTraceOptions o{"t", trace::TraceSplit::channel, 65535, {}};
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names),
            (std::vector<std::filesystem::path>{"t-ch6.pcap", "t-ch11.pcap"}));
  o.per = trace::TraceSplit::node;
  o.nodes = {false, true, true};
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names),
            (std::vector<std::filesystem::path>{"t-B.pcap", "t-GW.pcap"}));
  o.format = trace::CaptureFormat::pcapng;
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names),
            (std::vector<std::filesystem::path>{"t-B.pcapng", "t-GW.pcapng"}));
  // Wired links add one file, last, when a listed node is at either end of one.
  names.node_ids.push_back("H");
  names.wires = {{2, 3}, {3, 2}};
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names),
            (std::vector<std::filesystem::path>{"t-B.pcapng", "t-GW.pcapng", "t-wired.pcapng"}));
  o.nodes = {false, true, false, false};
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names), (std::vector<std::filesystem::path>{"t-B.pcapng"}));
  o.nodes = {false, false, false, true};  // a host: its link only
  EXPECT_EQ(trace::trace_files(*net.phy().medium, o, names), (std::vector<std::filesystem::path>{"t-wired.pcapng"}));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
