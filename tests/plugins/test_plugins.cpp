// Plug-ins registered from the test tree (tests/plugins/): a controller, a queue
// discipline and a transport that wmnsim itself does not know. Each is added to a
// Registries value, parsed from a scenario with path-precise errors, shows up in the
// composed schema and docs, and is built and run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/not_supported.hpp"
#include "runner/network.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/registries.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_fragments.hpp"
#include "tests/plugins/cw_pin_controller.hpp"
#include "tests/plugins/head_drop_queue.hpp"
#include "tests/plugins/probe_transport.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "results/result_columns.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using test::has_issue;
using test::minimal_scenario;
using test::render;

Registries with_plugins() {
  Registries r;
  r.controllers.add(test::cw_pin_entry());
  r.queue_disciplines.add(test::head_drop_entry());
  r.transports.add(test::probe_entry());
  return r;
}

std::vector<ValidationIssue> issues_with(const nlohmann::json& doc, const Registries& registries) {
  try {
    parse_scenario(doc, registries);
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int cw_min_of(const Network& net, const Scenario& s, const std::string& node) {
  return net.macs().node_macs.at(*s.find_node(node), 0)->params(AccessCategory::ac_be).cw_min;
}

// ---- a controller ---------------------------------------------------------------

TEST(PluginController, ParsesBuildsAndRunsFromTheTestTree) {
  const Registries registries = with_plugins();
  nlohmann::json doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 1;
  doc["controllers"] = R"([{"type": "cw_pin", "nodes": ["B"], "cw_min": 256, "stop_s": 0.5}])"_json;
  const Scenario s = parse_scenario(doc, registries);
  ASSERT_EQ(s.controllers.size(), 1u);
  EXPECT_EQ(s.controllers[0].type, "cw_pin");
  EXPECT_EQ(s.controllers[0].id, "cw_pin#0");
  EXPECT_EQ(s.controllers[0].params_as<test::CwPinParams>().cw_min, 256);

  Simulation sim(1);
  Network net(sim, s, registries.controllers);
  EXPECT_EQ(cw_min_of(net, s, "B"), 256);  // started at 0, before the first frame
  EXPECT_EQ(cw_min_of(net, s, "A"), 32);
  sim.run_until(Time::s(1));
  EXPECT_EQ(cw_min_of(net, s, "B"), 32);  // put back at stop_s
  EXPECT_EQ(net.controller(0).statistics()["pinned_radios"], 1);

  const Results r = run_scenario(s, {}, registries);
  ASSERT_EQ(r.controllers.size(), 1u);
  EXPECT_EQ(controller_column::type.of(r.controllers[0]), "cw_pin");
}

TEST(PluginController, BadParametersAreReportedAtTheirPaths) {
  const Registries registries = with_plugins();
  nlohmann::json doc = minimal_scenario();
  doc["controllers"] = R"([{"type": "cw_pin", "cw_min": 100}, {"type": "cw_pin"},
                           {"type": "cw_pin", "cw_min": 64, "cw_mni": 1}, {"type": "cw_pin", "cw_min": 64, "nodes": ["Q"]}])"_json;
  const auto issues = issues_with(doc, registries);
  EXPECT_TRUE(has_issue(issues, "/controllers/0/cw_min", "power of two"));
  EXPECT_TRUE(has_issue(issues, "/controllers/1/cw_min", "missing required key \"cw_min\""));
  EXPECT_TRUE(has_issue(issues, "/controllers/2/cw_mni", "did you mean \"cw_min\"?"));
  EXPECT_TRUE(has_issue(issues, "/controllers/3/nodes/0", "node \"Q\" is not defined"));
  EXPECT_EQ(issues.size(), 4u) << render(issues);  // one pass, every problem
}

