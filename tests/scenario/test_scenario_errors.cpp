// Bad scenarios: each case breaks a valid document in one way and checks the exact
// path and the key part of the message, so a user can find and fix the problem.

#include <gtest/gtest.h>

#include <cmath>

#include <functional>
#include <limits>

#include "config/json_reader.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;
using test::has_issue;
using test::issues_of;
using test::minimal_scenario;

struct BadCase {
  const char* name;
  std::function<void(json&)> mutate;
  const char* path;
  const char* fragment;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

// A host behind the gateway, for the wired-link cases.
void add_host(json& d) {
  d["nodes"].push_back({{"id", "H"}, {"role", "host"}});
  d["links"] = json::array({{{"nodes", {"GW", "H"}}}});
}

const BadCase kBadCases[] = {
    // --- compat (scenario/compat_preset.hpp)
    {"UnknownCompatPreset", [](json& d) { d["compat"] = "ns2"; }, "/compat",
     "unknown value \"ns2\"; did you mean \"ns3\"?"},
    {"CompatNotAString", [](json& d) { d["compat"] = true; }, "/compat", "expected one of \"ns3\", got true"},
    // --- simulation
    {"NegativeDuration", [](json& d) { d["simulation"]["duration_s"] = -5; },
     "/simulation/duration_s", "expected a number of seconds > 0, got -5"},
    {"ZeroDuration", [](json& d) { d["simulation"]["duration_s"] = 0; }, "/simulation/duration_s",
     "expected a number of seconds > 0, got 0"},
    {"DurationAsText", [](json& d) { d["simulation"]["duration_s"] = "ten"; },
     "/simulation/duration_s", "expected a number of seconds > 0, got \"ten\""},
    {"MissingDuration", [](json& d) { d["simulation"].erase("duration_s"); },
     "/simulation/duration_s", "missing required key \"duration_s\""},
    {"MissingSimulation", [](json& d) { d.erase("simulation"); }, "/simulation",
     "missing required key \"simulation\""},
    {"WarmupNotBeforeEnd", [](json& d) { d["simulation"]["warmup_s"] = 10; },
     "/simulation/warmup_s", "warmup_s (10) must be less than duration_s (10)"},
    {"SignalFloorOutOfRange", [](json& d) { d["phy"]["reception"]["signal_floor_dbm"] = -300; },
     "/phy/reception/signal_floor_dbm", "got -300"},
    {"NegativeSeed", [](json& d) { d["simulation"]["seed"] = -1; }, "/simulation/seed",
     "expected an integer 0..18446744073709551615, got -1"},
    {"SeedAboveUint64", [](json& d) { d["simulation"]["seed"] = 18446744073709551616.0; },
     "/simulation/seed", "expected an integer 0..18446744073709551615"},
    {"ZeroMeasurementInterval", [](json& d) { d["simulation"]["measurement_interval_s"] = 0; },
     "/simulation/measurement_interval_s", "expected a number of seconds >= 1e-06"},
    // --- unknown keys, wrong types, enums
    {"UnknownTopLevelKey", [](json& d) { d["flow"] = json::array(); }, "/flow",
     "unknown key \"flow\"; did you mean \"flows\"?"},
    {"MisspelledMacKey",
     [](json& d) {
       d["mac"] = {{"cw_mni", 64}};
     },
     "/mac/cw_mni", "unknown key \"cw_mni\"; did you mean \"cw_min\"?"},
    {"NodesNotAnArray", [](json& d) { d["nodes"] = json::object(); }, "/nodes",
     "expected an array, got an object"},
    {"UnknownStandard",
     [](json& d) {
       d["phy"] = {{"standard", "802.11n"}};
     },
     "/phy/standard", "unknown value \"802.11n\""},
    {"MisspelledMacType",
     [](json& d) {
       d["mac"] = {{"type", "dfc"}};
     },
     "/mac/type", "unknown value \"dfc\"; did you mean \"dcf\"? (allowed: \"dcf\", \"edca\")"},
    {"BadTimeseriesKind",
     [](json& d) {
       d["outputs"] = {{"timeseries", {"flow_goodputt"}}};
     },
     "/outputs/timeseries/0", "did you mean \"flow_goodput\"?"},
    // --- phy, mac, propagation
    {"ChannelAsWord",
     [](json& d) {
       d["nodes"][2]["radios"] = {{{"channel", "six"}}};
     },
     "/nodes/2/radios/0/channel", "expected an integer 1..165, got \"six\""},
    {"FiveGhzChannelOn80211b",
     [](json& d) {
       d["phy"] = {{"channel", 36}};
     },
     "/phy/channel", "is not a 2.4 GHz channel"},
    {"RateNotInStandard",
     [](json& d) {
       d["phy"] = {{"data_rate_bps", 54e6}};
     },
     "/phy/data_rate_bps", "expected one of the 802.11b rates 1000000, 2000000, 5500000, 11000000"},
    {"WindowWrittenAsCwValue",
     [](json& d) {
       d["mac"] = {{"cw_min", 31}};
     },
     "/mac/cw_min", "31 looks like the standard's CW value, write the window size 32"},
    {"CwMinAboveCwMax",
     [](json& d) {
       d["mac"] = {{"cw_min", 2048}};
     },
     "/mac/cw_min", "cw_min (2048) exceeds cw_max (1024)"},
    {"RetryCountsUnknown",
     [](json& d) {
       d["mac"] = {{"retry_counts", "per_frame"}};
     },
     "/mac/retry_counts", "(allowed: \"reset_on_cts\", \"per_mpdu\", \"ns3\")"},
    {"QueueLifetimeRuleUnknown",
     [](json& d) {
       d["nodes"][0]["mac"] = {{"queue_lifetime_rule", "drop"}};
     },
     "/nodes/0/mac/queue_lifetime_rule", "(allowed: \"when_taken\", \"ns3\", \"standard\")"},
    {"DequeueNs3WithADisciplineThatCountsNoPlace",
     [](json& d) {
       d["mac"] = {{"dequeue", "ns3"}, {"queue", {{"discipline", "fq"}}}};
     },
     "/mac/dequeue", "only the \"drop_tail\" discipline counts, and the queue's discipline is \"fq\""},
    {"DequeueNs3InheritedByANodeWithItsOwnDiscipline",
     [](json& d) {
       d["mac"] = {{"dequeue", "ns3"}};
       d["nodes"][0]["mac"] = {{"queue", {{"discipline", "fred"}}}};
     },
     "/nodes/0/mac/queue", "use \"at_access\" (or \"after_exchange\") with it"},
    {"DequeueNs3WithAControllerThatReplacesTheQueues",
     [](json& d) {
       d["mac"] = {{"dequeue", "ns3"}};
       d["controllers"] = json::array({{{"type", "tcc"}}});
     },
     "/controllers/0/type", "\"tcc\" installs its own queue discipline"},
    {"RtsThresholdOn",
     [](json& d) {
       d["mac"] = {{"rts_threshold_bytes", "on"}};
     },
     "/mac/rts_threshold_bytes", "expected \"off\" or an integer 0..65535"},
    {"QueueInTwoUnits",
     [](json& d) {
       d["mac"] = {{"queue", {{"capacity_packets", 50}, {"capacity_bytes", 1000}}}};
     },
     "/mac/queue/capacity_bytes", "give either capacity_packets or capacity_bytes, not both"},
    {"KeyOfAnotherPropagationModel",
     [](json& d) {
       d["propagation"] = {{"rx_range_m", 250}};
     },
     "/propagation/rx_range_m",
     "applies only to propagation model \"range\", not \"log_distance\""},
    {"SinrWithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"reception", {{"model", "sinr"}}}};
     },
     "/phy/reception/model", "the \"range\" propagation model gives no received powers"},
    {"Ns2WithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"reception", {{"model", "ns2"}}}};
     },
     "/phy/reception/model", "\"ns2\" compares received powers with ns-2's thresholds"},
    {"PreambleSnrWithNs2",
     [](json& d) { d["phy"] = {{"reception", {{"model", "ns2"}, {"preamble_detection_snr_db", 4}}}}; },
     "/phy/reception/preamble_detection_snr_db", "applies to the \"sinr\" reception model"},
    {"PreambleSnrWithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"reception", {{"preamble_detection_snr_db", 4}}}};
     },
     "/phy/reception/preamble_detection_snr_db", "does not apply with propagation model \"range\""},
    {"IntervalScaledBeyondTheTimeRange",
     [](json& d) {
       d["simulation"]["offered_load_scale"] = 1e-13;
       d["flows"][0]["traffic"] = {{"type", "cbr"}, {"interval_s", 0.0001}};
     },
     "/flows/0/traffic/interval_s", "is more than 1e6 s"},
    {"TimeseriesFileNameTooLong",
     [](json& d) { d["outputs"] = {{"timeseries_file", "out/" + std::string(256, 'x') + ".csv"}}; },
     "/outputs/timeseries_file", "at most 255 fit"},
    {"ResultsFileFolderNameTooLong",
     [](json& d) { d["outputs"] = {{"results_file", std::string(300, 'd') + "/r.json"}}; },
     "/outputs/results_file", "300 bytes long"},
    {"EventTracePathTooLong",
     [](json& d) { d["outputs"] = {{"event_trace", {{"path", std::string(256, 'e')}}}}; },
     "/outputs/event_trace/path", "at most 255 fit"},
    {"PcapPathTooLongWithItsSuffix",
     [](json& d) { d["outputs"] = {{"pcap", {{"path", std::string(250, 'p')}}}}; },
     "/outputs/pcap/path", "with what the trace appends"},
    {"PreambleWindowWithThreshold",
     [](json& d) { d["phy"] = {{"reception", {{"model", "threshold"}, {"preamble_detection", "window"}}}}; },
     "/phy/reception/preamble_detection", "applies to the \"sinr\" reception model only"},
    {"PreambleWindowLengthWithNs2",
     [](json& d) { d["phy"] = {{"reception", {{"model", "ns2"}, {"preamble_detection_window_us", 4}}}}; },
     "/phy/reception/preamble_detection_window_us", "applies to the \"sinr\" reception model only"},
    {"PreambleWindowLengthWithoutTheWindow",
     [](json& d) { d["phy"] = {{"reception", {{"preamble_detection_window_us", 4}}}}; },
     "/phy/reception/preamble_detection_window_us", "set that, or remove the window"},
    {"PreambleWindowBeyondThePreamble",
     [](json& d) {
       d["phy"] = {{"reception", {{"preamble_detection", "window"}, {"preamble_detection_window_us", 20}}}};
     },
     "/phy/reception/preamble_detection_window_us", "16"},
    {"PreambleDetectionUnknown",
     [](json& d) { d["phy"] = {{"reception", {{"preamble_detection", "late"}}}}; },
     "/phy/reception/preamble_detection", "arrival"},
    {"FaintSignalsWithThreshold",
     [](json& d) { d["phy"] = {{"reception", {{"model", "threshold"}, {"faint_signals", "events"}}}}; },
     "/phy/reception/faint_signals", "applies to the \"sinr\" reception model only"},
    {"ErrorEvaluationWithNs2",
     [](json& d) { d["phy"] = {{"reception", {{"model", "ns2"}, {"error_evaluation", "exact"}}}}; },
     "/phy/reception/error_evaluation", "applies to the \"sinr\" reception model only"},
    {"FaintSignalsWithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"reception", {{"faint_signals", "events"}}}};
     },
     "/phy/reception/faint_signals", "does not apply with propagation model \"range\""},
    {"FaintSignalsUnknown",
     [](json& d) { d["phy"] = {{"reception", {{"faint_signals", "lazy"}}}}; },
     "/phy/reception/faint_signals", "intervals"},
    {"DsssProcessingGainWithThreshold",
     [](json& d) { d["phy"] = {{"reception", {{"model", "threshold"}, {"dsss_processing_gain", "ns3"}}}}; },
     "/phy/reception/dsss_processing_gain", "applies to the \"sinr\" reception model only"},
    {"DsssProcessingGainWithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"reception", {{"dsss_processing_gain", "ns3"}}}};
     },
     "/phy/reception/dsss_processing_gain", "does not apply with propagation model \"range\""},
    {"DsssProcessingGainUnknown",
     [](json& d) { d["phy"] = {{"reception", {{"dsss_processing_gain", "22MHz"}}}}; },
     "/phy/reception/dsss_processing_gain", "chip_rate"},
    {"FrameCaptureWithNs2",
     [](json& d) { d["phy"] = {{"reception", {{"model", "ns2"}, {"frame_capture", true}}}}; },
     "/phy/reception/frame_capture", "the \"ns2\" model already keeps the stronger frame"},
    {"FrequencyWithRangeModel",
     [](json& d) { d["propagation"] = {{"model", "range"}, {"frequency_hz", 914e6}}; },
     "/propagation/frequency_hz", "applies only to propagation models"},
    {"FrequencyOutOfRange",
     [](json& d) { d["propagation"] = {{"model", "two_ray"}, {"frequency_hz", 0}}; },
     "/propagation/frequency_hz", "got 0"},
    {"ReferenceGainAboveBound",
     [](json& d) { d["propagation"] = {{"reference_gain_db", 150}}; },
     "/propagation/reference_gain_db", "got 150"},
    {"ShadowingProbabilityOutOfRange",
     [](json& d) {
       d["phy"] = {{"auto_rate", {{"max_fer", 1.5}}}, {"data_rate_bps", "auto"}};
     },
     "/phy/auto_rate/max_fer", "expected a number > 0 and < 1, got 1.5"},
    {"ShadowingSeedNegative",
     [](json& d) { d["propagation"] = {{"shadowing", {{"sigma_db", 4}, {"seed", -1}}}}; },
     "/propagation/shadowing/seed", "expected an integer"},
    {"AutoRateKeysWithThresholdReception",
     [](json& d) {
       d["phy"] = {{"reception", {{"model", "threshold"}}}, {"auto_rate", {{"max_fer", 0.1}}}};
     },
     "/phy/auto_rate", "auto_rate applies to the \"sinr\" reception model"},
    {"AutoRateKeysWithRangeModel",
     [](json& d) {
       d["propagation"] = {{"model", "range"}};
       d["phy"] = {{"auto_rate", {{"max_fer", 0.1}}}};
     },
     "/phy/auto_rate", "the \"range\" propagation model does not give"},
    {"QueueLifetimeZero", [](json& d) { d["mac"] = {{"queue_lifetime_s", 0}}; }, "/mac/queue_lifetime_s",
     "expected a number of seconds > 0"},
    {"QueueLifetimeWord",
     [](json& d) { d["nodes"][0]["mac"] = {{"queue_lifetime_s", "never"}}; },
     "/nodes/0/mac/queue_lifetime_s", "expected \"none\" or a number of seconds > 0, got \"never\""},
    // --- nodes
    {"EmptyNodes", [](json& d) { d["nodes"] = json::array(); }, "/nodes",
     "at least one node is required"},
    {"DuplicateNodeId", [](json& d) { d["nodes"][1]["id"] = "A"; }, "/nodes/1/id",
     "duplicate node id \"A\" (first defined at /nodes/0)"},
    {"InvalidNodeId", [](json& d) { d["nodes"][0]["id"] = "node A"; }, "/nodes/0/id",
     "invalid node id \"node A\""},
    {"PositionWithOneCoordinate", [](json& d) { d["nodes"][0]["position_m"] = {5}; },
     "/nodes/0/position_m", "expected [x, y] or [x, y, z] in metres, got an array"},
    {"MissingPosition", [](json& d) { d["nodes"][0].erase("position_m"); }, "/nodes/0/position_m",
     "missing required key \"position_m\""},
    // NaN (a document built in code, not JSON text) is no coordinate: it is also
    // MaybePosition's "no position" (core/topology.hpp).
    {"NanCoordinate", [](json& d) { d["nodes"][0]["position_m"] = {std::nan(""), 0}; },
     "/nodes/0/position_m/0", "expected a coordinate in metres within +-1e7"},
    {"ColocatedNodes",
     [](json& d) {
       d["nodes"][1]["position_m"] = {0, 0};
     },
     "/nodes/1", "is at the same position as node \"A\""},
    {"UnknownRole", [](json& d) { d["nodes"][2]["role"] = "gw"; }, "/nodes/2/role",
     "unknown value \"gw\""},
    {"HostWithRadios",
     [](json& d) {
       add_host(d);
       d["nodes"][3]["radios"] = {{{"channel", 1}}};
     },
     "/nodes/3/radios", "does not apply to a host"},
    {"HostWithoutLink",
     [](json& d) {
       d["nodes"].push_back({{"id", "H"}, {"role", "host"}});
     },
     "/nodes/3", "host \"H\" has no wired link"},
    {"TwoRadiosOnOneChannel",
     [](json& d) {
       d["nodes"][1]["radios"] = {{{"channel", 1}}, {{"channel", 1}}};
     },
     "/nodes/1/radios/1/channel", "both on channel 1"},
    {"NodeOverrideChangesMacType",
     [](json& d) {
       d["nodes"][1]["mac"] = {{"type", "edca"}};
     },
     "/nodes/1/mac/type", "is scenario-wide"},
    // --- links
    {"LinkToUnknownNode",
     [](json& d) {
       add_host(d);
       d["links"][0]["nodes"][1] = "X";
     },
     "/links/0/nodes/1", "node \"X\" is not defined"},
    {"LinkNegativeDelay",
     [](json& d) {
       add_host(d);
       d["links"][0]["delay_s"] = -0.1;
     },
     "/links/0/delay_s", "expected a number of seconds >= 0"},
    // --- flows
    {"EmptyFlows", [](json& d) { d["flows"] = json::array(); }, "/flows",
     "at least one flow is required"},
    {"MissingFlows", [](json& d) { d.erase("flows"); }, "/flows", "missing required key \"flows\""},
    {"UnknownFlowDst", [](json& d) { d["flows"][0]["dst"] = "Q"; }, "/flows/0/dst",
     "node \"Q\" is not defined (known: A, B, GW)"},
    {"FlowDstCaseTypo", [](json& d) { d["flows"][0]["dst"] = "gw"; }, "/flows/0/dst",
     "node \"gw\" is not defined; did you mean \"GW\"?"},
    {"FlowToItself", [](json& d) { d["flows"][0]["dst"] = "A"; }, "/flows/0/dst",
     "a flow's dst must differ from its src (\"A\")"},
    {"DuplicateFlowId",
     [](json& d) {
       d["flows"].push_back({{"id", "f1"}, {"transport", "udp"}, {"src", "B"}, {"dst", "GW"}});
     },
     "/flows/1/id", "duplicate flow id \"f1\""},
    {"StopBeforeStart",
     [](json& d) {
       d["flows"][0]["start_s"] = 5;
       d["flows"][0]["stop_s"] = 2;
     },
     "/flows/0/stop_s", "stop_s (2) must be after start_s (5)"},
    {"UnknownTransport", [](json& d) { d["flows"][0]["transport"] = "sctp"; }, "/flows/0/transport",
     "(allowed: \"udp\", \"tcp\", \"wccp\")"},
    {"TcpSettingsOnUdpFlow",
     [](json& d) {
       d["flows"][0]["transport"] = "udp";
       d["flows"][0]["tcp"] = {{"variant", "reno"}};
     },
     "/flows/0/tcp", "applies only to flows with \"transport\": \"tcp\" (this one is \"udp\")"},
    {"SsthreshFromPipeWithoutSack",
     [](json& d) {
       d["flows"][0]["transport"] = "tcp";
       d["flows"][0]["tcp"] = {{"ssthresh_from", "pipe"}};
     },
     "/flows/0/tcp/ssthresh_from", "\"pipe\" needs \"sack\": true"},
    {"SsthreshFromUnknown",
     [](json& d) {
       d["flows"][0]["transport"] = "tcp";
       d["flows"][0]["tcp"] = {{"sack", true}, {"ssthresh_from", "cwnd"}};
     },
     "/flows/0/tcp/ssthresh_from", "flight_size"},
    {"CbrWithoutRate",
     [](json& d) {
       d["flows"][0]["traffic"] = {{"type", "cbr"}};
     },
     "/flows/0/traffic/rate_bps", "needs rate_bps"},
    {"PayloadTooLargeForMsdu", [](json& d) { d["flows"][0]["payload_bytes"] = 3000; },
     "/flows/0/payload_bytes", "expected an integer 1..2264, got 3000"},
    {"AccessCategoryWithDcf", [](json& d) { d["flows"][0]["access_category"] = "ac_vo"; },
     "/flows/0/access_category", "applies only with \"type\": \"edca\""},
    {"AnyGatewayWithoutGateway",
     [](json& d) {
       d["nodes"][2]["role"] = "mesh";
       d["flows"][0]["dst"] = "@gateway";
     },
     "/flows/0/dst", "\"@gateway\" needs a node with \"role\": \"gateway\""},
    // --- routing
    {"StaticRouteToUnknownNextHop",
     [](json& d) {
       d["routing"] = {{"type", "static"}, {"tables", {{"A", {{"GW", "Z"}}}}}};
     },
     "/routing/tables/A/GW", "node \"Z\" is not defined"},
    {"StaticTableOfUnknownNode",
     [](json& d) {
       d["routing"] = {{"type", "static"}, {"tables", {{"Q", {{"*", "B"}}}}}};
     },
     "/routing/tables/Q", "node \"Q\" is not defined"},
    {"MetricWithStaticRouting",
     [](json& d) {
       d["routing"] = {{"type", "static"}, {"metric", "airtime"}, {"tables", json::object()}};
     },
     "/routing/metric", "does not apply to \"static\" routing"},
    // --- controllers
    {"MisspelledControllerType",
     [](json& d) {
       d["controllers"] = {{{"type", "counter_starvaton"}}};
     },
     "/controllers/0/type", "did you mean \"counter_starvation\"?"},
    {"ControllerOnUnknownNode",
     [](json& d) {
       d["controllers"] = {{{"type", "tcc"}, {"nodes", {"Q"}}}};
     },
     "/controllers/0/nodes/0", "node \"Q\" is not defined"},
    {"CounterStarvationAroundMeshNode",
     [](json& d) {
       d["controllers"] = {{{"type", "counter_starvation"}, {"gateways", {"B"}}}};
     },
     "/controllers/0/gateways/0", "node \"B\" is a mesh, not a gateway"},
    {"CounterStarvationFactorBelowTwo",
     [](json& d) {
       d["controllers"] = {{{"type", "counter_starvation"}, {"cw_min_factor", 1.5}}};
     },
     "/controllers/0/cw_min_factor", "expected a number 2..32768, got 1.5"},
    // Beyond the largest window over the smallest: factor x CWmin left every window (and an int).
    {"CounterStarvationFactorBeyondAnyWindow",
     [](json& d) {
       d["controllers"] = {{{"type", "counter_starvation"}, {"cw_min_factor", 1e300}}};
     },
     "/controllers/0/cw_min_factor", "expected a number 2..32768, got 1e+300"},
    {"ThresholdNotAProbability",
     [](json& d) {
       d["controllers"] = {{{"type", "lscc"}, {"congestion_threshold", 1.5}}};
     },
     "/controllers/0/congestion_threshold", "expected a number > 0 and < 1, got 1.5"},
    {"LookAheadOnTcc",
     [](json& d) {
       d["controllers"] = {{{"type", "tcc"}, {"look_ahead_share", 0.1}}};
     },
     "/controllers/0/look_ahead_share", "applies only to \"lscc\""},
    {"ExcludeBlockedPacketsOnTcc",
     [](json& d) {
       d["controllers"] = {{{"type", "tcc"}, {"exclude_blocked_packets", true}}};
     },
     "/controllers/0/exclude_blocked_packets", "applies only to \"lscc\""},
    {"LookAheadThresholdAboveOne",
     [](json& d) {
       d["controllers"] = {{{"type", "lscc"}, {"look_ahead_threshold", 1.5}}};
     },
     "/controllers/0/look_ahead_threshold", "<= 1"},
    {"BlockedLocalLimitZero",
     [](json& d) {
       d["controllers"] = {{{"type", "lscc"}, {"blocked_local_limit", 0}}};
     },
     "/controllers/0/blocked_local_limit", "> 0"},
    {"CounterStarvationWindowTooSmall",
     [](json& d) {
       d["controllers"] = {{{"type", "counter_starvation"}, {"cw_min", 32}}};
     },
     "/controllers/0/cw_min", "less than twice the scenario's cw_min (32)"},
    {"DuplicateControllerId",
     [](json& d) {
       d["controllers"] = {{{"type", "tcc"}, {"id", "cc"}}, {{"type", "wccp"}, {"id", "cc"}}};
     },
     "/controllers/1/id", "duplicate controller id \"cc\""},
    {"AutoRateWithThresholdReception",
     [](json& d) {
       d["phy"] = {{"data_rate_bps", "auto"}, {"reception", {{"model", "threshold"}}}};
     },
     "/phy/data_rate_bps", "it needs \"reception\": {\"model\": \"sinr\"}"},
    {"EdcaAckPriorityAcksInTheDataCategory",
     [](json& d) {
       d["controllers"] = {{{"type", "edca_ack_priority"}, {"ack_access_category", "ac_be"}}};
     },
     "/controllers/0/ack_access_category", "TCP ACKs need a category of their own"},
    {"EdcaTxopWeightOfAnUnknownFlow",
     [](json& d) {
       d["controllers"] = {{{"type", "edca_txop"}, {"weights", {{"f2", 2}}}}};
     },
     "/controllers/0/weights/f2", "flow \"f2\" is not defined"},
    {"EdcaTxopWeightNotPositive",
     [](json& d) {
       d["controllers"] = {{{"type", "edca_txop"}, {"weights", {{"f1", 0}}}}};
     },
     "/controllers/0/weights/f1", "> 0"},
    {"EdcaTxopSourceWeightsByNode",
     [](json& d) {
       d["controllers"] = {{{"type", "edca_txop"}, {"flow_definition", "source_node"}, {"weights", {{"f1", 2}}}}};
     },
     "/controllers/0/weights/f1", "node \"f1\" is not defined"},
    {"EdcaTxopIdleTimeoutWhenStatic",
     [](json& d) {
       d["controllers"] = {{{"type", "edca_txop"}, {"dynamic", false}, {"flow_idle_timeout_s", 2}}};
     },
     "/controllers/0/flow_idle_timeout_s", "applies only with \"dynamic\": true"},
};

class ScenarioBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(ScenarioBadInput, ReportsPathAndMessage) {
  json doc = minimal_scenario();
  ASSERT_TRUE(issues_of(doc).empty())
      << "the base scenario must be valid:" << test::render(issues_of(doc));
  GetParam().mutate(doc);
  EXPECT_TRUE(has_issue(issues_of(doc), GetParam().path, GetParam().fragment));
}

INSTANTIATE_TEST_SUITE_P(Scenario, ScenarioBadInput, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& p) {
                           return std::string(p.param.name);
                         });

TEST(ScenarioErrors, ReportsEveryProblemInOnePass) {
  json doc = minimal_scenario();
  doc["simulation"]["duration_s"] = -1;
  doc["simulation"]["duraton"] = 3;
  doc["nodes"][1]["id"] = "A";
  doc["nodes"][2]["radios"] = {{{"channel", "six"}}};
  doc["flows"][0]["dst"] = "Q";
  doc["flows"].push_back({{"id", "f2"}, {"transport", "udp"}, {"src", "A"}, {"dst", "A"}});
  doc["mac"] = {{"type", "dfc"}};
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/simulation/duration_s", "> 0"));
  EXPECT_TRUE(has_issue(issues, "/simulation/duraton", "did you mean \"duration_s\"?"));
  EXPECT_TRUE(has_issue(issues, "/nodes/1/id", "duplicate node id"));
  EXPECT_TRUE(has_issue(issues, "/nodes/2/radios/0/channel", "got \"six\""));
  EXPECT_TRUE(has_issue(issues, "/flows/0/dst", "node \"Q\" is not defined"));
  EXPECT_TRUE(has_issue(issues, "/flows/1/dst", "must differ from its src"));
  EXPECT_TRUE(has_issue(issues, "/mac/type", "did you mean \"dcf\"?"));
  EXPECT_EQ(issues.size(), 7u) << test::render(issues);
}

