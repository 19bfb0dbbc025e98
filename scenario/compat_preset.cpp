#include "scenario/compat_preset.hpp"

#include <cmath>
#include <sstream>

namespace wmnsim {

namespace {

using json = nlohmann::json;

const json* find(const json& doc, const json::json_pointer& p) {
  return doc.contains(p) ? &doc.at(p) : nullptr;
}

std::string string_at(const json& doc, const char* pointer, const std::string& fallback) {
  const json* v = find(doc, json::json_pointer(pointer));
  return v != nullptr && v->is_string() ? v->get<std::string>() : fallback;
}

// The reception model the loader will choose: "sinr" unless set, "threshold" under the
// range propagation model (docs/scenario.md, phy.reception.model).
bool receives_by_sinr(const json& doc) {
  const std::string propagation = string_at(doc, "/propagation/model", "");
  const std::string fallback = propagation == "range" ? "threshold" : "sinr";
  return string_at(doc, "/phy/reception/model", fallback) == "sinr";
}

std::optional<json> when_sinr(const json& doc, json value) {
  if (!receives_by_sinr(doc)) return std::nullopt;
  return value;
}

bool is_tcp(const json& flow) { return flow.is_object() && flow.value("transport", json()) == "tcp"; }

std::optional<json> for_tcp(const json& flow, json value) {
  if (!is_tcp(flow)) return std::nullopt;
  return value;
}

// ns-3 3.44 measures a PPDU's SNR over PhyEntity::GetRxChannelWidth: the TXVECTOR's
// width for OFDM (20 MHz here), and for DSSS 20 MHz too, by DsssPhy::GetRxChannelWidth's
// workaround whenever the PHY's channel is wider than 20 MHz, as 802.11b's 22 MHz is. Its
// thermal noise is k T B at 290 K over that width, raised by the noise figure. Seen in
// ns-3's own trace: a lone frame from 200 m at 23 dBm shows 30.76 dB, the 20 MHz figure
// (30.35 over 22 MHz), and is detected with the detection threshold at 30.55 dB
// (validation/ns3/run_ns3.py, NS3_DSSS_SNR_WIDTH_HZ).
double ns3_noise_dbm() {
  constexpr double kBoltzmann = 1.3803e-23;  // J/K, as ns-3 writes it
  constexpr double kNoiseFigureDb = 7.0;     // ns3::WifiPhy::RxNoiseFigure
  constexpr double kMeasurementWidthHz = 20e6;
  const double dbm = 10.0 * std::log10(kBoltzmann * 290.0 * kMeasurementWidthHz) + 30.0 + kNoiseFigureDb;
  return std::round(dbm * 100.0) / 100.0;
}

// YansWifiChannel::Receive (ns-3 3.44) delivers nothing below WifiPhy::RxSensitivity
// (-101 dBm) scaled by the PPDU's own width (WifiPpdu::GetTxChannelWidth, the TXVECTOR's:
// 22 MHz for DSSS and HR/DSSS, 20 MHz for OFDM) over 20 MHz: not even as interference.
// Unlike the noise, no workaround narrows the DSSS width here.
double ns3_signal_floor_dbm(const json& doc) {
  constexpr double kRxSensitivityDbm = -101.0;  // ns3::WifiPhy::RxSensitivity
  const double width_mhz = string_at(doc, "/phy/standard", "802.11b") == "802.11b" ? 22.0 : 20.0;
  const double dbm = kRxSensitivityDbm + 10.0 * std::log10(width_mhz / 20.0);
  return std::round(dbm * 100.0) / 100.0;
}

// Whether every queue the scenario sets up is drop_tail (the default discipline), the
// only one that counts a place held by a frame in service (mac.dequeue "ns3"): the
// scenario's MAC and every override (nodes', node groups' and their radios'), and no
// controller that installs its own discipline (the entries with replaces_queues,
// control/controller_entry.hpp; a test keeps this list equal to theirs).
bool only_drop_tail_queues(const json& doc) {
  const auto drop_tail = [](const json& owner) {
    const json* d = find(owner, json::json_pointer("/mac/queue/discipline"));
    return d == nullptr || *d == "drop_tail";
  };
  const auto all_drop_tail = [&](const json* list) {
    if (list == nullptr || !list->is_array()) return true;
    for (const json& item : *list) {
      if (!item.is_object() || !drop_tail(item)) return false;
      if (const json* radios = find(item, json::json_pointer("/radios")); radios != nullptr && radios->is_array()) {
        for (const json& radio : *radios) {
          if (radio.is_object() && !drop_tail(radio)) return false;
        }
      }
    }
    return true;
  };
  if (!drop_tail(doc) || !all_drop_tail(find(doc, json::json_pointer("/nodes"))) ||
      !all_drop_tail(find(doc, json::json_pointer("/node_groups")))) {
    return false;
  }
  if (const json* controllers = find(doc, json::json_pointer("/controllers")); controllers != nullptr && controllers->is_array()) {
    for (const json& c : *controllers) {
      const json* type = c.is_object() ? find(c, json::json_pointer("/type")) : nullptr;
      if (type != nullptr && type->is_string()) {
        for (const char* name : kControllersReplacingQueues) {
          if (*type == name) return false;
        }
      }
    }
  }
  return true;
}

std::vector<CompatSetting> make_ns3_settings() {
  auto always = [](json v) {
    return [v](const json&, const json&) -> std::optional<json> { return v; };
  };
  auto sinr_only = [](json v) {
    return [v](const json& doc, const json&) -> std::optional<json> { return when_sinr(doc, v); };
  };
  // The other retry limit's value when the scenario sets it, else ns-3's 7.
  auto same_retry_limit = [](const char* other) {
    return [other](const json& doc, const json&) -> std::optional<json> {
      if (const json* v = find(doc, json::json_pointer(other)); v != nullptr && v->is_number_integer()) return *v;
      return 7;
    };
  };
  auto tcp = [](json v) {
    return [v](const json&, const json& flow) -> std::optional<json> { return for_tcp(flow, v); };
  };
  return {
      // MAC (docs/mac.md)
      {"/mac/queue/capacity_packets",
       [](const json& doc, const json&) -> std::optional<json> {
         // One size only: a byte capacity already set is the scenario's choice.
         if (find(doc, json::json_pointer("/mac/queue/capacity_bytes")) != nullptr) return std::nullopt;
         return 500;
       },
       "500 (unless `capacity_bytes` is set)", "ns3::WifiMacQueue::MaxSize", "500p",
       "none: the queue is the implementation's (ns-3 also puts a traffic-control queue above it by "
       "default; the ns-3 programs remove it, docs/validation.md)"},
      {"/mac/queue_lifetime_s", always(0.5), "0.5", "ns3::WifiMacQueue::MaxDelay", "500 ms",
       "dot11MaxTransmitMSDULifetime (512 TU) bounds an MSDU's attempts, timed from its first transmission "
       "(`queue_lifetime_rule: \"standard\"`); ns-3 bounds the time from the entry into the queue"},
      // ns-3 has one limit: where the scenario sets one of the two, the other follows it.
      {"/mac/short_retry_limit", same_retry_limit("/mac/long_retry_limit"), "7 (or the long limit, when set)",
       "ns3::WifiMac::FrameRetryLimit", "7 (attempts of a frame, as wmnsim counts)",
       "dot11ShortRetryLimit 7 (802.11-2012 9.3.4.4)"},
      {"/mac/long_retry_limit", same_retry_limit("/mac/short_retry_limit"), "7 (or the short limit, when set)",
       "ns3::WifiMac::FrameRetryLimit", "7: ns-3 3.44 applies the one frame retry limit to every frame",
       "dot11LongRetryLimit 4 for frames longer than dot11RTSThreshold (802.11-2012 9.3.4.4)"},
      {"/mac/immediate_access", always("ns3"), "\"ns3\"",
       "ns3::ChannelAccessManager::NeedBackoffUponAccess (behaviour, no attribute)",
       "no backoff for a frame queued at the end of a received frame: sent DIFS after the station's own ACK",
       "a backoff unless the medium stays idle for DIFS from the frame's arrival (802.11-2012 9.3.4.2, "
       "9.3.4.3): `\"standard\"`"},
      {"/mac/cw_after_drop", always("ns3"), "\"ns3\"", "ns3::Txop::UpdateFailedCw (behaviour, no attribute)",
       "the window of the last failure is kept after a drop; the next failure with the station count at the "
       "limit resets it",
       "CW resets to CWmin when the retry count reaches its limit (802.11-2012 9.3.3): `\"reset\"`"},
      {"/mac/queue_lifetime_rule", always("ns3"), "\"ns3\"",
       "ns3::WifiMacQueue::MaxDelay (with Txop::NotifyChannelReleased; behaviour, no attribute)",
       "an MPDU stays queued between attempts: once expired it is dropped at its next channel access, which serves "
       "the next packet with the backoff and CW as they stand or, with no frame left, is lost to a new backoff "
       "from that CW",
       "dot11MaxTransmitMSDULifetime (512 TU) ends an MSDU's attempts, its timer started at the first attempt: "
       "`\"standard\"`; wmnsim's default, `\"when_taken\"`, checks the lifetime when a packet is taken and lets a frame taken "
       "finish its retries (docs/mac.md)"},
      {"/mac/retry_counts", always("ns3"), "\"ns3\"",
       "ns3::WifiMac::FrameRetryLimit (WifiMpdu::GetRetryCount; behaviour, no attribute)",
       "one retry count per MPDU, raised by every failed RTS and DATA frame, against the one limit; a CTS "
       "resets nothing",
       "the MPDU's short count (SRC) for failed RTS frames and long count (LRC) for failed DATA frames, each "
       "against its own limit (802.11-2012 9.3.4.4): `\"per_mpdu\"`; wmnsim's default, `\"reset_on_cts\"`, "
       "also restarts the short count at a CTS (9.3.3's SSRC reset, as ns-2)"},
      {"/mac/dequeue",
       [](const json& doc, const json&) -> std::optional<json> {
         if (!only_drop_tail_queues(doc)) return std::nullopt;
         return "ns3";
       },
       "\"ns3\" (with drop_tail queues only)", "ns3::WifiMacQueue (FrameExchangeManager::DequeueMpdu; behaviour, no attribute)",
       "an MPDU stays in the queue, counted against MaxSize, until it is acknowledged or dropped; the device "
       "queue, stopped at a full queue, wakes at each removal, and with no queue disc what arrives meanwhile is "
       "dropped",
       "none: the standard does not say when a frame leaves the station's queue; wmnsim's default, "
       "`\"at_access\"`, gives the place back when the MAC takes the packet at a channel access (docs/mac.md)"},
      {"/mac/deferral", always("ns3"), "\"ns3\"",
       "ns3::ChannelAccessManager::GetAccessGrantStart (behaviour, no attribute)",
       "EIFS - DIFS counted from the errored frame's end: a medium busy past that end + EIFS - DIFS costs DIFS "
       "alone, and a later busy period does not renew it",
       "the EIFS begins when the medium is next idle after the erroneous frame and is used until an "
       "error-free frame (802.11-2012 9.3.2.3.7): `\"standard\"`"},
      {"/mac/rts_threshold_bytes", always("off"), "\"off\"", "ns3::WifiRemoteStationManager::RtsCtsThreshold",
       "4692480 bytes (never, for these frames)", "dot11RTSThreshold (802.11-2012 9.3.2.6)"},
      // PHY under sinr reception (docs/phy.md)
      {"/phy/reception/preamble_detection_snr_db", sinr_only(4), "4 (sinr reception only)",
       "ns3::ThresholdPreambleDetectionModel::Threshold", "4 dB",
       "none: the standard specifies receivers by sensitivity and FER, not a detection SNR"},
      {"/phy/reception/preamble_detection", sinr_only("window"), "\"window\" (sinr reception only)",
       "ns3::WifiPhy::PreambleDetectionDuration (PhyEntity::EndPreambleDetectionPeriod)",
       "4 us: the strongest preamble that arrived in the window is judged at its end",
       "none: the standard specifies receivers by sensitivity and FER, not when a preamble is judged"},
      {"/phy/reception/signal_floor_dbm",
       [](const json& doc, const json&) -> std::optional<json> { return when_sinr(doc, ns3_signal_floor_dbm(doc)); },
       "-100.59 for 802.11b, -101 otherwise (sinr reception only)",
       "ns3::WifiPhy::RxSensitivity (YansWifiChannel::Receive drops what is below it)",
       "-101 dBm per 20 MHz of the PPDU's TXVECTOR width (22 MHz for DSSS): neither received nor "
       "interference",
       "none: no signal is below the floor of the air"},
      {"/phy/reception/rx_sensitivity_dbm", sinr_only(-82), "-82 (sinr reception only)",
       "ns3::ThresholdPreambleDetectionModel::MinimumRssi", "-82 dBm",
       "the receiver minimum input level (802.11-2012 clause 17, HR/DSSS: -76 dBm at 11 Mbit/s)"},
      {"/phy/noise_dbm",
       [](const json& doc, const json&) -> std::optional<json> { return when_sinr(doc, ns3_noise_dbm()); },
       "-93.97: k T B (290 K) over 20 MHz + 7 dB (sinr reception only)",
       "ns3::WifiPhy::RxNoiseFigure; the SNR's width: PhyEntity::GetRxChannelWidth (DsssPhy's: 20 MHz)",
       "7 dB over 20 MHz, for 802.11b too (its channel is 22 MHz wide)", "none"},
      // ns-3's DSSS error model reads that SINR over 22 MHz (Eb/N0 = 22 SINR at 1 Mbit/s,
      // DsssErrorRateModel), wmnsim's over the 11 MHz chip rate (docs/phy.md).
      {"/phy/reception/dsss_processing_gain", sinr_only("ns3"), "\"ns3\" (sinr reception only)",
       "ns3::DsssErrorRateModel (behaviour, no attribute)",
       "the DSSS and CCK error rates read the SINR over 22 MHz: Eb/N0 = 22 SINR at 1 Mbit/s",
       "none; the 11-chip Barker code (802.11-2012 clause 16) despreads by 11, 10.4 dB: "
       "`\"chip_rate\"`, Eb/N0 = 11 SINR at 1 Mbit/s"},
      // TCP, for each flow whose transport is tcp (docs/transport.md)
      {"/flows/*/tcp/delayed_ack", tcp(true), "true", "ns3::TcpSocket::DelAckCount, DelAckTimeout", "2, 200 ms",
       "an ACK for at least every second full-sized segment, within 500 ms (RFC 1122 4.2.3.2, RFC 5681 4.2)"},
      {"/flows/*/tcp/min_rto_s", tcp(1), "1", "ns3::TcpSocketBase::MinRto", "1 s",
       "RTO rounded up to 1 s when below (RFC 6298 2.4)"},
      {"/flows/*/tcp/initial_window_segments", tcp(10), "10", "ns3::TcpSocket::InitialCwnd", "10 segments",
       "at most 3 segments of 1460 bytes (RFC 5681 3.1; 10 is RFC 6928, experimental)"},
      {"/flows/*/tcp/limited_transmit", tcp(true), "true", "ns3::TcpSocketBase::LimitedTransmit", "true",
       "SHOULD (RFC 3042)"},
      {"/flows/*/tcp/timestamps", tcp(true), "true", "ns3::TcpSocketBase::Timestamp", "true",
       "optional (RFC 7323)"},
      {"/flows/*/tcp/sack", tcp(true), "true", "ns3::TcpSocketBase::Sack", "true",
       "optional (RFC 2018; loss recovery RFC 6675). ns-3 recovers with PRR (RFC 6937, "
       "ns3::TcpL4Protocol::RecoveryType), which wmnsim does not have"},
      // After the sack row: it reads the flow's sack as the preset left it.
      {"/flows/*/tcp/ssthresh_from",
       [](const json&, const json& flow) -> std::optional<json> {
         if (!is_tcp(flow) || !flow.contains("tcp") || !flow["tcp"].is_object()) return std::nullopt;
         if (flow["tcp"].value("sack", json()) != true) return std::nullopt;
         return "pipe";
       },
       "\"pipe\" (when sack is true)", "ns3::TcpSocketBase::EnterRecovery (behaviour, no attribute)",
       "ssthresh = max(2 MSS, BytesInFlight / 2) when recovery begins: the pipe, FlightSize less the SACKed "
       "and lost bytes",
       "ssthresh = FlightSize / 2, limited transmit's segments left out (RFC 5681 eq. 4, RFC 6675 4.2): "
       "`\"flight_size\"`"},
      {"/flows/*/tcp/window_packets",
       [](const json&, const json& flow) -> std::optional<json> {
         if (!is_tcp(flow)) return std::nullopt;
         const json payload = flow.value("payload_bytes", json(1460));
         if (!payload.is_number_integer() || payload.get<std::int64_t>() <= 0) return std::nullopt;
         return std::max<std::int64_t>(1, 131072 / payload.get<std::int64_t>());
       },
       "131072 / `payload_bytes` (89 for 1460)", "ns3::TcpSocket::RcvBufSize, SndBufSize", "131072 bytes",
       "the receive window is what the receiver can buffer (RFC 9293 3.8.6)"},
  };
}

void fill(json& doc, const std::string& pointer, const json& value) {
  const json::json_pointer p(pointer);
  if (doc.contains(p)) return;  // the scenario's own value wins
  // Never create a key under something that is not an object: the loader reports the
  // scenario's own mistake there, unchanged.
  json::json_pointer parent = p.parent_pointer();
  while (!parent.empty() && !doc.contains(parent)) parent = parent.parent_pointer();
  if (!doc.at(parent).is_object()) return;
  doc[p] = value;
}

}  // namespace

const std::vector<CompatSetting>& ns3_compat_settings() {
  static const std::vector<CompatSetting> settings = make_ns3_settings();
  return settings;
}

const std::vector<std::string>& compat_preset_names() {
  static const std::vector<std::string> names{"ns3"};
  return names;
}

json apply_compat_preset(const json& doc) {
  if (!doc.is_object() || doc.value("compat", json()) != "ns3") return doc;
  json out = doc;
  static const std::string kEachFlow = "/flows/*";
  for (const CompatSetting& s : ns3_compat_settings()) {
    if (s.pointer.rfind(kEachFlow, 0) == 0) {
      const json* flows = find(out, json::json_pointer("/flows"));
      if (flows == nullptr || !flows->is_array()) continue;
      for (std::size_t i = 0; i < flows->size(); ++i) {
        const json flow = (*flows)[i];
        if (!flow.is_object()) continue;
        if (const auto v = s.value(out, flow)) {
          fill(out, "/flows/" + std::to_string(i) + s.pointer.substr(kEachFlow.size()), *v);
        }
      }
    } else if (const auto v = s.value(out, json())) {
      fill(out, s.pointer, *v);
    }
  }
  return out;
}

std::string ns3_compat_table() {
  std::ostringstream o;
  o << "| key | preset value | ns-3 attribute | ns-3 3.44 default | the standard's rule |\n";
  o << "|---|---|---|---|---|\n";
  for (const CompatSetting& s : ns3_compat_settings()) {
    o << "| `" << s.pointer << "` | " << s.value_text << " | `" << s.ns3_attribute << "` | " << s.ns3_default
      << " | " << s.standard << " |\n";
  }
  return o.str();
}

}  // namespace wmnsim
