// The ns3 compatibility preset (scenario/compat_preset.hpp): it fills in only what the
// scenario leaves out, applies sinr-only keys only under sinr reception and TCP keys
// only to tcp flows, and leaves a scenario without `compat` exactly as it was.

#include <gtest/gtest.h>

#include "control/controller_registry.hpp"
#include "scenario/compat_preset.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;
using test::minimal_scenario;

json with_compat(json d) {
  d["compat"] = "ns3";
  return d;
}

TEST(CompatPreset, WithoutCompatTheDocumentIsUntouched) {
  const json d = minimal_scenario();
  EXPECT_EQ(apply_compat_preset(d), d);
  json other = d;
  other["compat"] = "ns2";  // unknown: the loader reports it, nothing is applied
  EXPECT_EQ(apply_compat_preset(other), other);
}

TEST(CompatPreset, FillsNs3DefaultsTheScenarioLeavesOut) {
  const json out = apply_compat_preset(with_compat(minimal_scenario()));
  EXPECT_EQ(out["compat"], "ns3");
  EXPECT_EQ(out["mac"]["queue_lifetime_s"], 0.5);
  EXPECT_EQ(out["mac"]["queue"]["capacity_packets"], 500);
  EXPECT_EQ(out["mac"]["short_retry_limit"], 7);
  EXPECT_EQ(out["mac"]["long_retry_limit"], 7);
  EXPECT_EQ(out["mac"]["rts_threshold_bytes"], "off");
  EXPECT_EQ(out["mac"]["immediate_access"], "ns3");
  EXPECT_EQ(out["mac"]["cw_after_drop"], "ns3");
  EXPECT_EQ(out["mac"]["queue_lifetime_rule"], "ns3");  // MPDUs stay queued between attempts
  EXPECT_EQ(out["mac"]["retry_counts"], "ns3");  // one count per MPDU (WifiMpdu::GetRetryCount)
  EXPECT_EQ(out["mac"]["deferral"], "ns3");      // EIFS from the errored frame's end (GetAccessGrantStart)
  EXPECT_EQ(out["mac"]["dequeue"], "ns3");       // an MPDU holds its place until acknowledged (DequeueMpdu)
  const json& tcp = out["flows"][0]["tcp"];
  EXPECT_EQ(tcp["delayed_ack"], true);
  EXPECT_EQ(tcp["min_rto_s"], 1);
  EXPECT_EQ(tcp["initial_window_segments"], 10);
  EXPECT_EQ(tcp["limited_transmit"], true);
  EXPECT_EQ(tcp["timestamps"], true);
  EXPECT_EQ(tcp["sack"], true);
  EXPECT_EQ(tcp["ssthresh_from"], "pipe");  // TcpSocketBase::EnterRecovery halves BytesInFlight
  EXPECT_EQ(tcp["window_packets"], 131072 / 1460);  // 89: ns-3's 128 KiB buffers
  // The minimal scenario receives by sinr (no propagation model given).
  EXPECT_EQ(out["phy"]["reception"]["preamble_detection_snr_db"], 4);
  EXPECT_EQ(out["phy"]["reception"]["rx_sensitivity_dbm"], -82);
  // ns-3 3.44 measures a DSSS frame's SNR over 20 MHz (DsssPhy::GetRxChannelWidth), not the
  // 22 MHz channel; the noise is the same for 802.11g.
  EXPECT_DOUBLE_EQ(out["phy"]["noise_dbm"].get<double>(), -93.97);  // kTB over 20 MHz + 7 dB
  EXPECT_EQ(out["phy"]["reception"]["preamble_detection"], "window");
  EXPECT_EQ(out["phy"]["reception"]["dsss_processing_gain"], "ns3");  // DsssErrorRateModel's 22 MHz
  // YansWifiChannel's cut: RxSensitivity -101 dBm per 20 MHz of the PPDU's TXVECTOR width, a
  // DSSS PPDU's 22 MHz.
  EXPECT_DOUBLE_EQ(out["phy"]["reception"]["signal_floor_dbm"].get<double>(), -100.59);
  json g = with_compat(minimal_scenario());
  g["phy"] = {{"standard", "802.11g"}};
  EXPECT_DOUBLE_EQ(apply_compat_preset(g)["phy"]["reception"]["signal_floor_dbm"].get<double>(), -101.0);
  EXPECT_DOUBLE_EQ(apply_compat_preset(g)["phy"]["noise_dbm"].get<double>(), -93.97);
  const Scenario s = parse_scenario(with_compat(minimal_scenario()));
  EXPECT_EQ(s.phy.reception.preamble_detection, phy::PreambleDetection::window);
  EXPECT_EQ(s.phy.reception.preamble_detection_window, Time::us(4));
  EXPECT_EQ(s.phy.reception.dsss_processing_gain, DsssProcessingGain::ns3);
  ASSERT_TRUE(s.phy.reception.signal_floor_dbm.has_value());
  EXPECT_DOUBLE_EQ(*s.phy.reception.signal_floor_dbm, -100.59);
}

