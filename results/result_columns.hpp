#pragma once
// The columns of the results rows, each declared once with its key, unit and
// meaning (docs/results.md): the runner writes a row through them and a test or a
// program reads it back typed, so no reader spells a key that the writer does not.
// As config/parameter_table.hpp does for the scenario's parameters.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wmnsim {

template <typename T>
class ResultColumn {
 public:
  constexpr ResultColumn(std::string_view key, std::string_view unit, std::string_view meaning)
      : key_(key), unit_(unit), meaning_(meaning) {}

  constexpr std::string_view key() const { return key_; }
  constexpr std::string_view unit() const { return unit_; }
  constexpr std::string_view meaning() const { return meaning_; }

  // The value in `row`. Throws std::out_of_range naming the column when the row has
  // none or null there (a nullable column: value_in()).
  template <typename Json>
  T of(const Json& row) const {
    const auto it = row.find(std::string(key_));
    if (it == row.end() || it->is_null()) {
      throw std::out_of_range("the results row has no value in column \"" + std::string(key_) + "\"");
    }
    return it->template get<T>();
  }
  // The value, or nothing when the row holds null (or lacks the column).
  template <typename Json>
  std::optional<T> value_in(const Json& row) const {
    const auto it = row.find(std::string(key_));
    if (it == row.end() || it->is_null()) return std::nullopt;
    return it->template get<T>();
  }
  template <typename Json>
  void set(Json& row, const T& value) const {
    row[std::string(key_)] = value;
  }
  // Null when `value` is empty.
  template <typename Json>
  void set(Json& row, const std::optional<T>& value) const {
    if (value) {
      row[std::string(key_)] = *value;
    } else {
      row[std::string(key_)] = nullptr;
    }
  }

 private:
  std::string_view key_;
  std::string_view unit_;
  std::string_view meaning_;
};

// Results::flows: one row per flow (docs/results.md, `flows`), in this order; a
// transport's own statistics come after delivered_packets.
namespace flow_column {
inline constexpr ResultColumn<std::string> id{"id", "", "as in the scenario"};
inline constexpr ResultColumn<std::string> transport{"transport", "", "as in the scenario"};
inline constexpr ResultColumn<std::string> src{"src", "", "node id, \"@gateway\" resolved by the routing"};
inline constexpr ResultColumn<std::string> dst{"dst", "", "node id, \"@gateway\" resolved by the routing"};
inline constexpr ResultColumn<std::uint64_t> hops{"hops", "links", "length of the data route"};
inline constexpr ResultColumn<double> goodput_bps{"goodput_bps", "bit/s",
                                                  "application bytes delivered in order, over the window"};
inline constexpr ResultColumn<double> share{"share", "", "goodput / total goodput of all flows"};
inline constexpr ResultColumn<std::uint64_t> sent_packets{"sent_packets", "packets", "sent by the source"};
inline constexpr ResultColumn<std::uint64_t> delivered_packets{"delivered_packets", "packets",
                                                               "data packets that reached the destination node"};
inline constexpr ResultColumn<std::uint64_t> dropped_packets{"dropped_packets", "packets",
                                                             "the flow's packets dropped anywhere, every cause"};
inline constexpr ResultColumn<std::uint64_t> drops_retry_limit{"drops_retry_limit", "packets",
                                                               "of those, dropped by a MAC at its retry limit"};
inline constexpr ResultColumn<double> delay_mean_s{"delay_mean_s", "s", "mean one-way delay in the window"};
inline constexpr ResultColumn<double> delay_max_s{"delay_max_s", "s", "largest one-way delay in the window"};
inline constexpr ResultColumn<double> delay_p50_s{"delay_p50_s", "s", "median delay; null when none delivered"};
inline constexpr ResultColumn<double> delay_p95_s{"delay_p95_s", "s", "95th percentile delay; null when none"};
inline constexpr ResultColumn<double> delay_p99_s{"delay_p99_s", "s", "99th percentile delay; null when none"};
inline constexpr ResultColumn<double> jitter_s{"jitter_s", "s", "mean delay variation; null below two packets"};
inline constexpr ResultColumn<std::uint64_t> tx_packets{"tx_packets", "packets", "data packets originated"};
inline constexpr ResultColumn<std::uint64_t> tx_bytes{"tx_bytes", "bytes", "their IP bytes"};
inline constexpr ResultColumn<std::uint64_t> rx_packets{"rx_packets", "packets", "of those, delivered"};
inline constexpr ResultColumn<std::uint64_t> rx_bytes{"rx_bytes", "bytes", "their IP bytes"};
inline constexpr ResultColumn<std::uint64_t> lost_packets{"lost_packets", "packets", "of those, dropped"};
inline constexpr ResultColumn<std::uint64_t> in_network_packets{"in_network_packets", "packets",
                                                                "of those, still in the network at the end"};
inline constexpr ResultColumn<double> fair_ratio{"fair_ratio", "",
                                                 "goodput / fair_share_bps; only when some flow gives one"};
inline constexpr ResultColumn<std::vector<std::string>> route{"route", "", "the node ids the data crosses"};
}  // namespace flow_column

// Results::summary (docs/results.md, `summary`).
namespace summary_column {
inline constexpr ResultColumn<double> jain_fairness_index{"jain_fairness_index", "",
                                                          "over the flows' goodput; null when all got nothing"};
inline constexpr ResultColumn<double> total_goodput_bps{"total_goodput_bps", "bit/s", "sum of the flows' goodput"};
inline constexpr ResultColumn<double> effective_utilization_bps{"effective_utilization_bps", "bit/s",
                                                                "sum over flows of goodput x hops"};
}  // namespace summary_column

}  // namespace wmnsim
