// The event trace (trace/event_trace.hpp, docs/traces.md "Event trace"): the key as
// the loader reads it, the file's header and records for the flagship (A's frame
// lost at B in a collision with GW, then retried by A), the filters and the bound,
// and that a traced run is the untraced one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "results/result_columns.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"
#include "trace/event_record.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;
using test::has_issue;
using test::issues_of;
using test::minimal_scenario;
using trace::EventRecord;

const std::filesystem::path kFlagship = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/two_hop_chain_tcp.json";

// ---- the key ----

TEST(EventTraceOutput, AbsentMeansNoTraceAndDefaultsApply) {
  EXPECT_FALSE(parse_scenario(minimal_scenario()).outputs.event_trace);
  json doc = minimal_scenario();
  doc["outputs"]["event_trace"] = {{"path", "out/events.bin"}};
  const Scenario s = parse_scenario(doc);
  ASSERT_TRUE(s.outputs.event_trace);
  EXPECT_EQ(s.outputs.event_trace->path, "out/events.bin");
  EXPECT_TRUE(s.outputs.event_trace->nodes.empty());
  EXPECT_EQ(s.outputs.event_trace->kinds, kAllEventKinds);
  EXPECT_EQ(s.outputs.event_trace->start, Time::zero());
  EXPECT_EQ(s.outputs.event_trace->end, Time::max());
  EXPECT_EQ(s.outputs.event_trace->max_records, std::int64_t{1} << 24);
}

TEST(EventTraceOutput, FiltersAreRead) {
  json doc = minimal_scenario();
  doc["outputs"]["event_trace"] = {{"path", "e"},          {"nodes", {"GW", "A"}},    {"kinds", {"rx_fail", "retry"}},
                                   {"start_s", 0.5},       {"end_s", 1.5},            {"max_records", 100}};
  const Scenario s = parse_scenario(doc);
  EXPECT_EQ(s.outputs.event_trace->nodes, (std::vector<std::size_t>{2, 0}));
  EXPECT_EQ(s.outputs.event_trace->kinds, kind_bit(EventKind::rx_fail) | kind_bit(EventKind::retry));
  EXPECT_EQ(s.outputs.event_trace->start, Time::ms(500));
  EXPECT_EQ(s.outputs.event_trace->end, Time::ms(1500));
  EXPECT_EQ(s.outputs.event_trace->max_records, 100);
}

TEST(EventTraceOutput, BadInputsNameTheirPath) {
  json doc = minimal_scenario();
  doc["outputs"]["event_trace"] = {{"nodes", json::array()}, {"kinds", {"rx_fial", 3}}, {"start_s", 2}, {"end_s", 1},
                                   {"max_records", 0}};
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/outputs/event_trace/path", "missing")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/event_trace/nodes", "an empty list")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/event_trace/kinds/0", "rx_fail")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/event_trace/end_s", "before it starts")) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/outputs/event_trace/max_records", "17179869184")) << test::render(issues);
  doc["outputs"]["event_trace"] = {{"path", "e"}, {"nodes", {"A", "Z", "A"}}, {"kinds", {"nav", "nav"}}};
  const auto more = issues_of(doc);
  EXPECT_TRUE(has_issue(more, "/outputs/event_trace/nodes/1", "\"Z\" is not defined")) << test::render(more);
  EXPECT_TRUE(has_issue(more, "/outputs/event_trace/nodes/2", "listed twice")) << test::render(more);
  EXPECT_TRUE(has_issue(more, "/outputs/event_trace/kinds/1", "listed twice")) << test::render(more);
}

// ---- the file ----

struct TraceFile {
  std::vector<std::string> nodes, kinds, causes, frames;
  std::uint64_t count = 0;
  std::int64_t cut_ps = 0;
  std::vector<EventRecord> records;

  std::string node(std::uint32_t i) const { return i == trace::kNoIndex ? "-" : nodes.at(i); }
  std::string kind(const EventRecord& r) const { return kinds.at(r.kind); }
  std::string cause(const EventRecord& r) const { return r.cause == trace::kNoCode ? "-" : causes.at(r.cause); }
};

