#include "results/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>

#include "config/json_reader.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

namespace {

// "%.6g" without trailing noise; enough digits to tell a value from its band edge.
std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string format_optional(const std::optional<double>& v) { return v ? format_value(*v) : "-"; }

std::vector<std::string> keys_of(const nlohmann::json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  if (const auto guess = closest_match(word, candidates)) return "; did you mean \"" + *guess + "\"?";
  return "";
}

// The value itself, or why it cannot be compared.
MetricValue number_at(const nlohmann::json& v) {
  if (v.is_number()) return {v.get<double>(), ""};
  if (v.is_null()) return {std::nullopt, "is null in the results (no value for this run)"};
  return {std::nullopt, "is " + describe_value(v) + " in the results, not a number"};
}

MetricValue lookup_row(const nlohmann::json& results, const std::string& section, const std::string& id,
                       const std::string& column) {
  const std::string kind = section == "flows" ? "flow" : section == "nodes" ? "node" : "radio";
  const auto it = results.find(section);
  if (it == results.end() || !it->is_array()) return {std::nullopt, "the results have no \"" + section + "\" table"};
  std::vector<std::string> ids;
  for (const auto& row : *it) {
    const auto id_it = row.find("id");
    if (!row.is_object() || id_it == row.end() || !id_it->is_string()) continue;
    if (id_it->get<std::string>() != id) {
      ids.push_back(id_it->get<std::string>());
      continue;
    }
    const auto col = row.find(column);
    if (col == row.end()) {
      return {std::nullopt, kind + " \"" + id + "\" has no column \"" + column + "\"" + did_you_mean(column, keys_of(row))};
    }
    MetricValue v = number_at(*col);
    if (!v.value) v.reason = kind + " \"" + id + "\" column \"" + column + "\" " + v.reason;
    return v;
  }
  return {std::nullopt, "no " + kind + " \"" + id + "\" in the results (" + section + ": " + join_list(ids, false) +
                            ")" + did_you_mean(id, ids)};
}

MetricValue lookup_summary(const nlohmann::json& results, const std::string& keys) {
  const auto it = results.find("summary");
  if (it == results.end() || !it->is_object()) return {std::nullopt, "the results have no \"summary\""};
  const nlohmann::json* at = &*it;
  std::string walked = "summary";
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = keys.find('/', start);
    const std::string key = keys.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!at->is_object()) return {std::nullopt, walked + " is " + describe_value(*at) + ", not an object"};
    const auto next = at->find(key);
    if (next == at->end()) {
      return {std::nullopt, walked + " has no key \"" + key + "\"" + did_you_mean(key, keys_of(*at))};
    }
    at = &*next;
    walked += "/" + key;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  MetricValue v = number_at(*at);
  if (!v.value) v.reason = walked + " " + v.reason;
  return v;
}

}  // namespace

std::string_view to_string(CompareStatus s) {
  switch (s) {
    case CompareStatus::pass:
      return "pass";
    case CompareStatus::fail:
      return "FAIL";
    case CompareStatus::missing:
      return "MISSING";
  }
  return "?";
}

bool Comparison::passed() const {
  return std::all_of(rows.begin(), rows.end(), [](const CompareRow& r) { return r.status == CompareStatus::pass; });
}

double student_t_quantile(double level, std::int64_t df) {
  if (!(level > 0.0 && level < 1.0) || df < 1) throw std::invalid_argument("student_t_quantile: need 0 < level < 1, df >= 1");
  // Two-sided: P(|T| <= t) = level is the (1 + level) / 2 quantile of T.
  const boost::math::students_t_distribution<double> t(static_cast<double>(df));
  return boost::math::quantile(t, 0.5 + 0.5 * level);
}

double ci_half_width(double level, double std, std::int64_t n, std::size_t m) {
  if (n < 2 || m < 1) return 0.0;  // no spread estimate: the interval says nothing
  const double t = student_t_quantile(level, n - 1);
  return t * std * std::sqrt(1.0 / static_cast<double>(n) + 1.0 / static_cast<double>(m));
}

void check_results_document(const nlohmann::json& doc, const std::string& label) {
  const bool ok = doc.is_object() && doc.contains("format") && doc["format"] == "wmnsim-results";
  if (!ok) {
    throw ScenarioError({{"", label + ": not a wmnsim results file (expected \"format\": \"wmnsim-results\"; "
                                      "write one with `wmnsim run SCENARIO -o FILE`)"}});
  }
}

MetricValue lookup_metric(const nlohmann::json& results, const std::string& metric) {
  const std::size_t first = metric.find('/');
  const std::size_t last = metric.rfind('/');
  if (first == std::string::npos) return {std::nullopt, "not a metric name"};
  const std::string section = metric.substr(0, first);
  if (section == "summary") return lookup_summary(results, metric.substr(first + 1));
  if ((section == "flows" || section == "nodes" || section == "radios") && last > first + 1) {
    return lookup_row(results, section, metric.substr(first + 1, last - first - 1), metric.substr(last + 1));
  }
  return {std::nullopt, "not a metric name"};
}