TEST(PluginController, UnknownWithoutItsRegistration) {
  nlohmann::json doc = minimal_scenario();
  doc["controllers"] = R"([{"type": "cw_pin", "cw_min": 64}])"_json;
  EXPECT_TRUE(has_issue(test::issues_of(doc), "/controllers/0/type", "unknown value \"cw_pin\""));
  // Registered for parsing only (no factory): validated, and a run refuses it.
  Registries parse_only;
  control::ControllerEntry entry = test::cw_pin_entry();
  entry.build = nullptr;
  parse_only.controllers.add(entry);
  EXPECT_NE(parse_only.controllers.find("cw_pin"), nullptr);
  EXPECT_FALSE(parse_only.controllers.has("cw_pin"));  // registered, not simulated
  const Scenario s = parse_scenario(doc, parse_only);
  try {
    check_runnable(s, parse_only);
    FAIL() << "a controller without a factory ran";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("/controllers/0/type: \"cw_pin\" is not simulated yet"), std::string::npos)
        << e.what();
  }
}

TEST(PluginController, ContributesItsSchemaAndDocFragments) {
  const std::filesystem::path root(WMNSIM_SOURCE_DIR);
  const auto base = nlohmann::ordered_json::parse(read_text(root / "scenarios/schema/scenario.schema.json"));
  const auto schema = compose_schema(base, with_plugins());
  const auto& items = schema["properties"]["controllers"]["items"]["oneOf"];
  ASSERT_FALSE(items.empty());
  const auto& last = items.back();
  EXPECT_EQ(last["properties"]["type"]["const"], "cw_pin");
  EXPECT_EQ(last["properties"]["cw_min"]["$ref"], "#/$defs/window");
  EXPECT_TRUE(last["properties"].contains("nodes"));  // common keys around its own
  EXPECT_EQ(last["required"], nlohmann::ordered_json::array({"type", "cw_min"}));  // its own after the common one
  EXPECT_EQ(schema["$defs"]["queue"]["properties"]["discipline"]["enum"],
            nlohmann::ordered_json::array({"drop_tail", "fq", "token_bucket", "per_class_token_bucket", "fred", "head_drop"}));
  EXPECT_EQ(schema["$defs"]["queue"]["dependentRequired"]["head_drop_packets"],
            nlohmann::ordered_json::array({"discipline"}));
  // The transport: its flow keys under its name's clause, its series among the kinds.
  const std::string flows = schema["properties"]["flows"].dump();
  EXPECT_NE(flows.find("\"probe\""), std::string::npos);
  EXPECT_NE(flows.find("interval_s"), std::string::npos);
  const auto& kinds = schema["properties"]["outputs"]["properties"]["timeseries"]["items"]["enum"];
  EXPECT_EQ(kinds.back(), "probe_delivered");
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "tcp_cwnd"), 1);
  const std::string doc = compose_doc(read_text(root / "docs/scenario.md"), with_plugins());
  EXPECT_NE(doc.find("| `cw_pin` | tests only |"), std::string::npos);
  EXPECT_NE(doc.find("| `head_drop` | tests only | `head_drop_packets` |"), std::string::npos);
  EXPECT_NE(doc.find("| `head_drop_packets` | integer 1..100 (packets) | 1 |"), std::string::npos);
  EXPECT_NE(doc.find("`probe` (simulated): tests only"), std::string::npos);
  EXPECT_NE(doc.find("| `probe.interval_s` | number >= 0.001 (s) | 0.1 |"), std::string::npos);
  // The checked-in files hold the built-ins only.
  EXPECT_EQ(read_text(root / "docs/scenario.md").find("cw_pin"), std::string::npos);
}

