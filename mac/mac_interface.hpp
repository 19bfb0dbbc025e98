#pragma once
// A radio's MAC as a node interface: the node's packets go into the MAC's queues
// addressed to the next hop's radio, and data the MAC receives goes up to the node
// as an arrival from the transmitting radio; management frames go up to the node's
// management handlers. Lives in mac/ because it knows both sides (core/ knows no
// MAC).

#include <cstdint>

#include "core/node.hpp"
#include "mac/mac.hpp"
#include "mac/mac_user.hpp"

namespace wmnsim::mac {

class MacInterface final : public NetInterface, public MacUser {
 public:
  // Registers itself as the MAC's user and as the node's next interface (radios
  // come first in the routing layer's numbering: build them in radio order).
  MacInterface(Mac& mac, Node& node) : mac_(mac), node_(node), interface_(node.add_interface(*this)) {
    mac_.set_user(this);
  }
  ~MacInterface() override { mac_.set_user(nullptr); }
  MacInterface(const MacInterface&) = delete;
  MacInterface& operator=(const MacInterface&) = delete;

  void send(PacketPtr packet, std::uint32_t address) override {
    packet->next_hop_radio = address;
    mac_.enqueue(std::move(packet));  // a refused packet has gone to the node's DropSink
  }
  void on_mac_receive(PacketPtr packet, std::uint32_t from_radio) override {
    node_.arrive(std::move(packet), PrevHop{interface_, from_radio});
  }
  bool on_management_receive(const ManagementBody& body, std::uint32_t from_radio) override {
    return node_.receive_management(body, PrevHop{interface_, from_radio});
  }
  void on_queue_space(AccessCategory /*ac*/, const Packet& departed) override { node_.on_departure(departed); }

  Mac& mac() { return mac_; }
  std::uint32_t interface() const { return interface_; }

 private:
  Mac& mac_;
  Node& node_;
  std::uint32_t interface_;  // the node's number for it
};

}  // namespace wmnsim::mac
