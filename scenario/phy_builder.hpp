#pragma once
// Builds the physical layer of a scenario: the PHY profile, the reception model,
// one radio per configured radio of every node, and the path gains between them
// (propagation model, antenna gains, system loss, per-link shadowing).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/flat_lists.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"
#include "phy/channel.hpp"  // channel_frequency_hz
#include "phy/medium.hpp"

namespace wmnsim::phy {

struct PhyNetwork {
  std::unique_ptr<Medium> medium;
  FlatLists<RadioId> node_radios;  // by scenario node index; empty for hosts
  // The scenario's node indices in the order their objects are built: placed nodes
  // along a Hilbert curve over their positions, then hosts (core/hilbert_order.hpp).
  std::vector<std::uint32_t> node_build_order;
  PhyProfile profile;
  const Mcs* basic_rate = nullptr;                // control frames and broadcasts
  const Mcs* fixed_data_rate = nullptr;           // nullptr: "auto", chosen per link
  AutoRateSection auto_rate;
};

PhyProfile profile_for(const PhySection& phy);
// PhyNetwork::node_build_order of the scenario.
std::vector<std::uint32_t> node_build_order(const Scenario& scenario);

namespace test_hooks {
// The order node_build_order gives: along space (every run), or, for tests that
// show the order changes nothing but memory, the scenario's order or its reverse.
enum class BuildOrder : std::uint8_t { along_space, as_listed, reversed };
void set_node_build_order(BuildOrder order);
}  // namespace test_hooks
ReceptionConfig reception_for(const Scenario& scenario);

// Throws NotSupportedError for PHY features the simulator does not model yet, and
// ScenarioError when the radios hear each other over more than `max_links` links.
PhyNetwork build_phy(Simulation& sim, const Scenario& scenario, std::size_t max_links = Medium::kMaxLinks);

// The data rate of the link from -> to: the fixed rate, or with "auto" the
// fastest MCS whose FER for auto_rate.reference_bytes at the link's mean SNR is
// below auto_rate.max_fer (004 Sec. 4.1). nullptr when no rate qualifies or the
// radios do not hear each other.
const Mcs* link_data_rate(const PhyNetwork& net, RadioId from, RadioId to);

// The rate of the link from -> to if the link can carry data, for routing; nullptr
// if not. A link is usable at a rate when the FER of an auto_rate.reference_bytes
// frame at the link's mean SNR is below auto_rate.max_fer: the rule "auto" applies
// to choose a rate (004 Sec. 4.1), applied to the fixed rate too, so a fixed-rate
// network does not route over a link that delivers (almost) nothing. Only the sinr
// reception model has frame errors; under the others a decodable link is usable.
// The MAC still sends at link_data_rate over any link a static route names.
const Mcs* usable_link_rate(const PhyNetwork& net, RadioId from, RadioId to);

}  // namespace wmnsim::phy
