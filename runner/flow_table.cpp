#include "runner/flow_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace wmnsim {

namespace {
std::string cell(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
    return buf;
  }
  if (v.is_null()) return "-";
  if (v.is_array()) {  // a route: node ids joined by ">"
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ">") + (e.is_string() ? e.get<std::string>() : e.dump());
    return out;
  }
  if (v.is_object()) {  // e.g. drops by cause: the non-zero entries
    std::string out;
    for (const auto& [key, value] : v.items()) {
      if (value.is_number() && value.get<double>() == 0.0) continue;
      out += (out.empty() ? "" : " ") + key + "=" + cell(value);
    }
    return out.empty() ? "none" : out;
  }
  return v.dump();
}

// A compact column: a flow metric under a short header, numbers divided by `scale`.
struct CompactColumn {
  const char* key;
  const char* header;
  double scale;
};
// What a reader scans first (docs/cli.md "wmnsim run"); --wide prints every column.
constexpr CompactColumn kCompact[] = {
    {"id", "id", 1},
    {"transport", "proto", 1},
    {"src", "src", 1},
    {"dst", "dst", 1},
    {"hops", "hops", 1},
    {"goodput_bps", "Mbit/s", 1e6},
    {"share", "share", 1},
    {"delivered_packets", "deliv", 1},
    {"dropped_packets", "drops", 1},
    {"retransmissions", "retx", 1},
    {"timeouts", "rto", 1},
    {"delay_mean_s", "delay_ms", 1e-3},
    {"delay_p95_s", "p95_ms", 1e-3},
    {"route", "route", 1},
};

// Three significant digits in the compact table, what a reader compares at a
// glance; from 1000 up whole numbers (1230 ms, not 1.23e+03).
std::string compact_cell(const nlohmann::ordered_json& v, double scale) {
  if (!v.is_number_float() && !(scale != 1 && v.is_number())) return cell(v);
  const double x = v.get<double>() / scale;
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(x) >= 1000 ? "%.0f" : "%.3g", x);
  return buf;
}
}  // namespace

std::string format_flow_table(const Results& results, bool wide) {
  std::ostringstream os;
  if (!results.flows.empty()) {
    struct Column {
      std::string key, header;
      double scale = 1;
    };
    std::vector<Column> columns;
    const auto& first = results.flows.front();
    if (!wide) {
      for (const CompactColumn& c : kCompact) {
        if (first.contains(c.key)) columns.push_back({c.key, c.header, c.scale});
      }
    }
    const bool compact = columns.size() > 1;  // rows of another shape: every column
    if (!compact) {
      columns.clear();
      for (const auto& [key, value] : first.items()) columns.push_back({key, key, 1});
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> width(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].header.size();
    for (const auto& f : results.flows) {
      std::vector<std::string> row;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::string& key = columns[c].key;
        row.push_back(!f.contains(key) ? "-" : compact ? compact_cell(f.at(key), columns[c].scale) : cell(f.at(key)));
        width[c] = std::max(width[c], row.back().size());
      }
      rows.push_back(std::move(row));
    }
    std::vector<std::string> headers;
    for (const Column& c : columns) headers.push_back(c.header);
    auto line = [&](const std::vector<std::string>& r) {
      for (std::size_t c = 0; c < r.size(); ++c) {
        os << (c == 0 ? "" : "  ");
        // Text left-aligned in the first column, numbers right-aligned elsewhere.
        const std::string pad(width[c] - r[c].size(), ' ');
        os << (c == 0 ? r[c] + pad : pad + r[c]);
      }
      os << '\n';
    };
    line(headers);
    for (const auto& r : rows) line(r);
    if (compact) {
      os << "(deliv, drops: packets; retx: retransmissions; rto: timeouts; --wide: every column)\n";
    }
  }
  for (const auto& [key, value] : results.summary.items()) os << key << ": " << cell(value) << '\n';
  return os.str();
}

}  // namespace wmnsim