std::vector<std::string> read_names(const std::vector<char>& bytes, std::size_t& at) {
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + at, 4);
  at += 4;
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint16_t len = 0;
    std::memcpy(&len, bytes.data() + at, 2);
    at += 2;
    out.emplace_back(bytes.data() + at, len);
    at += len;
  }
  return out;
}

TraceFile read_trace(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TraceFile t;
  EXPECT_EQ(std::string(bytes.data(), 8), "WMNSEVTR");
  std::uint32_t version = 0, header = 0, record = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&header, bytes.data() + 12, 4);
  std::memcpy(&record, bytes.data() + 16, 4);
  std::memcpy(&t.count, bytes.data() + 24, 8);
  std::memcpy(&t.cut_ps, bytes.data() + 32, 8);
  EXPECT_EQ(version, 1u);
  EXPECT_EQ(record, 64u);
  std::size_t at = 40;
  t.nodes = read_names(bytes, at);
  t.kinds = read_names(bytes, at);
  t.causes = read_names(bytes, at);
  t.frames = read_names(bytes, at);
  EXPECT_LE(at, header);
  EXPECT_EQ(header % 8, 0u);
  EXPECT_EQ(bytes.size(), header + t.count * record);
  t.records.resize(t.count);
  if (t.count > 0) std::memcpy(t.records.data(), bytes.data() + header, t.count * record);
  return t;
}

class EventTraceRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("wmnsim_event_trace_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The flagship for `seconds`, traced into dir_/events.bin with `trace` (path added).
  Results run(double seconds, json trace = json::object()) {
    json doc = read_json_file(kFlagship);
    doc["simulation"]["duration_s"] = seconds;
    if (!trace.is_null()) {
      trace["path"] = (dir_ / "events.bin").string();
      doc["outputs"]["event_trace"] = trace;
    }
    RunOptions options;
    options.fingerprint = true;
    return run_scenario(parse_scenario(doc), options);
  }
  TraceFile file() const { return read_trace(dir_ / "events.bin"); }

  std::filesystem::path dir_;
};

