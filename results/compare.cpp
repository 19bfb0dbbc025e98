#include "results/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include <boost/math/distributions/students_t.hpp>

#include "config/json_reader.hpp"
#include "results/provenance.hpp"
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

// "20", "0.5", "120" seconds as a person writes them.
std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

const nlohmann::json* find_path(const nlohmann::json& doc, std::initializer_list<const char*> keys) {
  const nlohmann::json* at = &doc;
  for (const char* key : keys) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::optional<double> number_of(const nlohmann::json* v) {
  if (v != nullptr && v->is_number()) return v->get<double>();
  return std::nullopt;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Sentences that may hold commas of their own, one after the other.
std::string join_sentences(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : "; ") + item;
  return out;
}

// Columns and summary keys that are fractions of a whole.
bool is_fraction(std::string_view name) {
  return name == "share" || name == "channel_busyness" || name == "channel_busyness_ns2";
}

// Columns and summary keys that cannot be negative: rates, times, counts, sizes,
// ratios of non-negative values. Unknown names are not bounded.
bool is_non_negative(std::string_view name) {
  static const std::set<std::string_view, std::less<>> names = {
      "hops", "retransmissions", "syn_retransmissions", "fin_retransmissions", "timeouts", "originated", "forwarded", "delivered", "radios", "drops",
      "fair_ratio", "min_fair_ratio", "max_fair_ratio", "utilization_ratio", "cw_min", "channel",
      "data_attempts", "data_success", "data_retries", "rts_attempts", "cts_timeouts", "ack_timeouts",
      "collisions", "notifications_sent", "notifications_received"};
  if (names.count(name) > 0) return true;
  for (const char* suffix : {"_bps", "_s", "_bytes", "_packets", "_frames", "_attempts", "_retries", "_timeouts",
                             "_drops", "_sent", "_received"}) {
    if (ends_with(name, suffix)) return true;
  }
  for (const char* prefix : {"drops_", "mgmt_", "rx_", "tx_", "packets_"}) {
    if (starts_with(name, prefix)) return true;
  }
  return false;
}

}  // namespace

MetricRange metric_range(const std::string& metric, const nlohmann::json& results) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::size_t first = metric.find('/');
  if (first == std::string::npos) return {-inf, inf};
  const std::string section = metric.substr(0, first);
  const std::string column = metric.substr(metric.rfind('/') + 1);
  if (section == "summary") {
    const std::string keys = metric.substr(first + 1);
    if (keys == "jain_fairness_index") {
      // (sum x)^2 / (n sum x^2) over the n flows: 1/n when one flow has everything.
      const nlohmann::json* flows = find_path(results, {"flows"});
      const std::size_t n = flows != nullptr && flows->is_array() ? flows->size() : 0;
      return {n > 0 ? 1.0 / static_cast<double>(n) : 0.0, 1.0};
    }
    // Every count under summary/drops, summary/packets, summary/drops_*_by_cause.
    if (starts_with(keys, "drops") || starts_with(keys, "packets/")) return {0.0, inf};
  } else if (section != "flows" && section != "nodes" && section != "radios") {
    return {-inf, inf};
  }
  if (is_fraction(column)) return {0.0, 1.0};
  if (is_non_negative(column)) return {0.0, inf};
  return {-inf, inf};
}

std::vector<std::string> scenario_differences(const Reference& reference, const nlohmann::json& results,
                                              std::string& unchecked) {
  std::vector<std::string> out;
  const nlohmann::json* scenario = find_path(results, {"scenario"});
  if (scenario != nullptr && !scenario->is_object()) scenario = nullptr;
  const nlohmann::json& resolved = reference.resolved_scenario;

  // The duration first: the commonest mistake, and the plainest to say.
  const auto duration = number_of(scenario == nullptr ? nullptr : find_path(*scenario, {"simulation", "duration_s"}));
  const auto ref_duration = reference.duration_s ? reference.duration_s
                                                 : number_of(find_path(resolved, {"simulation", "duration_s"}));
  const bool duration_differs = duration && ref_duration && *duration != *ref_duration;
  if (duration_differs) {
    out.push_back("the results are of a " + seconds_text(*duration) + " s run, the reference of " +
                  seconds_text(*ref_duration) + " s");
  }
  if (const nlohmann::json* partial = find_path(results, {"run", "partial"}); partial != nullptr && *partial == true) {
    const auto reached = number_of(find_path(results, {"run", "simulated_time_s"}));
    out.push_back("the results are of a run stopped early" +
                  (reached ? " at " + seconds_text(*reached) + " s" : std::string()) + " (partial results)");
  }

  std::optional<std::string> hash;
  if (scenario != nullptr) {
    hash = scenario_hash(*scenario);
  } else if (const nlohmann::json* h = find_path(results, {"scenario_hash"}); h != nullptr && h->is_string()) {
    hash = h->get<std::string>();
  }
  const std::optional<std::string> resolved_hash =
      resolved.is_object() ? std::optional<std::string>(scenario_hash(resolved)) : std::nullopt;
  const std::optional<std::string> ref_hash = reference.scenario_hash ? reference.scenario_hash : resolved_hash;
  if (!ref_hash) {
    unchecked = "the reference records no \"scenario_hash\" and " + reference.resolved_problem;
    return out;
  }
  if (!hash) {
    out.push_back("the results do not say what scenario they were run from (no \"scenario\")");
    return out;
  }
  if (*hash == *ref_hash) return out;

  const std::string hashes = "(hash " + *hash + ", the reference's " + *ref_hash + ")";
  if (resolved_hash && *resolved_hash != *ref_hash) {
    // The scenario file or its overrides changed since the reference was made.
    std::string text = "the scenario differs from the one the reference was made from " + hashes +
                       "; the reference's scenario file with its overrides gives " + *resolved_hash +
                       " now: it changed since the reference was made";
    text += *hash == *resolved_hash ? " (regenerate the reference: scripts/references.py generate)" : "";
    out.push_back(text);
    return out;
  }
  std::vector<std::string> fields;
  if (resolved_hash) {
    nlohmann::json mine = hashed_part_of_scenario(*scenario);
    nlohmann::json theirs = hashed_part_of_scenario(resolved);
    if (duration_differs) {  // said already
      mine["simulation"].erase("duration_s");
      theirs["simulation"].erase("duration_s");
    }
    fields = json_differences(mine, theirs, "in the results", "in the reference's");
  }
  if (fields.empty() && duration_differs) return out;  // the duration is the whole difference
  std::string text = "the scenario differs from the reference's " + hashes;
  if (!fields.empty()) text += ": " + join_sentences(fields);
  out.push_back(text);
  return out;
}

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

