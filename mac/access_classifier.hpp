#pragma once
// Decides the EDCA access category of each packet (IEEE 802.11-2012 9.2.4.2: the MAC
// maps a frame's user priority to an AC). wmnsim's rules, first match wins:
//   1. the user priority the transport tagged on the packet (Packet::user_priority,
//      from the scenario's per-flow access_category / ack_access_category), mapped
//      by Table 9-1 (mac/mac_params.hpp);
//   2. a per-flow rule set at run time (controllers: 002's EDCA policies);
//   3. the pure-TCP-ACK rule: pure ACKs to their own category (002);
//   4. the default category (AC_BE, where DCF traffic maps).
// A DCF MAC has one category and does not ask.

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "core/packet.hpp"
#include "mac/mac_params.hpp"

namespace wmnsim::mac {

class AccessClassifier {
 public:
  AccessCategory classify(const Packet& packet) const {
    if (packet.user_priority) return access_category_of(*packet.user_priority);
    if (by_flow_) {
      if (auto it = by_flow_->find(packet.flow); it != by_flow_->end()) return it->second;
    }
    if (pure_ack_category_ && packet.transport.is_pure_ack()) return *pure_ack_category_;
    return default_category_;
  }

  void set_flow_category(std::uint32_t flow, AccessCategory ac) {
    if (!by_flow_) by_flow_ = std::make_unique<std::unordered_map<std::uint32_t, AccessCategory>>();
    (*by_flow_)[flow] = ac;
  }
  void clear_flow_category(std::uint32_t flow) {
    if (by_flow_) by_flow_->erase(flow);
  }
  void set_pure_ack_category(std::optional<AccessCategory> ac) { pure_ack_category_ = ac; }
  void set_default_category(AccessCategory ac) { default_category_ = ac; }
  std::optional<AccessCategory> pure_ack_category() const { return pure_ack_category_; }

 private:
  // Created by the first per-flow rule: only controllers set them (issue 43 §3,
  // memory per node: an empty map would take 56 bytes in every MAC).
  std::unique_ptr<std::unordered_map<std::uint32_t, AccessCategory>> by_flow_;
  std::optional<AccessCategory> pure_ack_category_;
  AccessCategory default_category_ = AccessCategory::ac_be;
};

}  // namespace wmnsim::mac
