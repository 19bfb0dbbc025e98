// One wmnsim scenario run in ns-3 3.44 (public API only), for validation/ns3/run_ns3.py.
//
// The scenario arrives as a spec file written by run_ns3.py from the wmnsim scenario
// (positions and routes from wmnsim's own describe(), so both simulators run the same
// network). The rule: every ns-3 attribute that the wmnsim scenario sets explicitly is set
// here to the same value; every other attribute keeps its ns-3 3.44 default, which is what
// wmnsim's `"compat": "ns3"` preset reproduces on its side (docs/validation.md lists the
// settings that cannot match).
//
// Spec lines (one setting per line, '#' starts a comment):
//   duration S | warmup S | seed N | data_rate BPS | basic_rate BPS | tx_power_dbm P
//   frequency_hz F
//   propagation range MAX_M | propagation log_distance EXPONENT REF_DIST_M REF_LOSS_DB
//   cw MIN MAX          (window sizes in slots, as wmnsim counts them: 32 = [0, 31])
//   node_cw_min NODE MIN  (a node's own CWmin, as a scenario's nodes[].mac.cw_min)
//   retry_limit N       (attempts, as wmnsim and ns-3's FrameRetryLimit count them)
//   rts_threshold BYTES | rts_threshold off
//   queue_packets N
//   receiver ns3        (the default: ns-3's own receiver, YansWifiPhy's SINR, DSSS error
//                        model and energy detection; the stored references were made with it)
//   receiver range SNR_DB ED_DBM  (a mirror of wmnsim's range model, for range scenarios:
//                        a preamble is detected only at SNR_DB or more, any frame arriving
//                        during a reception destroys it, and energy at ED_DBM or more holds
//                        the medium busy; run_ns3.py derives both numbers from the scenario)
//   tcp ATTRIBUTE VALUE (an ns3::TcpSocket or ns3::TcpSocketBase attribute)
//   segment_size BYTES
//   node ID X Y
//   route NODE DST NEXT_HOP
//   flow ID tcp SRC DST PAYLOAD saturated
//   flow ID udp SRC DST PAYLOAD saturated|cbr RATE_BPS
//
// Output (stdout): one JSON object: the seed, the wall-clock time and, per flow, the
// application bytes received in order (goodput over [warmup, duration]).
// --trace=FILE writes the MAC/PHY and TCP events of a run, one per line (docs/validation.md):
// "TIME NODE tx KIND ..." per transmitted frame (an RTS or DATA frame with mpdu_seq and
// mpdu_retries, the MPDU it is for and ns-3's retry count for it), "rx_ok" / "rx_fail" per
// payload received or lost, "rx_drop REASON" per frame lost before its payload, "mac_drop
// reason=N NAME seq= retries=" per MPDU the MAC dropped (WifiMacDropReason), "drop
// queue_full" per packet refused at a full MAC queue, and backoff, cw, tcp_state, cwnd.
// --queue-trace (with --trace) adds how each node's DCF queue admits packets
// (validation/ns3/relay_admission.py): "ip_tx" per packet IP hands down (own or forwarded),
// "tc_drop" per packet the traffic-control layer refuses, "q_enqueue", "q_dequeue",
// "q_drop_after_dequeue", "q_drop_before_enqueue", "q_expired" per WifiMacQueue trace
// (flow=SRC>DST by node, ipbytes, ipid; seq, retries, inflight for an MPDU) and
// "q_after_dequeue" once a removal's wake-up has run, each with the queue's length
// (queued=, in-flight MPDUs included) and whether the device queue is stopped (stopped=).
// Without it the trace is what it was.
// --phy-constants prints the 802.11b PHY's receiver constants (run_ns3.py's range receiver).

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/propagation-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

using namespace ns3;