TEST_F(EventTraceRun, TheHiddenNodesCollisionAtBAndItsRetryAtA) {
  const Results traced = run(2.0);
  const TraceFile t = file();
  EXPECT_EQ(t.nodes, (std::vector<std::string>{"A", "B", "GW"}));
  EXPECT_EQ(t.kinds.at(static_cast<std::size_t>(EventKind::rx_fail)), "rx_fail");
  EXPECT_EQ(t.causes.at(0), "collision");
  EXPECT_EQ(t.causes.at(trace::kDropCauseOffset + 3), "retry_limit");
  EXPECT_EQ(t.cut_ps, -1);
  ASSERT_GT(t.count, 1000u);

  // The first of A's data frames that B lost: a collision with GW (000's hidden
  // terminal), the frame's packet and sequence number, the interval of A's send.
  const auto lost = std::find_if(t.records.begin(), t.records.end(), [&](const EventRecord& r) {
    return t.kind(r) == "rx_fail" && t.node(r.node) == "B" && t.node(r.peer) == "A" && r.packet != 0;
  });
  ASSERT_NE(lost, t.records.end());
  EXPECT_EQ(t.cause(*lost), "collision");
  EXPECT_EQ(t.node(lost->interferer), "GW");
  EXPECT_EQ(t.frames.at(lost->frame), "data");
  EXPECT_EQ(lost->flow, 0u);  // A_to_GW
  EXPECT_NE(lost->sequence, trace::kNoSequence);
  // A's transmission of it: started at the frame's first bit at B (200 m: 667 ns
  // later), the same packet and sequence number.
  const auto sent = std::find_if(t.records.begin(), lost, [&](const EventRecord& r) {
    return t.kind(r) == "tx_start" && t.node(r.node) == "A" && r.packet == lost->packet &&
           r.sequence == lost->sequence;
  });
  ASSERT_NE(sent, lost);
  EXPECT_EQ(t.node(sent->peer), "B");
  EXPECT_EQ(lost->value - sent->time_ps, 667'128);  // 200 m at c, in ps
  EXPECT_EQ(sent->value, lost->time_ps - 667'128);  // tx_start's value: its end
  // B locked onto it at its first bit.
  EXPECT_TRUE(std::any_of(t.records.begin(), lost, [&](const EventRecord& r) {
    return t.kind(r) == "rx_lock" && t.node(r.node) == "B" && r.packet == lost->packet && r.time_ps == lost->value;
  }));
  // A got no ACK: it retries the same packet and sends it again, Retry bit set.
  const auto retry = std::find_if(lost, t.records.end(), [&](const EventRecord& r) {
    return t.kind(r) == "retry" && t.node(r.node) == "A" && r.packet == lost->packet;
  });
  ASSERT_NE(retry, t.records.end());
  EXPECT_EQ(retry->sequence, lost->sequence);
  EXPECT_GE(retry->value, 1);
  const auto again = std::find_if(retry, t.records.end(), [&](const EventRecord& r) {
    return t.kind(r) == "tx_start" && t.node(r.node) == "A" && r.packet == lost->packet;
  });
  ASSERT_NE(again, t.records.end());
  EXPECT_EQ(again->retry, 1);
  // Each retry draws a backoff at A with a doubled window.
  EXPECT_TRUE(std::any_of(retry, again, [&](const EventRecord& r) {
    return t.kind(r) == "backoff" && t.node(r.node) == "A" && r.cw == 64 && r.value >= 0 && r.value < 64;
  }));

  // Every rx_fail at B not caused by its own transmission is a reception error the
  // radio counted; every B frame GW decoded has an rx_ok there.
  // And tracing is observation: the untraced run is the same run.
  const Results plain = run(2.0, json());
  ASSERT_TRUE(traced.stats.fingerprint && plain.stats.fingerprint);
  EXPECT_EQ(traced.stats.fingerprint->value(), plain.stats.fingerprint->value());
  EXPECT_EQ(traced.stats.events_executed, plain.stats.events_executed);
}

TEST_F(EventTraceRun, NodesKindsAndWindowFilter) {
  // A and B (GW's records left out); B's lost frames, A's NAV (B sets none: every
  // frame it hears is for it).
  run(2.0, {{"nodes", {"A", "B"}}, {"kinds", {"rx_fail", "nav"}}, {"start_s", 0.5}, {"end_s", 1.5}});
  const TraceFile t = file();
  ASSERT_GT(t.count, 0u);
  bool fails = false, navs = false;
  const auto selected = [](const TraceFile& f, const EventRecord& r) {
    return (f.node(r.node) == "A" || f.node(r.node) == "B") && (f.kind(r) == "rx_fail" || f.kind(r) == "nav") &&
           r.time_ps >= Time::ms(500).picoseconds() && r.time_ps <= Time::ms(1500).picoseconds();
  };
  for (const EventRecord& r : t.records) {
    EXPECT_TRUE(selected(t, r)) << t.node(r.node) << " " << t.kind(r) << " " << r.time_ps;
    fails |= t.kind(r) == "rx_fail" && t.node(r.node) == "B";
    navs |= t.kind(r) == "nav" && t.node(r.node) == "A";
  }
  EXPECT_TRUE(fails);
  EXPECT_TRUE(navs);
  // Exactly the whole trace's records that pass, in its order.
  run(2.0);
  const TraceFile all = file();
  std::vector<EventRecord> kept;
  for (const EventRecord& r : all.records) {
    if (selected(all, r)) kept.push_back(r);
  }
  ASSERT_EQ(kept.size(), t.count);
  EXPECT_EQ(std::memcmp(kept.data(), t.records.data(), kept.size() * sizeof(EventRecord)), 0);
}

TEST_F(EventTraceRun, TheBoundCutsTheTraceAndTheRunWarns) {
  const Results full = run(1.0);
  const TraceFile whole = file();
  const Results cut = run(1.0, {{"max_records", 500}});
  const TraceFile t = file();
  EXPECT_EQ(t.count, 500u);
  // A prefix of the whole trace, cut at the time of the first record left out.
  ASSERT_GT(whole.count, 500u);
  EXPECT_EQ(std::memcmp(t.records.data(), whole.records.data(), 500 * sizeof(EventRecord)), 0);
  EXPECT_EQ(t.cut_ps, whole.records[500].time_ps);
  const auto warning = std::find_if(cut.warnings.begin(), cut.warnings.end(),
                                    [](const RunWarning& w) { return w.path == "/outputs/event_trace/max_records"; });
  ASSERT_NE(warning, cut.warnings.end());
  EXPECT_NE(warning->message.find("max_records"), std::string::npos);
  EXPECT_TRUE(std::none_of(full.warnings.begin(), full.warnings.end(),
                           [](const RunWarning& w) { return w.path == "/outputs/event_trace/max_records"; }));
  EXPECT_EQ(full.stats.fingerprint->value(), cut.stats.fingerprint->value());
}

TEST_F(EventTraceRun, BesideAPcapTraceBothAreWrittenAndTheRunIsUnchanged) {
  json doc = read_json_file(kFlagship);
  doc["simulation"]["duration_s"] = 1.0;
  doc["outputs"]["pcap"] = {{"path", (dir_ / "t").string()}};  // per channel: every transmission
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"tx_start"}}};
  RunOptions options;
  options.fingerprint = true;
  const Results both = run_scenario(parse_scenario(doc), options);
  // The channel's capture: a 24-octet file header, then records of a 16-octet
  // header and the captured octets (trace/pcap_file.hpp).
  std::ifstream in(dir_ / "t-ch6.pcap", std::ios::binary);
  const std::vector<char> pcap((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::uint64_t frames = 0;
  for (std::size_t at = 24; at + 16 <= pcap.size(); ++frames) {
    std::uint32_t captured = 0;
    std::memcpy(&captured, pcap.data() + at + 8, 4);
    at += 16 + captured;
  }
  const TraceFile t = file();
  EXPECT_GT(frames, 100u);
  EXPECT_EQ(t.count, frames);  // every transmission, in both
  EXPECT_EQ(both.stats.fingerprint->value(), run(1.0, json()).stats.fingerprint->value());
}

// Decisions: AODV's routes, a controller's MAC parameters and actions. Each is an
// observation only: the traced run executes the untraced one's events.
TEST_F(EventTraceRun, AodvRoutesAreFoundAndTheRunIsUnchanged) {
  json doc = read_json_file(kFlagship);
  doc["simulation"]["duration_s"] = 1.0;
  doc["routing"] = {{"type", "aodv"}};
  // A's flow alone: beside B's saturating one, A's broadcast RREQs (no ACK, no
  // retry) are lost at B for seconds, the flagship's own mechanism.
  doc["flows"] = json::array({doc["flows"][0]});
  RunOptions options;
  options.fingerprint = true;
  const Results plain = run_scenario(parse_scenario(doc), options);
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"route"}}};
  const Results traced = run_scenario(parse_scenario(doc), options);
  EXPECT_EQ(traced.stats.fingerprint->value(), plain.stats.fingerprint->value());
  const TraceFile t = file();
  ASSERT_GT(t.count, 0u);
  // Nodes A=0, B=1, GW=2: A reaches GW through B, B reaches GW directly, GW reaches
  // A (the reverse route of A's RREQ) through B.
  const auto found = [&](std::uint32_t node, std::uint32_t dst, std::uint32_t next) {
    return std::any_of(t.records.begin(), t.records.end(), [&](const EventRecord& r) {
      return t.kind(r) == "route" && r.node == node && r.value == dst && r.peer == next;
    });
  };
  EXPECT_TRUE(found(0, 2, 1));
  EXPECT_TRUE(found(1, 2, 2));
  EXPECT_TRUE(found(2, 0, 1));
  for (const EventRecord& r : t.records) {
    EXPECT_EQ(t.kind(r), "route");
    EXPECT_NE(r.peer, r.node);
    // One radio per node, numbered as the nodes: the route's radio is the node's, NA
    // when the route is lost.
    EXPECT_EQ(r.radio, r.peer == trace::kNoIndex ? trace::kNoIndex : r.node);
  }
}

