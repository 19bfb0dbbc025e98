#include "phy/mcs.hpp"

namespace wmnsim::phy {

const Mcs* find_mcs(std::string_view name) {
  for (PhyFamily f : {PhyFamily::Dsss, PhyFamily::Ofdm}) {
    for (const Mcs& m : mcs_table(f)) {
      if (m.name == name) return &m;
    }
  }
  return nullptr;
}

const Mcs* find_mcs(PhyFamily family, std::int64_t rate_bps) {
  for (const Mcs& m : mcs_table(family)) {
    if (m.rate_bps == rate_bps) return &m;
  }
  return nullptr;
}

}  // namespace wmnsim::phy
