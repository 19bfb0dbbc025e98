#pragma once
// Name tables of enums: one table per enum, beside the enum in the layer that owns
// it, used both to print a value (to_string, results, logs) and to parse it
// (config/json_reader.hpp's choice()). Plain text, no JSON.

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wmnsim {

template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

template <typename E>
std::vector<std::string> enum_names(std::span<const EnumName<E>> table) {
  std::vector<std::string> out;
  for (const auto& e : table) out.emplace_back(e.name);
  return out;
}

template <typename E>
constexpr std::string_view enum_name(std::span<const EnumName<E>> table, E value) {
  for (const auto& e : table) {
    if (e.value == value) return e.name;
  }
  return "?";
}

// Spans for the templates (deduction does not see through std::array).
template <typename E, std::size_t N>
constexpr std::span<const EnumName<E>> names(const std::array<EnumName<E>, N>& table) {
  return {table.data(), table.size()};
}

}  // namespace wmnsim