namespace {

struct FlowSpec {
  std::string id, transport, src, dst, traffic;
  uint32_t payload = 0;
  double rate_bps = 0;
};

struct RouteSpec {
  std::string node, dst, next_hop;
};

struct Spec {
  double duration = 0, warmup = 0;
  uint32_t seed = 1;
  uint64_t data_rate = 0, basic_rate = 0;
  double tx_power_dbm = 0, frequency_hz = 0;
  std::vector<std::string> propagation;
  int cw_min = 0, cw_max = 0, retry_limit = 0;
  std::string rts_threshold;
  int queue_packets = 0;
  std::string receiver = "ns3";
  double receiver_snr_db = 0, receiver_ed_dbm = 0;
  uint32_t segment_size = 0;
  std::vector<std::pair<std::string, std::string>> tcp;
  std::vector<std::string> node_ids;
  std::vector<std::pair<double, double>> positions;
  std::vector<RouteSpec> routes;
  std::vector<std::pair<std::string, int>> node_cw_min;
  std::vector<FlowSpec> flows;
};

Spec read_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read spec " + path);
  Spec s;
  std::string line;
  while (std::getline(in, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream w(line);
    std::string key;
    if (!(w >> key)) continue;
    if (key == "duration") w >> s.duration;
    else if (key == "warmup") w >> s.warmup;
    else if (key == "seed") w >> s.seed;
    else if (key == "data_rate") w >> s.data_rate;
    else if (key == "basic_rate") w >> s.basic_rate;
    else if (key == "tx_power_dbm") w >> s.tx_power_dbm;
    else if (key == "frequency_hz") w >> s.frequency_hz;
    else if (key == "propagation") {
      for (std::string v; w >> v;) s.propagation.push_back(v);
      w.clear();  // reading to the end of the line set failbit
    } else if (key == "cw") w >> s.cw_min >> s.cw_max;
    else if (key == "retry_limit") w >> s.retry_limit;
    else if (key == "rts_threshold") w >> s.rts_threshold;
    else if (key == "queue_packets") w >> s.queue_packets;
    else if (key == "receiver") {
      w >> s.receiver;
      if (s.receiver == "range") w >> s.receiver_snr_db >> s.receiver_ed_dbm;
      else if (s.receiver != "ns3") throw std::runtime_error("receiver " + s.receiver + ": ns3 or range");
    }
    else if (key == "segment_size") w >> s.segment_size;
    else if (key == "tcp") {
      std::string a, v;
      w >> a >> v;
      s.tcp.emplace_back(a, v);
    } else if (key == "node") {
      std::string id;
      double x = 0, y = 0;
      w >> id >> x >> y;
      s.node_ids.push_back(id);
      s.positions.emplace_back(x, y);
    } else if (key == "node_cw_min") {
      std::string id;
      int cw = 0;
      w >> id >> cw;
      s.node_cw_min.emplace_back(id, cw);
    } else if (key == "route") {
      RouteSpec r;
      w >> r.node >> r.dst >> r.next_hop;
      s.routes.push_back(r);
    } else if (key == "flow") {
      FlowSpec f;
      w >> f.id >> f.transport >> f.src >> f.dst >> f.payload >> f.traffic;
      if (f.traffic == "cbr") w >> f.rate_bps;
      s.flows.push_back(f);
    } else {
      throw std::runtime_error("unknown spec key " + key);
    }
    if (w.fail()) throw std::runtime_error("bad spec line: " + line);
  }
  return s;
}

// ns-3's DSSS/HR-DSSS mode names for wmnsim's 802.11b rates.
std::string dsss_mode(uint64_t bps) {
  switch (bps) {
    case 1000000: return "DsssRate1Mbps";
    case 2000000: return "DsssRate2Mbps";
    case 5500000: return "DsssRate5_5Mbps";
    case 11000000: return "DsssRate11Mbps";
  }
  throw std::runtime_error("not an 802.11b rate: " + std::to_string(bps));
}

std::ofstream g_trace;

void trace_line(const std::string& text) { g_trace << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds() << ' ' << text << '\n'; }

std::string frame_kind(Ptr<const Packet> p) {
  WifiMacHeader h;
  Ptr<Packet> copy = p->Copy();
  copy->RemoveHeader(h);
  std::ostringstream o;
  o << (h.IsAck() ? "ACK" : h.IsRts() ? "RTS" : h.IsCts() ? "CTS" : h.IsData() ? "DATA" : "OTHER")
    << " to=" << h.GetAddr1() << " from=" << h.GetAddr2() << " seq=" << h.GetSequenceNumber()
    << " retry=" << (h.IsRetry() ? 1 : 0) << " bytes=" << p->GetSize();
  return o.str();
}

// The range model's interference rule (wmnsim, docs/phy.md: a concurrent frame from within
// interference_range_m destroys a reception), for `receiver range`. Every signal that
// reaches a PHY comes from within cs_range_m (the propagation is cut there, and run_ns3.py
// asks interference_range_m = cs_range_m), so any frame that arrives during a reception
// destroys it. ns-3 tells a PHY of such a frame as an rx_drop of the newcomer: RXING (it
// came during the payload) or BUSY_DECODING_PREAMBLE (during the preamble and header, after
// the preamble was detected); a frame that came before detection fails the preamble
// detection threshold instead (its SINR). This model, the PHY's PostReceptionErrorModel,
// then corrupts the frame being received when its payload ends (PhyEntity asks it after the
// PER draw), so the MAC sees a reception error, as with any lost frame.
// Why not an ErrorRateModel subclass with a SINR threshold: ErrorRateModel::GetChunkSuccessRate
// hands DSSS and HR/DSSS modes to DsssErrorRateModel itself and asks the subclass only for
// the others (its comment in error-rate-model.h), so for 802.11b a subclass is never asked.
// Why not a FrameCaptureModel that always switches: ns-3 aborts a reception that way only
// before its payload (a switch during the payload leaves the PHY in RX and fails an assert).
class RangeOverlapErrorModel : public ErrorModel {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("ns3::RangeOverlapErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Wifi")
                            .AddConstructor<RangeOverlapErrorModel>();
    return tid;
  }
  void RxBegin(Ptr<const Packet>, RxPowerWattPerChannelBand) { overlapped_ = false; }
  void RxDrop(Ptr<const Packet>, WifiPhyRxfailureReason r) {
    if (r == RXING || r == BUSY_DECODING_PREAMBLE) overlapped_ = true;
  }
  uint64_t destroyed() const { return destroyed_; }

