#include "runner/flow_table.hpp"

#include <algorithm>
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
}  // namespace

std::string format_flow_table(const Results& results) {
  std::ostringstream os;
  if (!results.flows.empty()) {
    std::vector<std::string> columns;
    for (const auto& [key, value] : results.flows.front().items()) columns.push_back(key);
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> width(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
    for (const auto& f : results.flows) {
      std::vector<std::string> row;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        row.push_back(f.contains(columns[c]) ? cell(f.at(columns[c])) : "-");
        width[c] = std::max(width[c], row.back().size());
      }
      rows.push_back(std::move(row));
    }
    auto line = [&](const std::vector<std::string>& r) {
      for (std::size_t c = 0; c < r.size(); ++c) {
        os << (c == 0 ? "" : "  ");
        // Text left-aligned in the first column, numbers right-aligned elsewhere.
        const std::string pad(width[c] - r[c].size(), ' ');
        os << (c == 0 ? r[c] + pad : pad + r[c]);
      }
      os << '\n';
    };
    line(columns);
    for (const auto& r : rows) line(r);
  }
  for (const auto& [key, value] : results.summary.items()) os << key << ": " << cell(value) << '\n';
  return os.str();
}

}  // namespace wmnsim