TEST_F(EventTraceRun, AodvRecordsARouteWhoseNextHopStaysButWhoseRadioChanges) {
  // A - B - C, each with radios on channels 1 and 11: a broadcast goes out on both,
  // so B hears A's RREQ once on each radio and its route to A moves from the first
  // radio to the second with the same next hop. That change is recorded, with the
  // radio it now leads through (before, only a change of next hop was).
  json doc = read_json_file(kFlagship);
  doc["simulation"]["duration_s"] = 0.5;
  doc["routing"] = {{"type", "aodv"}};
  doc["flows"] = json::array({doc["flows"][0]});
  for (json& n : doc["nodes"]) n["radios"] = json::array({{{"channel", 1}}, {{"channel", 11}}});
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"route"}}};
  (void)run_scenario(parse_scenario(doc));
  const TraceFile t = file();
  ASSERT_GT(t.count, 0u);
  // Radios are numbered node by node: node n has radios 2n (channel 1) and 2n + 1.
  std::map<std::pair<std::uint32_t, std::int64_t>, EventRecord> last;  // (node, destination) -> its last record
  int radio_only_changes = 0;
  for (const EventRecord& r : t.records) {
    ASSERT_EQ(t.kind(r), "route");
    if (r.peer != trace::kNoIndex) {
      EXPECT_TRUE(r.radio == 2 * r.node || r.radio == 2 * r.node + 1) << r.node << " " << r.radio;
    }
    const auto key = std::make_pair(r.node, r.value);
    if (const auto it = last.find(key); it != last.end()) {
      // A record is a change: the next hop or the radio differs from the last one.
      EXPECT_TRUE(it->second.peer != r.peer || it->second.radio != r.radio) << r.node << " " << r.value;
      if (it->second.peer == r.peer && r.peer != trace::kNoIndex && it->second.radio != r.radio) ++radio_only_changes;
    }
    last[key] = r;
  }
  EXPECT_GT(radio_only_changes, 0);
}