TEST(ScenarioErrors, WhatListsOnePathAndMessagePerLine) {
  json doc = minimal_scenario();
  doc["simulation"]["duration_s"] = 0;
  doc["flows"][0]["src"] = "Z";
  try {
    parse_scenario(doc);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/simulation/duration_s: expected a number of seconds > 0, got 0\n"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("/flows/0/src: node \"Z\" is not defined"), std::string::npos) << what;
  }
}

TEST(ScenarioErrors, NonObjectDocumentIsOneIssueAtTheRoot) {
  const auto issues = issues_of(json::array());
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_EQ(issues[0].path, "");
  EXPECT_EQ(issues[0].message, "expected an object, got an array; a scenario is one JSON object");
}

TEST(ScenarioErrors, BadTransportHidesItsSettings) {
  json doc = minimal_scenario();
  doc["flows"][0]["transport"] = "tpc";
  doc["flows"][0]["tcp"] = {{"variant", "reno"}};
  const auto issues = issues_of(doc);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_TRUE(has_issue(issues, "/flows/0/transport", "did you mean \"tcp\"?"));
}

TEST(ScenarioErrors, BadControllerTypeHidesItsOtherKeys) {
  json doc = minimal_scenario();
  doc["controllers"] = {{{"type", "magic"}, {"strength", 3}}};
  const auto issues = issues_of(doc);
  ASSERT_EQ(issues.size(), 1u) << test::render(issues);
  EXPECT_EQ(issues[0].path, "/controllers/0/type");
}

TEST(ScenarioErrors, OverrideToABadValueIsReportedAtItsPath) {
  const json doc =
      apply_overrides(minimal_scenario(), {"/simulation/duration_s=-3", "/phy/standard=802.11x"});
  const auto issues = issues_of(doc);
  EXPECT_TRUE(has_issue(issues, "/simulation/duration_s", "got -3"));
  EXPECT_TRUE(has_issue(issues, "/phy/standard", "unknown value \"802.11x\""));
}

TEST(ScenarioErrors, EditDistanceSuggestionsStayClose) {
  EXPECT_EQ(edit_distance("cw_mni", "cw_min"), 1u);  // a swap is one edit
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(closest_match("duration", {"duration_s", "warmup_s"}), "duration_s");
  EXPECT_EQ(closest_match("flowz", {"flows", "nodes"}), "flows");
  EXPECT_FALSE(closest_match("zzzzzz", {"flows", "nodes"}).has_value());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
