#pragma once
// What a node is and where it stands: the words the routing, the PHY and the
// scenario share.

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
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

// A position or none (a host has none), read as a std::optional<Position> is, in
// the position's 24 bytes: "none" is a NaN x, which no position may hold (the
// scenario's coordinates are finite: scenario_nodes.cpp, check_position). The
// optional's flag and padding took 8 bytes more in every NodeConfig, which the
// caller holds for the whole run (issue 43 §3, memory per node).
class MaybePosition {
 public:
  MaybePosition() = default;
  MaybePosition(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): as std::optional
  // Throws std::invalid_argument for a NaN x: it would read as no position.
  MaybePosition(const Position& p) : p_(p) {  // NOLINT(google-explicit-constructor)
    if (std::isnan(p.x_m)) throw std::invalid_argument("a position's x is NaN");
  }
  MaybePosition(const std::optional<Position>& p) {  // NOLINT(google-explicit-constructor)
    if (p) *this = MaybePosition(*p);
  }

  bool has_value() const { return !std::isnan(p_.x_m); }
  explicit operator bool() const { return has_value(); }
  // Only with a value, as std::optional's.
  const Position& operator*() const { return p_; }
  const Position* operator->() const { return &p_; }
  operator std::optional<Position>() const {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<Position>(p_) : std::nullopt;
  }

 private:
  Position p_{std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0};
};

}  // namespace wmnsim
