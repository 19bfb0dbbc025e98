#include "runner/network.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/not_supported.hpp"
#include "runner/network_links.hpp"
#include "scenario/transport_builder.hpp"

namespace wmnsim {

namespace {

// A saturated UDP source asked by its node for one more datagram.
class UdpBacklog final : public BacklogSource {
 public:
  explicit UdpBacklog(transport::UdpSource& source) : source_(source) {}
  void refill() override { source_.push_backlog(1); }

 private:
  transport::UdpSource& source_;
};

void reject_unsupported(const Scenario& scenario, const control::ControllerRegistry& registry) {
  for (std::size_t i = 0; i < scenario.controllers.size(); ++i) registry.require(scenario.controllers[i], i);
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) {
    if (scenario.flows[i].transport == Transport::wccp) {
      throw NotSupportedError("/flows/" + std::to_string(i) +
                              "/transport: wccp is not simulated yet; use \"tcp\" meanwhile");
    }
  }
}

// The PHY, once the scenario is known to ask only for what the layers simulate.
phy::PhyNetwork checked_phy(Simulation& sim, const Scenario& scenario,
                            const control::ControllerRegistry& registry) {
  reject_unsupported(scenario, registry);
  return phy::build_phy(sim, scenario);
}

}  // namespace

std::uint64_t FlowEndpoints::packets_sent() const {
  if (udp_source) return udp_source->stats().packets_sent;
  if (tcp_sender) return tcp_sender->stats().segments_sent;
  return 0;
}

std::uint64_t FlowEndpoints::payload_bytes_delivered() const {
  if (udp_sink) return udp_sink->stats().payload_bytes;
  if (tcp_receiver) return tcp_receiver->stats().delivered_bytes;
  return 0;
}

double FlowEndpoints::goodput_bps() const {
  if (udp_sink) return udp_sink->goodput_bps();
  if (tcp_receiver) return tcp_receiver->goodput_bps();
  return 0.0;
}

Network::Network(Simulation& sim, const Scenario& scenario, const control::ControllerRegistry& registry)
    : sim_(sim),
      scenario_(scenario),
      window_{scenario.simulation.warmup, scenario.simulation.duration},
      phy_(checked_phy(sim, scenario, registry)),
      routing_(compute_routing(scenario, routing_links(scenario, phy_))),
      ledger_(scenario.nodes.size(), scenario.flows.size(), window_.begin, window_.end) {
  build_nodes();
  build_wired_links();
  build_flows();
  build_controllers(registry);
}

Network::~Network() = default;

void Network::build_nodes() {
  const std::size_t n = scenario_.nodes.size();
  nodes_.reserve(n);
  std::vector<DropSink*> drops;
  for (std::size_t i = 0; i < n; ++i) {
    nodes_.push_back(std::make_unique<Node>(sim_.scheduler(), static_cast<std::uint32_t>(i), routing_.tables, ledger_));
    drops.push_back(nodes_.back().get());
  }
  macs_ = mac::build_macs(sim_, scenario_, phy_, pool_, drops);
  // Interfaces in the routing layer's order: radios first (runner/network_links.hpp).
  for (std::size_t i = 0; i < n; ++i) {
    for (mac::Mac* m : macs_.node_macs[i]) {
      // It adds itself to the node as its next interface.
      mac_interfaces_.push_back(std::make_unique<mac::MacInterface>(*m, *nodes_[i]));
    }
  }
}

void Network::build_wired_links() {
  // Then each node's wired links, in the order of Scenario::links.
  for (std::size_t k = 0; k < scenario_.links.size(); ++k) {
    const WiredLinkConfig& l = scenario_.links[k];
    for (const auto& [from, to] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      Node& near = *nodes_[from];
      Node& far = *nodes_[to];
      // The routing's numbering (runner/network_links.hpp) is the one that counts.
      if (near.interface_count() != wired_interface(scenario_, from, k)) {
        throw std::logic_error("wired link " + std::to_string(k) + ": interface numbering differs from the routing's");
      }
      // The far node receives on its own interface of this link, from this node.
      PacketSink& arrivals = far.arrivals(PrevHop{wired_interface(scenario_, to, k), static_cast<std::uint32_t>(from)});
      wired_links_.push_back(
          std::make_unique<WiredLink>(sim_.scheduler(), l.rate_bps, l.delay, l.queue, arrivals, near));
      wired_links_.back()->set_departure_listener(&near);
      wired_interfaces_.push_back(std::make_unique<WiredInterface>(*wired_links_.back()));
      near.add_interface(*wired_interfaces_.back());
    }
  }
}

