#pragma once
// What the PHY carries over the air: a PSDU of some size at some MCS, and an
// opaque payload (the MAC frame) that the PHY never looks into.

#include <cstdint>
#include <memory>

#include "core/time.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::phy {

// Base of whatever the layer above sends (the MAC frame). Shared read-only by all
// receivers while the signal is in flight, so a receiver that wants to keep it
// copies what it needs.
struct PhyPayload {
  virtual ~PhyPayload() = default;
};

struct PhyFrame {
  std::uint32_t psdu_bytes = 0;
  const Mcs* mcs = nullptr;  // the data rate; the PLCP header goes at the profile's header rate
  Time duration;             // whole airtime, preamble included (phy/airtime.hpp)
  std::shared_ptr<const PhyPayload> payload;
};

}  // namespace wmnsim::phy