TEST_F(EventTraceRun, ACountersStarvationControllerSetsBsWindow) {
  json doc = read_json_file(kFlagship);
  doc["simulation"]["duration_s"] = 0.5;
  doc["controllers"] = json::parse(R"([{"type": "counter_starvation"}])");
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"params"}}};
  (void)run_scenario(parse_scenario(doc));
  const TraceFile t = file();
  // Where each MAC starts (one DCF function each): B, the gateway's one-hop
  // neighbour, at CWmin 128 from 0 (000 Sec. 5.6), A and GW at the scenario's 32.
  ASSERT_EQ(t.count, 3u);
  for (std::uint32_t node = 0; node < 3; ++node) {
    EXPECT_EQ(t.kind(t.records[node]), "params");
    EXPECT_EQ(t.records[node].node, node);
    EXPECT_EQ(t.records[node].time_ps, 0);
    EXPECT_EQ(t.records[node].value, node == 1 ? 128 : 32) << node;
    EXPECT_GE(t.records[node].cw, static_cast<std::uint32_t>(t.records[node].value));
    EXPECT_EQ(t.records[node].retry, 2u);  // AIFSN: DCF's DIFS = SIFS + 2 slots
    EXPECT_EQ(t.records[node].access_category, static_cast<std::uint8_t>(AccessCategory::ac_be));
  }
  // Stopped at 0.3 s, it puts B's window back: a change during the run.
  doc["controllers"] = json::parse(R"([{"type": "counter_starvation", "stop_s": 0.3}])");
  (void)run_scenario(parse_scenario(doc));
  const TraceFile u = file();
  ASSERT_EQ(u.count, 4u);
  EXPECT_EQ(u.records[3].node, 1u);
  EXPECT_EQ(u.records[3].time_ps, Time::ms(300).picoseconds());
  EXPECT_EQ(u.records[3].value, 32);
}

