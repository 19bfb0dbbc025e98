#include "runner/one_hop_capacity.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/node.hpp"
#include "core/simulation.hpp"
#include "runner/network.hpp"

namespace wmnsim {

namespace {

// The scenario's own entry of node `index` (from "nodes"), or a bare one.
nlohmann::json node_entry(const Scenario& s, std::size_t index) {
  const NodeConfig& n = s.nodes.at(index);
  if (!n.from_group && s.document.contains("nodes")) {
    nlohmann::json e = s.document["nodes"].at(n.entry);
    e.erase("role");
    return e;
  }
  return nlohmann::json::object();
}

// The bytes of the TCP ACKs delivered to the station in the window.
class AckCounter final : public NodeSubscriber {
 public:
  AckCounter(const Simulation& sim, transport::MeasurementWindow window) : sim_(sim), window_(window) {}
  void on_delivered(std::uint32_t /*node*/, Packet& packet, const PrevHop& /*from*/) override {
    if (packet.transport.is_pure_ack() && window_.contains(sim_.now())) bytes_ += packet.size_bytes;
  }
  double rate_bps() const { return window_.rate_bps(bytes_); }

 private:
  const Simulation& sim_;
  transport::MeasurementWindow window_;
  std::uint64_t bytes_ = 0;
};

}  // namespace

nlohmann::json one_hop_scenario(const Scenario& s, std::optional<double> data_rate_bps) {
  // The node whose links are measured: the gateway's (001's streams end there).
  std::optional<std::size_t> centre;
  for (std::size_t i = 0; i < s.nodes.size() && !centre; ++i) {
    if (s.nodes[i].role == NodeRole::gateway) centre = i;
  }
  for (std::size_t i = 0; i < s.nodes.size() && !centre; ++i) {
    if (s.nodes[i].position) centre = i;
  }
  if (!centre) throw std::invalid_argument("one-hop capacity: the scenario has no node with a radio");
  if (s.flows.empty()) throw std::invalid_argument("one-hop capacity: the scenario has no flow to measure with");
  const Position at = *s.nodes[*centre].position;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    if (i == *centre || !s.nodes[i].position) continue;
    const Position p = *s.nodes[i].position;
    nearest = std::min(nearest, std::hypot(p.x_m - at.x_m, p.y_m - at.y_m, p.z_m - at.z_m));
  }
  if (!std::isfinite(nearest) || nearest <= 0.0) nearest = 1.0;  // one node: any short hop

  // The flow Bianchi's B is for: the smallest payload, the first such.
  std::size_t flow = 0;
  for (std::size_t i = 1; i < s.flows.size(); ++i) {
    if (s.flows[i].payload_bytes < s.flows[flow].payload_bytes) flow = i;
  }

  nlohmann::json doc = nlohmann::json::object();
  for (const char* key : {"compat", "phy", "propagation", "mac"}) {
    if (s.document.contains(key)) doc[key] = s.document[key];
  }
  if (data_rate_bps) doc["phy"]["data_rate_bps"] = *data_rate_bps;  // one link rate of an "auto" network
  doc["name"] = (s.name.empty() ? std::string("scenario") : s.name) + "_one_hop";
  doc["description"] =
      "B measured (runner/one_hop_capacity.hpp, 001 App. A.2): one station and its access point on the PHY and "
      "MAC of " + doc["name"].get<std::string>() + ", one saturated flow";
  doc["simulation"] = {{"duration_s", (kOneHopWarmup + kOneHopMeasured).to_seconds()},
                       {"warmup_s", kOneHopWarmup.to_seconds()},
                       {"seed", kOneHopSeed}};
  nlohmann::json ap = node_entry(s, *centre);
  ap["id"] = "ap";
  ap["role"] = "gateway";
  ap["position_m"] = {0.0, 0.0};
  nlohmann::json sta = node_entry(s, *centre);
  sta["id"] = "sta";
  sta["position_m"] = {nearest, 0.0};
  doc["nodes"] = {ap, sta};
  nlohmann::json f = s.document.contains("flows") && flow < s.document["flows"].size()
                         ? s.document["flows"][flow]
                         : nlohmann::json{{"transport", s.flows[flow].transport_name},
                                          {"payload_bytes", s.flows[flow].payload_bytes}};
  f["id"] = "one_hop";
  f["src"] = "sta";
  f["dst"] = "ap";
  for (const char* key : {"start_s", "stop_s", "fair_share_bps"}) f.erase(key);
  if (f.contains("traffic")) f["traffic"] = {{"type", "saturated"}};
  doc["flows"] = {f};
  return doc;
}

OneHopThroughput measure_one_hop(const Scenario& scenario, const Registries& registries,
                                 std::optional<double> data_rate_bps) {
  // As run_scenario runs it (the same events: a subscriber adds none), with the
  // station's deliveries counted.
  const Scenario one_hop = parse_scenario(one_hop_scenario(scenario, data_rate_bps), registries);
  Simulation sim(one_hop.simulation.seed, one_hop.name, spdlog::level::off);
  Network net(sim, one_hop, registries.controllers);
  AckCounter acks(sim, net.window());
  net.node(1).subscribe(acks);  // "sta"
  sim.run_until(one_hop.simulation.duration);
  net.node(1).unsubscribe(acks);
  return {net.flow(0).goodput_bps(), acks.rate_bps()};
}

double measure_mac_capacity_bps(const Scenario& scenario, MeasuredBCounts counts) {
  return measure_mac_capacity_bps(scenario, Registries{}, counts);
}

double measure_mac_capacity_bps(const Scenario& scenario, const Registries& registries, MeasuredBCounts counts) {
  return measure_one_hop(scenario, registries).b(counts);
}

}  // namespace wmnsim