TEST(PluginRegistries, ComposingNeedsTheMarkedRegions) {
  EXPECT_THROW((void)compose_doc("# no regions\n", Registries{}), std::invalid_argument);
  EXPECT_THROW((void)compose_schema(nlohmann::ordered_json::object(), Registries{}), std::invalid_argument);
  // Two disciplines may share a key only with one declaration: the schema of `queue`
  // has one property per key.
  Registries broken;
  link::QueueDisciplineEntry other = test::head_drop_entry();
  other.name = "head_drop_too";
  other.parameters = {IntegerParameter({.key = "head_drop_packets",
                                        .min = 1,
                                        .max = 7,
                                        .description = "the same key, another range",
                                        .source = "tests only"})};
  broken.queue_disciplines.add(test::head_drop_entry());
  broken.queue_disciplines.add(other);
  const std::filesystem::path root(WMNSIM_SOURCE_DIR);
  const auto base = nlohmann::ordered_json::parse(read_text(root / "scenarios/schema/scenario.schema.json"));
  EXPECT_THROW((void)compose_schema(base, broken), std::invalid_argument);
}

// ---- a queue discipline ---------------------------------------------------------

nlohmann::json udp_overload() {
  nlohmann::json doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 1;
  doc["flows"] = R"([{"id": "f1", "transport": "udp", "src": "A", "dst": "B",
                      "traffic": {"type": "cbr", "rate_bps": 20000000}}])"_json;
  doc["mac"] = R"({"queue": {"discipline": "head_drop", "capacity_packets": 5, "head_drop_packets": 2}})"_json;
  return doc;
}

TEST(PluginQueueDiscipline, ParsedPerQueueAndInheritedByOverrides) {
  const Registries registries = with_plugins();
  nlohmann::json doc = udp_overload();
  doc["nodes"][1]["mac"] = R"({"queue": {"head_drop_packets": 3}})"_json;
  doc["nodes"][2]["radios"] = R"([{"mac": {"queue": {"discipline": "drop_tail"}}}])"_json;
  const Scenario s = parse_scenario(doc, registries);
  const auto& a = *s.nodes[0].radios[0].mac;
  EXPECT_EQ(a.queue_discipline.name, "head_drop");
  EXPECT_EQ(std::any_cast<test::HeadDropParams>(a.queue_discipline.params).head_drop_packets, 2);
  EXPECT_EQ(a.queue.capacity, 5);
  const auto& b = *s.nodes[1].radios[0].mac;  // inherits the discipline, changes its key
  EXPECT_EQ(b.queue_discipline.name, "head_drop");
  EXPECT_EQ(std::any_cast<test::HeadDropParams>(b.queue_discipline.params).head_drop_packets, 3);
  EXPECT_EQ(s.nodes[2].radios[0].mac->queue_discipline.name, "drop_tail");
}

TEST(PluginQueueDiscipline, BadParametersAreReportedAtTheirPaths) {
  const Registries registries = with_plugins();
  nlohmann::json doc = udp_overload();
  doc["mac"]["queue"]["head_drop_packets"] = 0;
  doc["links"] = R"([{"nodes": ["GW", "H"], "queue": {"discipline": "head_dorp"}}])"_json;
  doc["nodes"].push_back(R"({"id": "H", "role": "host"})"_json);
  doc["nodes"][1]["mac"] = R"({"queue": {"discipline": "drop_tail", "head_drop_packets": 2}})"_json;
  const auto issues = issues_with(doc, registries);
  EXPECT_TRUE(has_issue(issues, "/mac/queue/head_drop_packets", "got 0"));
  EXPECT_TRUE(has_issue(issues, "/links/0/queue/discipline", "did you mean \"head_drop\"?"));
  // drop_tail has no such key.
  EXPECT_TRUE(has_issue(issues, "/nodes/1/mac/queue/head_drop_packets", "unknown key"));
  EXPECT_EQ(issues.size(), 3u) << render(issues);
  // Without its registration the name is unknown.
  EXPECT_TRUE(has_issue(test::issues_of(udp_overload()), "/mac/queue/discipline", "unknown value \"head_drop\""));
}

TEST(PluginQueueDiscipline, RegisteredWithoutBuildIsRefusedNotReplaced) {
  Registries registries;
  link::QueueDisciplineEntry entry = test::head_drop_entry();
  entry.build = nullptr;
  registries.queue_disciplines.add(entry);
  const auto issues = issues_with(udp_overload(), registries);
  EXPECT_TRUE(has_issue(issues, "/mac/queue/discipline", "\"head_drop\" is not simulated yet")) << render(issues);
  EXPECT_EQ(issues.size(), 1u) << render(issues);
}

