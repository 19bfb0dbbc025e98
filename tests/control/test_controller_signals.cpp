// A controller hears a running network through the node signals
// (Controller::subscribe, core/node_signals.hpp): in a whole network each signal
// fires once per event, as the node's own counters count, and the previous hop
// is the radio interface and the transmitting radio.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "control/controller.hpp"
#include "control/controller_registry.hpp"
#include "scenario/registries.hpp"
#include "core/node_signals.hpp"
#include "scenario/scenario.hpp"
#include "runner/network.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// A chain A - B - GW (200 m hops, 250 m range) under EDCA, GW wired to the host H,
// one TCP upload from A to H, and the test-only "listener" controller. H comes
// first, so radio ids (A 0, B 1, GW 2) differ from node indices (H 0, A 1, B 2,
// GW 3).
nlohmann::json chain() {
  return nlohmann::json::parse(R"({
    "simulation": {"duration_s": 1, "seed": 1},
    "phy": {"standard": "802.11b", "data_rate_bps": 11e6, "basic_rate_bps": 2e6},
    "propagation": {"model": "range", "rx_range_m": 250, "cs_range_m": 300},
    "mac": {"type": "edca"},
    "nodes": [{"id": "H", "role": "host"}, {"id": "A", "position_m": [0, 0]}, {"id": "B", "position_m": [200, 0]},
              {"id": "GW", "position_m": [400, 0], "role": "gateway"}],
    "links": [{"nodes": ["GW", "H"]}],
    "flows": [{"id": "up", "transport": "tcp", "src": "A", "dst": "H"}],
    "controllers": [{"type": "listener"}]
  })");
}

// Counts, per node, what the signals say.
class Listener final : public control::Controller, public NodeSubscriber {
 public:
  using Controller::Controller;
  void start() override {
    for (std::uint32_t n = 0; n < context().nodes.size(); ++n) subscribe(n, *this);
  }
  nlohmann::ordered_json statistics() const override { return {}; }

  void on_originated(std::uint32_t node, Packet&) override { ++originated[node]; }
  void on_forwarded(std::uint32_t node, Packet&, const PrevHop& from, const NextHop& to) override {
    ++forwarded[node];
    forwarded_from[node].insert({from.interface, from.address});
    forwarded_to[node].insert(to.interface);
  }
  void on_delivered(std::uint32_t node, Packet&, const PrevHop& from) override {
    ++delivered[node];
    delivered_from[node].insert({from.interface, from.address});
  }
  void on_dropped(std::uint32_t node, const Packet&, DropCause) override { ++dropped[node]; }

  std::map<std::uint32_t, std::uint64_t> originated, forwarded, delivered, dropped;
  // Per node: the (interface, address) pairs of previous hops, the next interfaces.
  std::map<std::uint32_t, std::set<std::pair<std::uint32_t, std::uint32_t>>> forwarded_from, delivered_from;
  std::map<std::uint32_t, std::set<std::uint32_t>> forwarded_to;
};

TEST(ControllerSignals, AControllerHearsEveryPacketOnceAsTheNodesCountThem) {
  Registries registries;
  Listener* listener = nullptr;
  control::ControllerEntry entry;
  entry.name = "listener";
  entry.build = [&](const ControllerConfig& c, control::ControlContext& ctx) {
    auto l = std::make_unique<Listener>(c, ctx);
    listener = l.get();
    return l;
  };
  registries.controllers.add(entry);
  const Scenario s = parse_scenario(chain(), registries);
  Simulation sim(1);
  Network net(sim, s, registries.controllers);
  sim.run_until(Time::s(1));
  ASSERT_NE(listener, nullptr);
  std::uint64_t forwarded_total = 0, dropped_signals = 0, ledger_drops = 0;
  for (std::uint32_t n = 0; n < 4; ++n) {
    const NodeCounters& c = net.node(n).counters();
    EXPECT_EQ(listener->originated[n], c.originated) << n;
    EXPECT_EQ(listener->forwarded[n], c.forwarded) << n;
    EXPECT_EQ(listener->delivered[n], c.delivered) << n;
    forwarded_total += c.forwarded;
    dropped_signals += listener->dropped[n];
    ledger_drops += net.ledger().node_drops(n).total.packets;
  }
  // Every drop the nodes record: the ledger's losses and its stale copies.
  EXPECT_EQ(dropped_signals, ledger_drops + net.ledger().stale_copy_drops());
  EXPECT_GT(forwarded_total, 100u);  // B relays data one way and ACKs the other
  // A previous hop is (the receiving interface, the sender's address there): a
  // radio id on a radio (interface 0), the far node's index on a wired link (GW's
  // interface 1, H's interface 0). B (node 2) forwards data from A's radio 0 and
  // ACKs from GW's radio 2; GW forwards data from B's radio 1 onto the wire and
  // ACKs from H (node 0) onto its radio; H takes data from GW (node 3), A takes
  // ACKs from B's radio 1.
  using Hops = std::set<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_EQ(listener->forwarded_from[2], (Hops{{0, 0}, {0, 2}}));
  EXPECT_EQ(listener->forwarded_to[2], (std::set<std::uint32_t>{0}));
  EXPECT_EQ(listener->forwarded_from[3], (Hops{{0, 1}, {1, 0}}));
  EXPECT_EQ(listener->forwarded_to[3], (std::set<std::uint32_t>{0, 1}));
  EXPECT_EQ(listener->delivered_from[0], (Hops{{0, 3}}));
  EXPECT_EQ(listener->delivered_from[1], (Hops{{0, 1}}));
  EXPECT_TRUE(listener->forwarded_from[0].empty() && listener->forwarded_from[1].empty());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
