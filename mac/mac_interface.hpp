#pragma once
// A radio's MAC as a node interface: the node's packets go into the MAC's queues
// addressed to the next hop's radio, and data the MAC receives goes up to the node
// as an arrival. Lives in mac/ because it knows both sides (core/ knows no MAC).

#include "core/node.hpp"
#include "mac/mac.hpp"
#include "mac/mac_user.hpp"

namespace wmnsim::mac {

class MacInterface final : public NetInterface, public MacUser {
 public:
  // Registers itself as the MAC's user.
  MacInterface(Mac& mac, Node& node) : mac_(mac), node_(node) { mac_.set_user(this); }
  ~MacInterface() override { mac_.set_user(nullptr); }
  MacInterface(const MacInterface&) = delete;
  MacInterface& operator=(const MacInterface&) = delete;

  void send(PacketPtr packet, std::uint32_t address) override {
    packet->next_hop_radio = address;
    mac_.enqueue(std::move(packet));  // a refused packet has gone to the node's DropSink
  }
  void on_mac_receive(PacketPtr packet, std::uint32_t /*from_radio*/) override { node_.arrive(std::move(packet)); }
  void on_queue_space(AccessCategory /*ac*/, const Packet& departed) override { node_.on_departure(departed); }

  Mac& mac() { return mac_; }

 private:
  Mac& mac_;
  Node& node_;
};

}  // namespace wmnsim::mac