TEST(PluginQueueDiscipline, BuiltIntoEveryMacQueueAndRun) {
  const Registries registries = with_plugins();
  const Scenario s = parse_scenario(udp_overload(), registries);
  Simulation sim(1);
  Network net(sim, s, registries.controllers);
  const mac::Mac& a = *net.macs().node_macs.at(0, 0);
  const auto* q = dynamic_cast<const test::HeadDropQueue*>(&a.queue(AccessCategory::ac_be));
  ASSERT_NE(q, nullptr);
  sim.run_until(Time::s(1));
  // 20 Mbit/s into an 11 Mbit/s link: the queue overflows, and head drop always
  // takes the arrival, pushing out two old packets at a time.
  EXPECT_GT(q->counters().dropped(DropCause::queue_overflow), 100u);
  EXPECT_EQ(q->counters().dropped(DropCause::queue_overflow) % 2, 0u);
  EXPECT_LE(q->counters().peak_packets, 5u);
  const Conservation c = net.conservation();
  EXPECT_TRUE(c.holds()) << c.originated << " = " << c.delivered << " + " << c.dropped << " + " << c.in_network;
}

TEST(PluginQueueDiscipline, EdcaGetsOneQueuePerAccessCategory) {
  const Registries registries = with_plugins();
  nlohmann::json doc = udp_overload();
  doc["mac"]["type"] = "edca";
  const Scenario s = parse_scenario(doc, registries);
  Simulation sim(1);
  Network net(sim, s, registries.controllers);
  const mac::Mac& a = *net.macs().node_macs.at(0, 0);
  std::set<const link::QueueDiscipline*> queues;
  for (const AccessCategory ac : {AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi,
                                  AccessCategory::ac_vo}) {
    EXPECT_NE(dynamic_cast<const test::HeadDropQueue*>(&a.queue(ac)), nullptr);
    queues.insert(&a.queue(ac));
  }
  EXPECT_EQ(queues.size(), 4u);
}

TEST(PluginQueueDiscipline, WiredLinksGetTheirChoice) {
  const Registries registries = with_plugins();
  nlohmann::json doc = minimal_scenario();
  doc["nodes"].push_back(R"({"id": "H", "role": "host"})"_json);
  doc["links"] = R"([{"nodes": ["GW", "H"], "queue": {"discipline": "head_drop", "head_drop_packets": 4}},
                     {"nodes": ["B", "H"]}])"_json;
  const Scenario s = parse_scenario(doc, registries);
  EXPECT_EQ(s.links[0].queue_discipline.name, "head_drop");
  EXPECT_EQ(std::any_cast<test::HeadDropParams>(s.links[0].queue_discipline.params).head_drop_packets, 4);
  EXPECT_EQ(s.links[0].queue.capacity, 100);  // the wired default stays
  EXPECT_EQ(s.links[1].queue_discipline.name, "drop_tail");
  EXPECT_TRUE(s.links[1].queue_discipline.build);

  // Both directions of the first link get one; the second link keeps drop tail.
  Simulation sim(1);
  Network net(sim, s, registries.controllers);
  for (const std::size_t d : {0u, 1u}) {
    EXPECT_NE(dynamic_cast<const test::HeadDropQueue*>(&net.wired_link(0, d).queue()), nullptr);
    EXPECT_EQ(dynamic_cast<const test::HeadDropQueue*>(&net.wired_link(1, d).queue()), nullptr);
  }
}

// ---- a transport ----------------------------------------------------------------

nlohmann::json probe_scenario() {
  nlohmann::json doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 2;
  doc["flows"][0] = R"({"id": "f1", "transport": "probe", "src": "A", "dst": "GW", "payload_bytes": 200,
                        "probe": {"interval_s": 0.25}})"_json;
  doc["outputs"] = R"({"timeseries": ["flow_goodput", "probe_delivered"]})"_json;
  return doc;
}