TEST_F(EventTraceRun, MeshCongestionNotificationsAndBlocksPairUp) {
  json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/fu2009/buffer_blocking.json");
  doc["simulation"]["duration_s"] = 2.0;
  doc["controllers"] = json::parse(R"([{"type": "lscc"}])");
  RunOptions options;
  options.fingerprint = true;
  const Results plain = run_scenario(parse_scenario(doc), options);
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"controller"}}};
  const Results traced = run_scenario(parse_scenario(doc), options);
  EXPECT_EQ(traced.stats.fingerprint->value(), plain.stats.fingerprint->value());
  const TraceFile t = file();
  // The controller's own counts, per node: the records must add up to them.
  std::map<std::string, std::int64_t> sent, received;
  std::size_t radios = 0;
  for (const auto& row : controller_column::statistics.cell(traced.controllers.at(0)).at("radios")) {
    const std::string node = row["node"];
    sent[node] += row["notifications_sent"].get<std::int64_t>() + row["notifications_sent_zero"].get<std::int64_t>();
    received[node] += row["notifications_received"].get<std::int64_t>();
    ++radios;
  }
  std::map<std::string, std::int64_t> notify, blocked;
  std::size_t durations_at_start = 0;
  for (const EventRecord& r : t.records) {
    ASSERT_EQ(t.kind(r), "controller");
    const std::string action = t.cause(r);
    const std::string& node = t.nodes.at(r.node);
    ASSERT_NE(r.radio, trace::kNoIndex);
    if (action == "notify") {
      ++notify[node];
      ASSERT_NE(r.peer, trace::kNoIndex);
      EXPECT_NE(r.peer, r.node);
    } else if (action == "blocked") {
      ++blocked[node];
      ASSERT_NE(r.peer, trace::kNoIndex);
      EXPECT_NE(r.peer, r.node);
    } else {
      ASSERT_EQ(action, "duration");
      if (r.time_ps == 0) ++durations_at_start;
    }
  }
  for (const auto& [node, n] : sent) EXPECT_EQ(notify[node], n) << node;
  for (const auto& [node, n] : received) EXPECT_EQ(blocked[node], n) << node;
  EXPECT_GT(std::accumulate(sent.begin(), sent.end(), std::int64_t{0}, [](auto a, const auto& kv) { return a + kv.second; }), 0);
  EXPECT_EQ(durations_at_start, radios);  // each radio's D when the trace starts
}

TEST_F(EventTraceRun, AGatewaysRatesAtTheStartAndAsFlowsTurnActive) {
  // 001's per-flow rate limit at n0 (it starts at 0, while the network is built):
  // each class's rate is written when the trace starts, at the gateway, by its
  // first flow (the two flows that start at 250 s join the classes of 1to0 and
  // 0to7: five classes); no class is active yet, so each is 0. As the flows'
  // packets reach the gateway the classes turn active and get their shares.
  json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/jamshaid/chain7_short_lived.json");
  doc["simulation"]["duration_s"] = 0.5;
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"controller"}}};
  (void)run_scenario(parse_scenario(doc));
  const TraceFile t = file();
  std::vector<std::uint32_t> at_start;
  std::set<std::uint32_t> shared_later;
  for (const EventRecord& r : t.records) {
    ASSERT_EQ(t.cause(r), "rate");
    EXPECT_EQ(t.nodes.at(r.node), "n0");
    EXPECT_EQ(r.radio, trace::kNoIndex);
    if (r.time_ps == 0) {
      at_start.push_back(r.flow);
      EXPECT_EQ(r.value, 0);
    } else if (r.value > 0) {
      shared_later.insert(r.flow);
    }
  }
  std::sort(at_start.begin(), at_start.end());
  EXPECT_EQ(at_start, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(shared_later.empty());
}

TEST_F(EventTraceRun, EachRelaysTxopLimitWhenTheTraceStarts) {
  // 002's static TXOP scaling (edca_txop on the DCF parking lot, which starts at 0,
  // while the network is built): each radio's TXOP limit is written when the trace
  // starts; the relays' radios towards S get the number of flows they forward.
  json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios/badarla/parking_lot_txop.json");
  doc["simulation"]["duration_s"] = 0.2;
  doc["simulation"]["warmup_s"] = 0;
  doc["outputs"]["event_trace"] = {{"path", (dir_ / "events.bin").string()}, {"kinds", {"controller"}}};
  (void)run_scenario(parse_scenario(doc));
  const TraceFile t = file();
  std::map<std::string, std::int64_t> largest;
  for (const EventRecord& r : t.records) {
    ASSERT_EQ(t.cause(r), "txop");
    EXPECT_EQ(r.time_ps, 0);  // static: set once, before the run
    ASSERT_NE(r.radio, trace::kNoIndex);
    std::int64_t& v = largest[t.nodes.at(r.node)];
    v = std::max(v, r.value);
  }
  EXPECT_EQ(largest["R3"], 3);
  EXPECT_EQ(largest["R6"], 6);
  EXPECT_EQ(largest["R9"], 9);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
