#pragma once
// How much an interface queue holds: packets or bytes (docs/scenario.md, `queue`).

#include <cstdint>

namespace wmnsim::link {

struct QueueLimit {
  enum class Unit { packets, bytes };
  Unit unit = Unit::packets;
  std::int64_t capacity = 50;
};

}  // namespace wmnsim::link