 private:
  bool DoCorrupt(Ptr<Packet>) override {
    destroyed_ += overlapped_ ? 1 : 0;
    return overlapped_;
  }
  void DoReset() override { overlapped_ = false; }
  bool overlapped_ = false;
  uint64_t destroyed_ = 0;
};
NS_OBJECT_ENSURE_REGISTERED(RangeOverlapErrorModel);

// Per node (for the trace): the device, to read its DCF queue's head of line.
std::map<std::string, Ptr<WifiNetDevice>> g_devices;

// The MPDU an RTS protects or a DATA frame carries: the head of the node's DCF queue (ns-3
// keeps an MPDU in the queue, in flight, until it is acknowledged or dropped). Exact for a
// node whose frames all go to one receiver (A and the gateway of the two-hop chain);
// `inflight=0` marks a head that was not yet in flight.
std::string head_mpdu(const std::string& who) {
  Ptr<WifiMacQueue> q = g_devices.at(who)->GetMac()->GetTxop()->GetWifiMacQueue();
  Ptr<const WifiMpdu> m = q->Peek();
  if (!m) return " mpdu=none";
  std::ostringstream o;
  o << " mpdu_seq=" << m->GetHeader().GetSequenceNumber() << " mpdu_retries=" << m->GetRetryCount()
    << " inflight=" << (m->IsInFlight() ? 1 : 0) << " queued=" << q->GetNPackets();
  return o.str();
}

// --queue-trace: the node of each IPv4 address (a packet's flow=SRC>DST) and each node's
// device queue, the NetDeviceQueue that WifiHelper::Install (non-QoS branch) connects to the
// DCF's WifiMacQueue (NetDeviceQueue::ConnectQueueTraces): it stops when the queue is full
// (PacketEnqueued, WouldOverflow(1, MTU)) and wakes after any removal that leaves room
// (PacketDequeued, in a Simulator::ScheduleNow event). With no queue disc (Uninstall below)
// TrafficControlLayer::Send drops whatever IP hands down while it is stopped (TcDrop).
std::map<uint32_t, std::string> g_node_of_address;
std::map<std::string, Ptr<NetDeviceQueue>> g_device_queues;

// The DCF queue's length, its in-flight MPDUs included (ns-3 keeps an MPDU queued, counted
// against MaxSize, until it is acknowledged or dropped), and the device queue's state.
std::string queue_state(const std::string& who) {
  std::ostringstream o;
  o << " queued=" << g_devices.at(who)->GetMac()->GetTxop()->GetWifiMacQueue()->GetNPackets()
    << " stopped=" << (g_device_queues.at(who)->IsStopped() ? 1 : 0);
  return o.str();
}

// An IPv4 packet's flow (source and destination nodes), size and identification. An MPDU's
// packet carries the LLC/SNAP header first (`llc`); IP's Tx and TcDrop packets start with
// the IPv4 header.
std::string ip_packet(Ptr<const Packet> p, bool llc) {
  Ptr<Packet> copy = p->Copy();
  if (llc) {
    LlcSnapHeader snap;
    copy->RemoveHeader(snap);
  }
  Ipv4Header h;
  copy->PeekHeader(h);
  auto node = [](Ipv4Address a) {
    auto it = g_node_of_address.find(a.Get());
    return it == g_node_of_address.end() ? std::string("?") : it->second;
  };
  std::ostringstream o;
  o << " flow=" << node(h.GetSource()) << '>' << node(h.GetDestination())
    << " ipbytes=" << h.GetPayloadSize() + h.GetSerializedSize() << " ipid=" << h.GetIdentification();
  return o.str();
}

std::string drop_reason(WifiMacDropReason r) {
  switch (r) {
    case WIFI_MAC_DROP_FAILED_ENQUEUE: return "queue_full";
    case WIFI_MAC_DROP_EXPIRED_LIFETIME: return "lifetime";
    case WIFI_MAC_DROP_REACHED_RETRY_LIMIT: return "retry_limit";
    case WIFI_MAC_DROP_QOS_OLD_PACKET: return "qos_old";
  }
  return "other";
}