TEST(CompatPreset, DequeueNs3OnlyWhereEveryQueueIsDropTail) {
  // Another discipline counts no held place (the loader refuses "ns3" with it): the
  // preset leaves mac.dequeue alone there, and the scenario loads.
  json d = with_compat(minimal_scenario());
  d["mac"] = {{"queue", {{"discipline", "fq"}}}};
  EXPECT_FALSE(apply_compat_preset(d)["mac"].contains("dequeue"));
  EXPECT_NO_THROW(parse_scenario(d));
  json node = with_compat(minimal_scenario());
  node["nodes"][0]["mac"] = {{"queue", {{"discipline", "fred"}}}};
  EXPECT_FALSE(apply_compat_preset(node)["mac"].contains("dequeue"));
  EXPECT_NO_THROW(parse_scenario(node));
  json tail = with_compat(minimal_scenario());
  tail["mac"] = {{"queue", {{"discipline", "drop_tail"}}}};
  EXPECT_EQ(apply_compat_preset(tail)["mac"]["dequeue"], "ns3");
  // A radio's override, and a controller that installs its own queues, count too.
  json radio = with_compat(minimal_scenario());
  radio["nodes"][0]["radios"] = json::array({{{"mac", {{"queue", {{"discipline", "fq"}}}}}}});
  EXPECT_FALSE(apply_compat_preset(radio)["mac"].contains("dequeue"));
  EXPECT_NO_THROW(parse_scenario(radio));
  json tcc = with_compat(minimal_scenario());
  tcc["controllers"] = json::array({{{"type", "tcc"}}});
  EXPECT_FALSE(apply_compat_preset(tcc)["mac"].contains("dequeue"));
  EXPECT_NO_THROW(parse_scenario(tcc));
}

TEST(CompatPreset, ItsListOfControllersReplacingQueuesIsTheRegistrys) {
  std::vector<std::string> flagged;
  const control::ControllerRegistry registry = control::ControllerRegistry::with_builtins();
  for (const control::ControllerEntry& e : registry.entries()) {
    if (e.replaces_queues) flagged.push_back(e.name);
  }
  const std::vector<std::string> listed(std::begin(kControllersReplacingQueues), std::end(kControllersReplacingQueues));
  EXPECT_EQ(flagged, listed);
}

TEST(CompatPreset, ExplicitKeysWin) {
  json d = with_compat(minimal_scenario());
  d["mac"] = {{"queue_lifetime_s", "none"}, {"short_retry_limit", 4}, {"queue", {{"capacity_bytes", 30000}}}};
  d["flows"][0]["tcp"] = {{"delayed_ack", false}, {"min_rto_s", 0.2}};
  d["flows"][0]["payload_bytes"] = 1000;
  d["phy"] = {{"noise_dbm", -90},
              {"reception", {{"preamble_detection_snr_db", 2}, {"dsss_processing_gain", "chip_rate"}}}};
  const json out = apply_compat_preset(d);
  EXPECT_EQ(out["mac"]["queue_lifetime_s"], "none");
  EXPECT_EQ(out["mac"]["short_retry_limit"], 4);
  EXPECT_EQ(out["mac"]["long_retry_limit"], 4);  // left out: ns-3's one limit, the short one set
  EXPECT_FALSE(out["mac"]["queue"].contains("capacity_packets"));  // one capacity only
  EXPECT_EQ(out["flows"][0]["tcp"]["delayed_ack"], false);
  EXPECT_EQ(out["flows"][0]["tcp"]["min_rto_s"], 0.2);
  EXPECT_EQ(out["flows"][0]["tcp"]["sack"], true);
  EXPECT_EQ(out["flows"][0]["tcp"]["ssthresh_from"], "pipe");
  EXPECT_EQ(out["flows"][0]["tcp"]["window_packets"], 131);  // 131072 / 1000
  // A flow without SACK keeps the RFCs' FlightSize: the pipe needs the scoreboard.
  json no_sack = d;
  no_sack["flows"][0]["tcp"]["sack"] = false;
  EXPECT_FALSE(apply_compat_preset(no_sack)["flows"][0]["tcp"].contains("ssthresh_from"));
  EXPECT_NO_THROW(parse_scenario(no_sack));
  EXPECT_EQ(out["phy"]["noise_dbm"], -90);
  EXPECT_EQ(out["phy"]["reception"]["preamble_detection_snr_db"], 2);
  EXPECT_EQ(out["phy"]["reception"]["dsss_processing_gain"], "chip_rate");
  EXPECT_EQ(out["phy"]["reception"]["rx_sensitivity_dbm"], -82);

  // Through the loader too: the MAC the radios get, and the document recorded.
  const Scenario s = parse_scenario(d);
  EXPECT_EQ(s.document, d);  // as written, `compat` included (it is hashed)
  const MacParams& mac = *s.nodes[0].radios[0].mac;
  EXPECT_FALSE(mac.queue_lifetime.has_value());
  EXPECT_EQ(mac.short_retry_limit, 4);
  EXPECT_EQ(mac.long_retry_limit, 4);
  EXPECT_EQ(mac.queue.unit, link::QueueLimit::Unit::bytes);
  EXPECT_EQ(s.phy.noise_dbm, -90);
  ASSERT_TRUE(s.phy.reception.preamble_detection_snr_db.has_value());
  EXPECT_EQ(*s.phy.reception.preamble_detection_snr_db, 2);
}

