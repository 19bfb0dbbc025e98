// A controller hears a running network through the node signals
// (Controller::subscribe, core/node_signals.hpp): in a whole network each signal
// fires once per event, as the node's own counters count, and the previous hop
// is the radio interface and the transmitting radio.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>

#include "control/controller.hpp"
#include "control/controller_registry.hpp"
#include "scenario/registries.hpp"
#include "core/node_signals.hpp"
#include "scenario/scenario.hpp"
#include "runner/network.hpp"

namespace wmnsim {
namespace {

// A chain A - B - GW (200 m hops, 250 m range) under EDCA with one TCP upload from
// A, and the test-only "listener" controller.
nlohmann::json chain() {
  return nlohmann::json::parse(R"({
    "simulation": {"duration_s": 1, "seed": 1},
    "phy": {"standard": "802.11b", "data_rate_bps": 11e6, "basic_rate_bps": 2e6},
    "propagation": {"model": "range", "rx_range_m": 250, "cs_range_m": 300},
    "mac": {"type": "edca"},
    "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "B", "position_m": [200, 0]},
              {"id": "GW", "position_m": [400, 0], "role": "gateway"}],
    "flows": [{"id": "up", "transport": "tcp", "src": "A", "dst": "GW"}],
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
    if (from.interface != 0 || to.interface != 0) ++odd_hops;  // one radio per node
    last_from = from;
  }
  void on_delivered(std::uint32_t node, const Packet&, const PrevHop&) override { ++delivered[node]; }
  void on_dropped(std::uint32_t node, const Packet&, DropCause) override { ++dropped[node]; }

  std::map<std::uint32_t, std::uint64_t> originated, forwarded, delivered, dropped;
  int odd_hops = 0;
  PrevHop last_from;
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
  for (std::uint32_t n = 0; n < 3; ++n) {
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
  EXPECT_EQ(listener->odd_hops, 0);
  // B forwards from A's or GW's radio (ids 0 and 2) on its radio, interface 0.
  EXPECT_TRUE(listener->last_from.address == 0 || listener->last_from.address == 2);
}

}  // namespace
}  // namespace wmnsim