TEST(PluginTransport, ParsesBuildsAndRunsFromTheTestTree) {
  const Registries registries = with_plugins();
  const Scenario s = parse_scenario(probe_scenario(), registries);
  EXPECT_EQ(s.flows[0].transport_name, "probe");
  EXPECT_EQ(s.flows[0].params_as<test::ProbeParams>().interval, Time::ms(250));

  const Results r = run_scenario(s, {}, registries);
  ASSERT_EQ(r.flows.size(), 1u);
  EXPECT_EQ(r.flows[0].at("transport"), "probe");
  EXPECT_EQ(r.flows[0].at("sent_packets"), 8);  // at 0, 0.25, ..., 1.75 s
  EXPECT_EQ(r.flows[0].at("delivered_packets"), 8);
  EXPECT_EQ(r.flows[0].at("probe_delivered"), 8);  // its own statistic
  EXPECT_NEAR(flow_column::goodput_bps.of(r.flows[0]), 8 * 200 * 8 / 2.0, 1e-9);
  // Its own series, with its unit, sampled every second.
  ASSERT_TRUE(r.timeseries.contains("probe_delivered"));
  EXPECT_EQ(r.timeseries.at("probe_delivered").unit, "packets");
  ASSERT_EQ(r.timeseries.at("probe_delivered").samples.size(), 2u);
  EXPECT_EQ(r.timeseries.at("probe_delivered").samples[1].value, 8);
}

TEST(PluginTransport, BadParametersAreReportedAtTheirPaths) {
  const Registries registries = with_plugins();
  nlohmann::json doc = probe_scenario();
  doc["flows"][0] = R"({"id": "f1", "transport": "probe", "src": "A", "dst": "GW", "payload_bytes": 2210,
                        "probe": {"interval_s": 0}, "tcp": {}})"_json;
  doc["flows"].push_back(R"({"id": "f2", "transport": "tcp", "src": "A", "dst": "GW", "probe": {}})"_json);
  const auto issues = issues_with(doc, registries);
  EXPECT_TRUE(has_issue(issues, "/flows/0/probe/interval_s", "got 0"));
  EXPECT_TRUE(has_issue(issues, "/flows/0/payload_bytes", "2204"));  // 2304 - its 100 header bytes
  EXPECT_TRUE(has_issue(issues, "/flows/0/tcp", "applies only to flows with \"transport\": \"tcp\" (this one is \"probe\")"));
  EXPECT_TRUE(has_issue(issues, "/flows/1/probe", "applies only to flows with \"transport\": \"probe\""));
  EXPECT_EQ(issues.size(), 4u) << render(issues);
  // Without its registration neither the transport nor its series is known.
  const auto unknown = test::issues_of(probe_scenario());
  EXPECT_TRUE(has_issue(unknown, "/flows/0/transport", "unknown value \"probe\""));
  EXPECT_TRUE(has_issue(unknown, "/outputs/timeseries/1", "unknown value \"probe_delivered\""));
}

TEST(PluginTransport, RegisteredForParsingOnlyIsRefusedByARun) {
  Registries registries;
  transport::TransportEntry entry = test::probe_entry();
  entry.build = nullptr;
  registries.transports.add(entry);
  const Scenario s = parse_scenario(probe_scenario(), registries);
  try {
    check_runnable(s, registries);
    FAIL() << "a transport without a build hook ran";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("/flows/0/transport: probe is not simulated yet"), std::string::npos)
        << e.what();
  }
}

TEST(PluginRegistries, DefaultQueueIsDropTailBuiltFromItsEntry) {
  const Scenario s = parse_scenario(minimal_scenario());
  EXPECT_EQ(s.mac.params.queue_discipline.name, "drop_tail");
  EXPECT_TRUE(s.mac.params.queue_discipline.build);
  EXPECT_EQ(s.nodes[0].radios[0].mac->queue_discipline.name, "drop_tail");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