// NewReno with ssthresh from RFC 5681's FlightSize, as wmnsim's default
// (tcp.ssthresh_from "flight_size", docs/transport.md): ns-3 hands GetSsThresh its
// BytesInFlight (RFC 6675's pipe) and NewReno halves that. FlightSize is the highest
// byte sent less SND.UNA; when recovery begins, less the segments limited transmit
// sent (RFC 5681 3.2 step 2), which this class takes as a fixed count: 2 whenever
// limited transmit is on, exact where the window lets limited transmit send both
// (docs/validation.md). ns-3 also calls GetSsThresh at a timeout, where wmnsim (RFC
// 5681 3.1) halves the whole FlightSize: TcpSocketBase::EnterRecovery announces
// CA_RECOVERY (CongestionStateSet) before it asks for ssthresh, a timeout announces
// CA_LOSS only after, so the segments are left out only after CA_RECOVERY (checked
// with WMNSIM_NS3_DEBUG_SSTHRESH set, which prints every call: in the flagship's seed
// 1, 21 recoveries leave 2 segments out and its 2 timeouts none).
class TcpNewRenoFlightSize : public TcpNewReno {
 public:
  static TypeId GetTypeId() {
    static TypeId tid =
        TypeId("ns3::TcpNewRenoFlightSize")
            .SetParent<TcpNewReno>()
            .SetGroupName("Internet")
            .AddConstructor<TcpNewRenoFlightSize>()
            .AddAttribute("LimitedTransmitSegments", "segments left out of FlightSize", UintegerValue(0),
                          MakeUintegerAccessor(&TcpNewRenoFlightSize::limited_transmit_segments_),
                          MakeUintegerChecker<uint32_t>());
    return tid;
  }
  TcpNewRenoFlightSize() = default;
  TcpNewRenoFlightSize(const TcpNewRenoFlightSize& other) = default;
  std::string GetName() const override { return "TcpNewRenoFlightSize"; }
  void CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t state) override {
    entering_recovery_ = state == TcpSocketState::CA_RECOVERY;
    TcpNewReno::CongestionStateSet(tcb, state);
  }
  uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t /*bytes_in_flight: the pipe*/) override {
    const int64_t sent_beyond_una = tcb->m_highTxMark.Get() - tcb->m_lastAckedSeq;  // wraps as sequence numbers
    const int64_t left_out = entering_recovery_ ? int64_t{limited_transmit_segments_} * tcb->m_segmentSize : 0;
    entering_recovery_ = false;
    const int64_t flight = std::max<int64_t>(0, sent_beyond_una - left_out);
    if (std::getenv("WMNSIM_NS3_DEBUG_SSTHRESH") != nullptr) {
      std::fprintf(stderr, "%.6f ssthresh left_out=%lld flight=%lld\n", Simulator::Now().GetSeconds(),
                   static_cast<long long>(left_out), static_cast<long long>(sent_beyond_una));
    }
    return std::max<uint32_t>(2 * tcb->m_segmentSize, static_cast<uint32_t>(flight / 2));
  }
  Ptr<TcpCongestionOps> Fork() override { return CopyObject<TcpNewRenoFlightSize>(this); }

 private:
  uint32_t limited_transmit_segments_ = 0;
  bool entering_recovery_ = false;  // CA_RECOVERY announced, ssthresh not yet asked for
};
NS_OBJECT_ENSURE_REGISTERED(TcpNewRenoFlightSize);

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path, trace_path;
  CommandLine cmd(__FILE__);
  cmd.AddValue("spec", "the spec file written by run_ns3.py", spec_path);
  cmd.AddValue("trace", "write the run's MAC/PHY and TCP events here", trace_path);
  bool queue_trace = false;
  cmd.AddValue("queue-trace", "with --trace: also trace IP's packets, TcDrop and each node's DCF queue", queue_trace);
  bool phy_constants = false;
  cmd.AddValue("phy-constants", "print the 802.11b PHY's receiver constants as JSON and exit", phy_constants);
  cmd.Parse(argc, argv);
  if (phy_constants) {
    // What run_ns3.py's `receiver range` derivation rests on, read from ns-3 itself: one
    // 802.11b YansWifiPhy as the program builds it, its noise figure, channel width and
    // thresholds (their defaults: the program sets none of them under `receiver ns3`).
    NodeContainer one;
    one.Create(1);
    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211b);
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer d = wifi.Install(phy, mac, one);
    Ptr<WifiPhy> p = DynamicCast<WifiNetDevice>(d.Get(0))->GetPhy();
    DoubleValue ed, sens, cca;
    // RxNoiseFigure has a setter only: its initial value, which the program never changes.
    TypeId::AttributeInformation info;
    if (!WifiPhy::GetTypeId().LookupAttributeByName("RxNoiseFigure", &info)) throw std::runtime_error("RxNoiseFigure");
    const double nf = std::stod(info.initialValue->SerializeToString(info.checker));
    p->GetAttribute("CcaEdThreshold", ed);
    p->GetAttribute("RxSensitivity", sens);
    p->GetAttribute("CcaSensitivity", cca);
    std::cout << std::setprecision(10) << "{\"rx_noise_figure_db\": " << nf
              << ", \"channel_width_mhz\": " << static_cast<double>(p->GetChannelWidth())
              << ", \"cca_ed_threshold_dbm\": " << ed.Get() << ", \"rx_sensitivity_dbm\": " << sens.Get()
              << ", \"cca_sensitivity_dbm\": " << cca.Get() << "}\n";
    Simulator::Destroy();
    return 0;
  }
  if (queue_trace && trace_path.empty()) throw std::runtime_error("--queue-trace needs --trace");
  const Spec s = read_spec(spec_path);
  const auto wall_start = std::chrono::steady_clock::now();

  RngSeedManager::SetSeed(1);
  RngSeedManager::SetRun(s.seed);

  // The only queue is the MAC's (wmnsim has one per access function): see the
  // TrafficControlHelper::Uninstall below. Its size is the scenario's when it sets one.
  if (s.queue_packets > 0) {
    Config::SetDefault("ns3::WifiMacQueue::MaxSize", QueueSizeValue(QueueSize(std::to_string(s.queue_packets) + "p")));
  }
  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
  if (s.segment_size > 0) Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(s.segment_size));
  for (const auto& [attribute, value] : s.tcp) Config::SetDefault(attribute, StringValue(value));

  const std::size_t n = s.node_ids.size();
  std::map<std::string, uint32_t> index;
  for (std::size_t i = 0; i < n; ++i) index[s.node_ids[i]] = static_cast<uint32_t>(i);
  NodeContainer nodes;
  nodes.Create(n);

  MobilityHelper mobility;
  auto positions = CreateObject<ListPositionAllocator>();
  for (const auto& [x, y] : s.positions) positions->Add(Vector(x, y, 0.0));
  mobility.SetPositionAllocator(positions);
  mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mobility.Install(nodes);

  YansWifiChannelHelper channel;
  channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
  if (s.propagation.at(0) == "range") {
    // wmnsim's range model has no powers; Friis gives each signal within the range
    // its free-space power, and nothing arrives beyond it.
    channel.AddPropagationLoss("ns3::FriisPropagationLossModel", "Frequency", DoubleValue(s.frequency_hz));
    channel.AddPropagationLoss("ns3::RangePropagationLossModel", "MaxRange", DoubleValue(std::stod(s.propagation.at(1))));
  } else if (s.propagation.at(0) == "log_distance") {
    channel.AddPropagationLoss("ns3::LogDistancePropagationLossModel", "Exponent",
                               DoubleValue(std::stod(s.propagation.at(1))), "ReferenceDistance",
                               DoubleValue(std::stod(s.propagation.at(2))), "ReferenceLoss",
                               DoubleValue(std::stod(s.propagation.at(3))));
  } else {
    throw std::runtime_error("propagation " + s.propagation.at(0) + " has no ns-3 counterpart here");
  }
  YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  phy.Set("TxPowerStart", DoubleValue(s.tx_power_dbm));
  phy.Set("TxPowerEnd", DoubleValue(s.tx_power_dbm));
  if (s.receiver == "range") {
    if (s.propagation.at(0) != "range") throw std::runtime_error("receiver range needs propagation range");
    // wmnsim's range model (docs/phy.md), with every signal cut at cs_range_m by the
    // propagation above. Decoded within rx_range_m: a preamble is detected at or above the
    // SNR of a lone frame from rx_range_m (ThresholdPreambleDetectionModel's Threshold; its
    // MinimumRssi, -82 dBm, stays: every signal that arrives is stronger). Destroyed by any
    // frame that overlaps it: the same threshold for a frame that begins while another is on
    // the air (its SINR), RangeOverlapErrorModel (below, per device) for one that begins
    // during the reception. Sensed within cs_range_m: CCA's energy detection a little below
    // the power from cs_range_m. Both numbers come from run_ns3.py.
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel", "Threshold",
                                  DoubleValue(s.receiver_snr_db));
    phy.Set("CcaEdThreshold", DoubleValue(s.receiver_ed_dbm));
  }

  WifiHelper wifi;
  wifi.SetStandard(WIFI_STANDARD_80211b);
  uint64_t rts = 4692480;  // ns-3's default: never
  if (!s.rts_threshold.empty() && s.rts_threshold != "off") rts = std::stoull(s.rts_threshold);
  wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", StringValue(dsss_mode(s.data_rate)),
                               "ControlMode", StringValue(dsss_mode(s.basic_rate)), "RtsCtsThreshold",
                               UintegerValue(rts));
  WifiMacHelper mac;
  mac.SetType("ns3::AdhocWifiMac");
  if (s.retry_limit > 0) mac.SetType("ns3::AdhocWifiMac", "FrameRetryLimit", UintegerValue(s.retry_limit));
  if (s.cw_min > 0) {
    // ns-3's MinCw is the standard's aCWmin (a window of 32 slots is [0, 31]).
    mac.SetDcf("MinCws", StringValue(std::to_string(s.cw_min - 1)), "MaxCws", StringValue(std::to_string(s.cw_max - 1)));
  }
  NetDeviceContainer devices = wifi.Install(phy, mac, nodes);

  // 000 Table 3 and wmnsim: the basic rate set is {1, 2} Mbit/s, so an ACK answers an
  // 11 Mbit/s DATA frame at 2 Mbit/s (802.11-2012 9.7.6.5.2). ns-3's ad hoc MAC adds
  // every mandatory mode of the PHY to the basic set when it first sends to a station
  // (AddAllSupportedModes), HR/DSSS 5.5 and 11 included, so its ACK would go at
  // 11 Mbit/s. Each manager therefore gets its basic set from the scenario's basic rate
  // and knows every peer (all four rates supported) before the run, so nothing is added.
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto dev = DynamicCast<WifiNetDevice>(devices.Get(i));
    Ptr<WifiRemoteStationManager> manager = dev->GetRemoteStationManager();
    manager->Reset();
    for (uint64_t rate : {1000000ULL, 2000000ULL, 5500000ULL, 11000000ULL}) {
      if (rate <= s.basic_rate) manager->AddBasicMode(WifiMode(dsss_mode(rate)));
    }
    for (uint32_t j = 0; j < devices.GetN(); ++j) {
      if (j == i) continue;
      const Mac48Address peer = Mac48Address::ConvertFrom(devices.Get(j)->GetAddress());
      for (uint64_t rate : {1000000ULL, 2000000ULL, 5500000ULL, 11000000ULL}) {
        manager->AddSupportedMode(peer, WifiMode(dsss_mode(rate)));
      }
      manager->RecordGotAssocTxOk(peer);
    }
  }

  std::vector<Ptr<RangeOverlapErrorModel>> overlap_models;
  if (s.receiver == "range") {
    for (uint32_t i = 0; i < devices.GetN(); ++i) {
      Ptr<WifiPhy> p = DynamicCast<WifiNetDevice>(devices.Get(i))->GetPhy();
      auto model = CreateObject<RangeOverlapErrorModel>();
      p->TraceConnectWithoutContext("PhyRxBegin", MakeCallback(&RangeOverlapErrorModel::RxBegin, model));
      p->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&RangeOverlapErrorModel::RxDrop, model));
      p->SetPostReceptionErrorModel(model);
      overlap_models.push_back(model);
    }
  }

  for (const auto& [id, cw] : s.node_cw_min) {
    auto dev = DynamicCast<WifiNetDevice>(devices.Get(index.at(id)));
    dev->GetMac()->GetTxop()->SetMinCws({static_cast<uint32_t>(cw - 1)});
  }

  InternetStackHelper internet;
  Ipv4StaticRoutingHelper static_routing;
  internet.SetRoutingHelper(static_routing);
  internet.Install(nodes);
  Ipv4AddressHelper addresses;
  addresses.SetBase("10.0.0.0", "255.255.0.0");
  Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
  TrafficControlHelper tc;
  tc.Uninstall(devices);
  auto address_of = [&](const std::string& id) { return interfaces.GetAddress(index.at(id)); };
  for (const RouteSpec& r : s.routes) {
    Ptr<Ipv4> ipv4 = nodes.Get(index.at(r.node))->GetObject<Ipv4>();
    static_routing.GetStaticRouting(ipv4)->AddHostRouteTo(address_of(r.dst), address_of(r.next_hop), 1);
  }
  NeighborCacheHelper neighbours;
  neighbours.PopulateNeighborCache();

  std::vector<Ptr<PacketSink>> sinks;
  uint16_t port = 5000;
  for (const FlowSpec& f : s.flows) {
    ++port;
    const Address sink_address = InetSocketAddress(address_of(f.dst), port);
    const std::string factory = f.transport == "tcp" ? "ns3::TcpSocketFactory" : "ns3::UdpSocketFactory";
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink_app = sink.Install(nodes.Get(index.at(f.dst)));
    sink_app.Start(Seconds(0));
    sinks.push_back(DynamicCast<PacketSink>(sink_app.Get(0)));
    ApplicationContainer source;
    if (f.transport == "tcp") {
      if (f.traffic != "saturated") throw std::runtime_error("flow " + f.id + ": only saturated TCP");
      BulkSendHelper bulk(factory, sink_address);
      bulk.SetAttribute("SendSize", UintegerValue(f.payload));
      source = bulk.Install(nodes.Get(index.at(f.src)));
    } else {
      OnOffHelper onoff(factory, sink_address);
      onoff.SetAttribute("PacketSize", UintegerValue(f.payload));
      onoff.SetAttribute("OnTime", StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
      onoff.SetAttribute("OffTime", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
      // Saturated: offered above the channel's rate, so the source's MAC queue never empties.
      const double rate = f.traffic == "cbr" ? f.rate_bps : 2.0 * static_cast<double>(s.data_rate);
      onoff.SetAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(rate))));
      source = onoff.Install(nodes.Get(index.at(f.src)));
    }
    source.Start(Seconds(0));
  }

  if (!trace_path.empty()) {
    g_trace.open(trace_path);
    for (uint32_t i = 0; i < devices.GetN(); ++i) {
      auto dev = DynamicCast<WifiNetDevice>(devices.Get(i));
      const std::string node = s.node_ids[i];
      g_devices[node] = dev;
      // Each RTS and DATA frame with the MPDU it is for (seq, ns-3's retry count for it).
      dev->GetPhy()->TraceConnectWithoutContext(
          "PhyTxBegin", MakeCallback(+[](std::string who, Ptr<const Packet> p, double) {
                          const std::string kind = frame_kind(p);
                          const bool mpdu = kind.rfind("RTS", 0) == 0 || kind.rfind("DATA", 0) == 0;
                          trace_line(who + " tx " + kind + (mpdu ? head_mpdu(who) : ""));
                        }).Bind(node));
      // The PHY state helper's RxOk and RxError: a payload received or lost (PhyRxEnd,
      // traced here before, fires for both). A frame lost before its payload (preamble,
      // header, a reception aborted) is an rx_drop line below.
      if (!dev->GetPhy()->GetState()->TraceConnectWithoutContext(
              "RxOk", MakeCallback(+[](std::string who, Ptr<const Packet> p, double snr, WifiMode, WifiPreamble) {
                        std::ostringstream o;
                        o << who << " rx_ok " << frame_kind(p) << " snr_db=" << std::fixed << std::setprecision(3)
                          << 10.0 * std::log10(snr);
                        trace_line(o.str());
                      }).Bind(node)) ||
          !dev->GetPhy()->GetState()->TraceConnectWithoutContext(
              "RxError", MakeCallback(+[](std::string who, Ptr<const Packet> p, double snr) {
                           std::ostringstream o;
                           o << who << " rx_fail " << frame_kind(p) << " snr_db=" << std::fixed << std::setprecision(3)
                             << 10.0 * std::log10(snr);
                           trace_line(o.str());
                         }).Bind(node))) {
        throw std::runtime_error("no RxOk/RxError trace source");
      }
      dev->GetPhy()->TraceConnectWithoutContext(
          "PhyRxDrop", MakeCallback(+[](std::string who, Ptr<const Packet> p, WifiPhyRxfailureReason r) {
                         std::ostringstream o;
                         o << who << " rx_drop " << r << ' ' << frame_kind(p);
                         trace_line(o.str());
                       }).Bind(node));
      dev->GetMac()->TraceConnectWithoutContext(
          "DroppedMpdu", MakeCallback(+[](std::string who, WifiMacDropReason r, Ptr<const WifiMpdu> m) {
                           // reason=N is WifiMacDropReason's value (ns3_trace_counts reads it).
                           std::ostringstream o;
                           o << who << " mac_drop reason=" << static_cast<int>(r) << ' ' << drop_reason(r)
                             << " seq=" << m->GetHeader().GetSequenceNumber() << " retries=" << m->GetRetryCount()
                             << " bytes=" << m->GetPacketSize();
                           trace_line(o.str());
                         }).Bind(node));
      // A packet the MAC refused before its queue (WifiMac's MacTxDrop).
      dev->GetMac()->TraceConnectWithoutContext(
          "MacTxDrop", MakeCallback(+[](std::string who, Ptr<const Packet> p) {
                         trace_line(who + " drop mac_tx_drop bytes=" + std::to_string(p->GetSize()));
                       }).Bind(node));
      // A full DCF queue. WifiNetDevice stops its device queue while the WifiMacQueue is
      // full (flow control), and with no queue disc (Uninstall above) the traffic control
      // layer drops the packet there, before the MAC: its "TcDrop" source, `drop queue_full`.
      // (DroppedMpdu above already carries the queue's lifetime drops, reason=1, and its
      // own refusals, reason=0, should a packet reach a full queue.)
      if (!nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
              "TcDrop", MakeCallback(+[](std::string who, Ptr<const Packet> p) {
                        trace_line(who + " drop queue_full bytes=" + std::to_string(p->GetSize()));
                      }).Bind(node))) {
        throw std::runtime_error("no TrafficControlLayer TcDrop trace source");
      }
      dev->GetMac()->GetTxop()->TraceConnectWithoutContext(
          "BackoffTrace", MakeCallback(+[](std::string who, uint32_t slots, uint8_t) {
                            trace_line(who + " backoff " + std::to_string(slots));
                          }).Bind(node));
      dev->GetMac()->GetTxop()->TraceConnectWithoutContext(
          "CwTrace", MakeCallback(+[](std::string who, uint32_t cw, uint8_t) {
                       trace_line(who + " cw " + std::to_string(cw));
                     }).Bind(node));
    }
  }

  if (queue_trace) {
    // How each node's DCF queue admits packets: which packet takes a place that frees in a
    // full queue (relay_admission.py, the UDP chain's relay).
    for (uint32_t i = 0; i < devices.GetN(); ++i) g_node_of_address[interfaces.GetAddress(i).Get()] = s.node_ids[i];
    for (uint32_t i = 0; i < devices.GetN(); ++i) {
      const std::string node = s.node_ids[i];
      Ptr<WifiMacQueue> queue = g_devices.at(node)->GetMac()->GetTxop()->GetWifiMacQueue();
      g_device_queues[node] = g_devices.at(node)->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
      // Every packet IP hands to the traffic-control layer, the node's own and those it
      // forwards (Ipv4L3Protocol's Tx, fired in SendRealOut), with the state it finds.
      bool connected = nodes.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
          "Tx", MakeCallback(+[](std::string who, Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                  trace_line(who + " ip_tx" + ip_packet(p, false) + queue_state(who));
                }).Bind(node));
      // The `drop queue_full` lines again, with the flow (a second TcDrop sink).
      connected = connected && nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
                                   "TcDrop", MakeCallback(+[](std::string who, Ptr<const Packet> p) {
                                               trace_line(who + " tc_drop" + ip_packet(p, false) + queue_state(who));
                                             }).Bind(node));
      // The queue's own sources (Queue<WifiMpdu>'s, WifiMacQueue's Expired). Dequeue fires on
      // every removal (Queue::DoDequeue, Queue::DoRemove): after the ACK
      // (FrameExchangeManager::ReceivedNormalAck -> DequeueMpdu -> WifiMacQueue::DequeueIfQueued),
      // at the retry limit (NormalAckTimeout, after DroppedMpdu) and at an expiry
      // (WifiMacQueue::TtlExceeded/WipeAllExpiredMpdus -> DoRemove, followed by
      // DropAfterDequeue). queued= is the length after the change.
      for (const auto& [source, name] : {std::pair{"Enqueue", "q_enqueue"}, std::pair{"Dequeue", "q_dequeue"},
                                         std::pair{"DropAfterDequeue", "q_drop_after_dequeue"},
                                         std::pair{"DropBeforeEnqueue", "q_drop_before_enqueue"},
                                         std::pair{"Expired", "q_expired"}}) {
        connected = connected && queue->TraceConnectWithoutContext(
                                     source, MakeCallback(+[](std::string who, std::string what, Ptr<const WifiMpdu> m) {
                                               std::ostringstream o;
                                               o << who << ' ' << what;
                                               if (m->GetHeader().IsData()) {
                                                 o << ip_packet(m->GetPacket(), true)
                                                   << " seq=" << m->GetHeader().GetSequenceNumber()
                                                   << " retries=" << m->GetRetryCount()
                                                   << " inflight=" << (m->IsInFlight() ? 1 : 0);
                                               }
                                               trace_line(o.str() + queue_state(who));
                                             }).Bind(node, std::string(name)));
      }
      // NetDeviceQueue's Wake has no trace source: the state once the removal's ScheduleNow
      // (PacketDequeued's, connected by WifiHelper::Install before this one, so run first) has run.
      connected = connected && queue->TraceConnectWithoutContext(
                                   "Dequeue", MakeCallback(+[](std::string who, Ptr<const WifiMpdu>) {
                                                Simulator::ScheduleNow([who]() {
                                                  trace_line(who + " q_after_dequeue" + queue_state(who));
                                                });
                                              }).Bind(node));
      if (!connected) throw std::runtime_error("--queue-trace: a trace source is missing");
    }
  }

  if (!trace_path.empty()) {
    // TCP: each source's congestion state (CA_LOSS after a timeout, CA_RECOVERY in
    // fast recovery) and window, once the sockets exist (the applications start at 0).
    Simulator::Schedule(MilliSeconds(1), [&s, &index]() {
      for (const FlowSpec& f : s.flows) {
        if (f.transport != "tcp") continue;
        const std::string base = "/NodeList/" + std::to_string(index.at(f.src)) + "/$ns3::TcpL4Protocol/SocketList/*/";
        Config::ConnectWithoutContextFailSafe(
            base + "CongState",
            MakeCallback(+[](std::string flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
              trace_line(flow + " tcp_state " + TcpSocketState::TcpCongStateName[now]);
            }).Bind(f.id));
        Config::ConnectWithoutContextFailSafe(
            base + "CongestionWindow", MakeCallback(+[](std::string flow, uint32_t, uint32_t cwnd) {
                                         trace_line(flow + " cwnd " + std::to_string(cwnd));
                                       }).Bind(f.id));
      }
    });
  }

  std::vector<uint64_t> at_warmup(s.flows.size(), 0);
  if (s.warmup > 0) {
    Simulator::Schedule(Seconds(s.warmup), [&]() {
      for (std::size_t i = 0; i < sinks.size(); ++i) at_warmup[i] = sinks[i]->GetTotalRx();
    });
  }
  Simulator::Stop(Seconds(s.duration));
  Simulator::Run();

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::cout << std::setprecision(10) << "{\"simulator\": \"ns-3.44\", \"seed\": " << s.seed
            << ", \"duration_s\": " << s.duration << ", \"wall_clock_s\": " << wall << ", \"flows\": [";
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const uint64_t bytes = sinks[i]->GetTotalRx() - at_warmup[i];
    std::cout << (i ? ", " : "") << "{\"id\": \"" << s.flows[i].id << "\", \"bytes\": " << bytes
              << ", \"goodput_bps\": " << static_cast<double>(bytes) * 8.0 / (s.duration - s.warmup) << "}";
  }
  std::cout << "]";
  if (s.receiver == "range") {
    uint64_t destroyed = 0;
    for (const auto& m : overlap_models) destroyed += m->destroyed();
    std::cout << ", \"receiver\": \"range\", \"receptions_destroyed_by_overlap\": " << destroyed;
  }
  std::cout << "}\n";
  Simulator::Destroy();
  return 0;
}
