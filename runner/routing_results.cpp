#include "runner/routing_results.hpp"

#include <algorithm>

namespace wmnsim {

namespace {

// One node's (or the network's) AODV figures, the keys docs/results.md lists.
// `r` may hold keys already (a node's id).
nlohmann::ordered_json row(const aodv::AodvStats& s, nlohmann::ordered_json r = nlohmann::ordered_json::object()) {
  r["control_frames_sent"] = s.sent_frames_total();
  r["control_bytes_sent"] = s.sent_bytes_total();
  r["rreq_frames"] = s.sent_frames[0];
  r["rrep_frames"] = s.sent_frames[1];
  r["rerr_frames"] = s.sent_frames[2];
  r["hello_frames"] = s.sent_frames[3];
  r["rreq_bytes"] = s.sent_bytes[0];
  r["rrep_bytes"] = s.sent_bytes[1];
  r["rerr_bytes"] = s.sent_bytes[2];
  r["hello_bytes"] = s.sent_bytes[3];
  r["control_received"] = s.received;
  r["control_dropped"] = s.control_dropped;
  r["discoveries"] = s.discoveries;
  r["discoveries_found"] = s.discoveries_found;
  r["discoveries_failed"] = s.discoveries_failed;
  r["rreq_attempts"] = s.rreq_attempts;
  r["discovery_latency_mean_s"] =
      s.discoveries_found == 0 ? 0.0 : s.discovery_latency_sum_s / static_cast<double>(s.discoveries_found);
  r["discovery_latency_max_s"] = s.discovery_latency_max_s;
  r["link_failures"] = s.link_failures;
  r["route_breaks"] = s.route_breaks;
  r["held_packets"] = s.held;
  nlohmann::ordered_json drops;
  for (std::size_t i = 0; i < aodv::kDataDropCount; ++i) {
    drops[std::string(aodv::to_string(static_cast<aodv::DataDrop>(i)))] = s.data_drops[i];
  }
  r["data_drops"] = std::move(drops);
  return r;
}

}  // namespace

nlohmann::ordered_json aodv_results(const Scenario& scenario, const aodv::Aodv& agent) {
  aodv::AodvStats total;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (std::uint32_t i = 0; i < scenario.nodes.size(); ++i) {
    const aodv::AodvStats& s = agent.stats(i);
    for (std::size_t k = 0; k < s.sent_frames.size(); ++k) {
      total.sent_frames[k] += s.sent_frames[k];
      total.sent_bytes[k] += s.sent_bytes[k];
    }
    total.received += s.received;
    total.control_dropped += s.control_dropped;
    total.discoveries += s.discoveries;
    total.discoveries_found += s.discoveries_found;
    total.discoveries_failed += s.discoveries_failed;
    total.rreq_attempts += s.rreq_attempts;
    total.discovery_latency_sum_s += s.discovery_latency_sum_s;
    total.discovery_latency_max_s = std::max(total.discovery_latency_max_s, s.discovery_latency_max_s);
    total.link_failures += s.link_failures;
    total.route_breaks += s.route_breaks;
    total.held += s.held;
    for (std::size_t k = 0; k < aodv::kDataDropCount; ++k) total.data_drops[k] += s.data_drops[k];
    nlohmann::ordered_json id;
    id["node"] = scenario.nodes[i].id;
    nodes.push_back(row(s, std::move(id)));
  }
  nlohmann::ordered_json out;
  out["type"] = "aodv";
  out["total"] = row(total);
  out["nodes"] = std::move(nodes);
  return out;
}

}  // namespace wmnsim