Comparison compare(const Reference& reference, const std::vector<LabelledResults>& results) {
  Comparison out;
  for (const auto& r : results) {
    const nlohmann::json* scenario = r.document.contains("scenario") ? &r.document["scenario"] : nullptr;
    if (scenario == nullptr || !scenario->is_object() || !scenario->contains("name") ||
        !(*scenario)["name"].is_string()) {
      continue;  // an unnamed scenario cannot be told apart; compare anyway
    }
    const std::string name = (*scenario)["name"].get<std::string>();
    if (!reference.scenario_name.empty() && name != reference.scenario_name) {
      out.warnings.push_back(r.label + ": results of scenario \"" + name + "\", the reference is for \"" +
                             reference.scenario_name + "\"; comparing anyway");
    }
  }

  for (const ReferenceMetric& m : reference.metrics) {
    CompareRow row;
    row.metric = m.metric;
    row.expected = m.mean;
    double sum = 0.0;
    for (const auto& r : results) {
      const MetricValue v = lookup_metric(r.document, m.metric);
      if (v.value) {
        sum += *v.value;
        ++row.n_measured;
      } else if (row.reason.empty()) {
        row.reason = results.size() > 1 ? r.label + ": " + v.reason : v.reason;
      }
    }
    if (row.n_measured > 0) row.measured = sum / static_cast<double>(row.n_measured);

    // The widest of the stated bands wins, so an "absolute" floor keeps a metric
    // that never varied (std 0) from failing on the last digit.
    double half = -1.0;
    auto consider = [&](const char* name, double width) {
      if (width > half) {
        half = width;
        row.tolerance = name;
      }
    };
    if (m.tolerance.absolute) consider("absolute", *m.tolerance.absolute);
    if (m.tolerance.relative) consider("relative", *m.tolerance.relative * std::fabs(m.mean));
    if (m.tolerance.ci) consider("ci", ci_half_width(*m.tolerance.ci, m.std, m.n, std::max<std::size_t>(row.n_measured, 1)));
    half = std::max(half, 0.0);
    row.low = m.mean - half;
    row.high = m.mean + half;

    if (!row.reason.empty()) {
      row.status = CompareStatus::missing;
    } else {
      row.status = (*row.measured >= row.low && *row.measured <= row.high) ? CompareStatus::pass : CompareStatus::fail;
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string format_comparison(const Comparison& c) {
  struct Line {
    std::string metric, expected, band, measured, status;
  };
  std::vector<Line> lines{{"metric", "expected", "band", "measured", "status"}};
  for (const CompareRow& r : c.rows) {
    std::string status(to_string(r.status));
    if (r.status != CompareStatus::missing) status += " (" + r.tolerance + ")";
    lines.push_back({r.metric, format_value(r.expected), "[" + format_value(r.low) + ", " + format_value(r.high) + "]",
                     format_optional(r.measured), status});
  }
  std::size_t w[4] = {0, 0, 0, 0};
  for (const Line& l : lines) {
    w[0] = std::max(w[0], l.metric.size());
    w[1] = std::max(w[1], l.expected.size());
    w[2] = std::max(w[2], l.band.size());
    w[3] = std::max(w[3], l.measured.size());
  }
  auto pad = [](const std::string& s, std::size_t width, bool right) {
    const std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
  };
  std::string out;
  for (const Line& l : lines) {
    out += pad(l.metric, w[0], false) + "  " + pad(l.expected, w[1], true) + "  " + pad(l.band, w[2], false) + "  " +
           pad(l.measured, w[3], true) + "  " + l.status + "\n";
  }
  for (const CompareRow& r : c.rows) {
    if (r.status == CompareStatus::missing) out += "missing " + r.metric + ": " + r.reason + "\n";
  }
  for (const std::string& w_text : c.warnings) out += "warning: " + w_text + "\n";

  std::vector<std::string> outside;
  for (const CompareRow& r : c.rows) {
    if (r.status == CompareStatus::fail) outside.push_back(r.metric);
    if (r.status == CompareStatus::missing) outside.push_back(r.metric + " (missing)");
  }
  const std::string total = std::to_string(c.rows.size());
  if (outside.empty()) {
    out += total + " of " + total + " metrics within tolerance\n";
  } else {
    out += std::to_string(outside.size()) + " of " + total + " outside: " + join_list(outside, false) + "\n";
  }
  return out;
}

nlohmann::ordered_json comparison_to_json(const Comparison& c) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const CompareRow& r : c.rows) {
    nlohmann::ordered_json row;
    row["metric"] = r.metric;
    row["expected"] = r.expected;
    row["low"] = r.low;
    row["high"] = r.high;
    row["tolerance"] = r.tolerance;
    row["measured"] = r.measured ? nlohmann::ordered_json(*r.measured) : nlohmann::ordered_json(nullptr);
    row["n_measured"] = r.n_measured;
    row["status"] = r.status == CompareStatus::pass ? "pass" : r.status == CompareStatus::fail ? "fail" : "missing";
    row["reason"] = r.reason;
    rows.push_back(std::move(row));
  }
  nlohmann::ordered_json out;
  out["passed"] = c.passed();
  out["warnings"] = c.warnings;
  out["rows"] = std::move(rows);
  return out;
}

}  // namespace wmnsim