TEST(CompatPreset, TheLoaderReadsThePreset) {
  const Scenario s = parse_scenario(with_compat(minimal_scenario()));
  const MacParams& mac = *s.nodes[1].radios[0].mac;
  ASSERT_TRUE(mac.queue_lifetime.has_value());
  EXPECT_EQ(*mac.queue_lifetime, Time::ms(500));
  EXPECT_EQ(mac.queue.capacity, 500);
  EXPECT_EQ(mac.long_retry_limit, 7);
  EXPECT_EQ(mac.immediate_access, ImmediateAccess::ns3);
  EXPECT_EQ(mac.cw_after_drop, CwAfterDrop::ns3);
  EXPECT_EQ(mac.queue_lifetime_rule, QueueLifetimeRule::ns3);
  ASSERT_TRUE(s.phy.reception.rx_sensitivity_dbm.has_value());
  EXPECT_EQ(*s.phy.reception.rx_sensitivity_dbm, -82);
}

TEST(CompatPreset, PerNodeMacOverridesStillWin) {
  json d = with_compat(minimal_scenario());
  d["nodes"][1]["mac"] = {{"queue_lifetime_s", 2}};
  const Scenario s = parse_scenario(d);
  EXPECT_EQ(*s.nodes[1].radios[0].mac->queue_lifetime, Time::s(2));
  EXPECT_EQ(*s.nodes[0].radios[0].mac->queue_lifetime, Time::ms(500));
}

TEST(CompatPreset, SinrKeysOnlyUnderSinrAndTcpKeysOnlyOnTcp) {
  json d = with_compat(minimal_scenario());
  d["propagation"] = {{"model", "range"}, {"rx_range_m", 250}, {"cs_range_m", 300}};  // threshold reception
  d["flows"].push_back({{"id", "u"}, {"transport", "udp"}, {"src", "B"}, {"dst", "GW"}});
  const json out = apply_compat_preset(d);
  EXPECT_FALSE(out.contains("phy"));  // preamble detection, sensitivity and noise are sinr-only
  EXPECT_FALSE(out["flows"][1].contains("tcp"));
  EXPECT_TRUE(out["flows"][0].contains("tcp"));
  EXPECT_NO_THROW((void)parse_scenario(d));  // and the loader accepts what it made
}

TEST(CompatPreset, NeverWritesUnderAValueThatIsNotAnObject) {
  json d = with_compat(minimal_scenario());
  d["mac"] = {{"queue", 50}};  // the scenario's mistake: reported as before
  const json out = apply_compat_preset(d);
  EXPECT_EQ(out["mac"]["queue"], 50);
  EXPECT_TRUE(test::has_issue(test::issues_of(d), "/mac/queue", "expected an object"));
}

TEST(CompatPreset, TheDocsTableHasEveryRow) {
  const std::string table = ns3_compat_table();
  for (const CompatSetting& s : ns3_compat_settings()) {
    EXPECT_NE(table.find("`" + s.pointer + "`"), std::string::npos) << s.pointer;
    EXPECT_NE(table.find("`" + s.ns3_attribute + "`"), std::string::npos) << s.ns3_attribute;
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