Comparison compare(const Reference& reference, const std::vector<LabelledResults>& results,
                   const CompareOptions& options) {
  Comparison out;
  std::vector<ValidationIssue> refused;
  std::string unchecked;
  std::map<std::pair<std::uint64_t, std::string>, std::string> runs;  // (seed, scenario hash) -> label
  for (const auto& r : results) {
    const std::vector<std::string> differences = scenario_differences(reference, r.document, unchecked);
    if (!differences.empty()) {
      const std::string what = join_sentences(differences);
      if (options.allow_different_scenario) {
        out.warnings.push_back(r.label + ": not made from the reference's scenario, compared anyway: " + what);
      } else {
        refused.push_back({"", r.label + ": not made from the reference's scenario: " + what + " (" +
                                   options.allow_option + " compares anyway)"});
      }
    }
    const nlohmann::json* seed = find_path(r.document, {"seed"});
    const nlohmann::json* scenario = find_path(r.document, {"scenario"});
    if (seed != nullptr && seed->is_number_unsigned() && scenario != nullptr && scenario->is_object()) {
      const auto [it, fresh] = runs.try_emplace({seed->get<std::uint64_t>(), scenario_hash(*scenario)}, r.label);
      if (!fresh) {
        refused.push_back({"", r.label + ": the same run as " + it->second + " (seed " + seed->dump() +
                                   " of the same scenario): give each run once, or its mean counts it twice"});
      }
    }
    if (unchecked.empty()) continue;  // checked by hash: another name is a difference like any other
    const nlohmann::json* name = scenario != nullptr ? find_path(*scenario, {"name"}) : nullptr;
    if (name == nullptr || !name->is_string()) continue;  // an unnamed scenario cannot be told apart
    if (!reference.scenario_name.empty() && *name != reference.scenario_name) {
      out.warnings.push_back(r.label + ": results of scenario \"" + name->get<std::string>() +
                             "\", the reference is for \"" + reference.scenario_name + "\"; comparing anyway");
    }
  }
  if (!refused.empty()) throw ScenarioError(std::move(refused));
  if (!unchecked.empty()) {
    out.warnings.insert(out.warnings.begin(), "cannot check that the results were made from the reference's "
                                              "scenario: " + unchecked);
  }
  const MetricRange no_range{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};

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
    // Within what the metric can be: a band below it would say nothing more.
    const MetricRange range = results.empty() ? no_range : metric_range(m.metric, results.front().document);
    row.low = std::max(m.mean - half, range.low);
    row.high = std::min(m.mean + half, range.high);
    row.open_below = m.mean > range.low && row.low <= range.low;
    row.open_above = m.mean < range.high && row.high >= range.high;

    if (!row.reason.empty()) {
      row.status = CompareStatus::missing;
    } else {
      // The band before clipping decides: a value the last bit outside the range
      // (a Jain index of 1 + 2e-16) passes as it did.
      const bool inside = *row.measured >= m.mean - half && *row.measured <= m.mean + half;
      row.status = inside ? CompareStatus::pass : CompareStatus::fail;
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
  for (const CompareRow& r : c.rows) {
    if (r.open_below || r.open_above) {
      const std::string side = r.open_below && r.open_above ? "from either side"
                               : r.open_below              ? "from below"
                                                           : "from above";
      const std::string edge = r.open_below && r.open_above ? "both ends of the metric's range"
                               : r.open_below ? format_value(r.low) + ", the least the metric can be"
                                              : format_value(r.high) + ", the most the metric can be";
      out += "note: " + r.metric + ": the band reaches " + edge + ": it cannot fail " + side + "\n";
    }
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
    row["open_below"] = r.open_below;
    row["open_above"] = r.open_above;
    rows.push_back(std::move(row));
  }
  nlohmann::ordered_json out;
  out["passed"] = c.passed();
  out["warnings"] = c.warnings;
  out["rows"] = std::move(rows);
  return out;
}

}  // namespace wmnsim
