#pragma once
// What a node is and where it stands: the words the routing, the PHY and the
// scenario share.

#include <array>
#include <cstdint>
#include <string_view>

#include "core/enum_names.hpp"

namespace wmnsim {

enum class NodeRole : std::uint8_t { mesh, gateway, host };  // one byte: a NodeConfig's field

inline constexpr std::array<EnumName<NodeRole>, 3> kNodeRoles{
    {{"mesh", NodeRole::mesh}, {"gateway", NodeRole::gateway}, {"host", NodeRole::host}}};
constexpr std::string_view to_string(NodeRole v) { return enum_name(names(kNodeRoles), v); }

struct Position {
  double x_m = 0.0, y_m = 0.0, z_m = 0.0;
};

}  // namespace wmnsim