void Network::build_flows() {
  const bool edca = scenario_.mac.type == MacType::edca;
  flows_.resize(scenario_.flows.size());
  for (std::size_t i = 0; i < scenario_.flows.size(); ++i) {
    FlowConfig f = scenario_.flows[i];
    // Nothing starts at the end instant: a flow is cut at the end of the simulation
    // (docs/scenario.md), so the run covers [0, duration).
    const Time end = scenario_.simulation.duration;
    f.stop = f.stop ? std::min(*f.stop, end) : end;
    const FlowEnds ends = routing_.flows.at(i);
    const transport::FlowAddress address{static_cast<std::uint32_t>(i), ends.src, ends.dst};
    Node& src = *nodes_.at(ends.src);
    Node& dst = *nodes_.at(ends.dst);
    FlowEndpoints& e = flows_[i];
    RandomStream arrivals = sim_.random().stream("flow", f.id, "arrivals");
    if (f.transport == Transport::udp) {
      transport::UdpSourceConfig c;
      c.address = address;
      c.payload_bytes = static_cast<std::uint32_t>(f.payload_bytes);
      c.traffic = f.traffic;
      c.start = f.start;
      c.stop = f.stop;
      c.initial_backlog = kSaturatedBacklog;
      if (edca) c.user_priority = user_priority_of(f.access_category);
      e.udp_source = std::make_unique<transport::UdpSource>(sim_.scheduler(), pool_, src, c, std::move(arrivals));
      e.udp_sink = std::make_unique<transport::UdpSink>(sim_.scheduler(), window_);
      dst.set_endpoint(address.flow, *e.udp_sink);
      if (e.udp_source->saturated()) {
        e.backlog = std::make_unique<UdpBacklog>(*e.udp_source);
        src.set_backlog_source(address.flow, *e.backlog, kSaturatedBacklog);
      }
    } else {  // tcp (wccp is rejected above)
      e.tcp_sender = std::make_unique<transport::TcpSender>(sim_.scheduler(), pool_, src,
                                                           transport::tcp_sender_config(f, address, edca));
      e.tcp_receiver = std::make_unique<transport::TcpReceiver>(
          sim_.scheduler(), pool_, dst, transport::tcp_receiver_config(f, address, window_, edca));
      src.set_endpoint(address.flow, *e.tcp_sender);
      dst.set_endpoint(address.flow, *e.tcp_receiver);
      if (f.traffic.type != TrafficType::saturated) {
        e.application = std::make_unique<transport::TrafficGenerator>(
            sim_.scheduler(), static_cast<transport::TrafficGenerator::Consumer&>(*e.tcp_sender), f.traffic,
            static_cast<std::uint32_t>(f.payload_bytes), f.start, f.stop, std::move(arrivals));
      }
    }
  }
}

void Network::build_controllers(const control::ControllerRegistry& registry) {
  control_context_ = std::make_unique<control::ControlContext>(
      control::ControlContext{sim_, routing_, {}, {}, macs_.node_macs});
  for (const NodeConfig& node : scenario_.nodes) control_context_->node_info.push_back({node.id, node.role});
  for (const auto& node : nodes_) control_context_->nodes.push_back(node.get());
  for (std::size_t i = 0; i < scenario_.controllers.size(); ++i) {
    const ControllerConfig& config = scenario_.controllers[i];
    controllers_.push_back(registry.create(config, i, *control_context_));
    control::Controller* c = controllers_.back().get();
    // At 0 the controller acts before any frame is queued or any backoff drawn.
    if (config.start == Time{}) {
      c->start();
    } else {
      sim_.scheduler().schedule_at(config.start, [c] { c->start(); });
    }
    if (config.stop) sim_.scheduler().schedule_at(*config.stop, [c] { c->stop(); });
  }
}

std::vector<std::string> Network::route_of(std::size_t flow) const {
  const FlowEnds ends = routing_.flows.at(flow);
  std::vector<std::string> ids;
  for (std::uint32_t n : routing_.tables.path(ends.src, ends.dst)) ids.push_back(scenario_.nodes[n].id);
  return ids;
}

}  // namespace wmnsim
