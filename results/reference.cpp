#include "results/reference.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <utility>

#include "config/json_reader.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

namespace {

// The metric families of a results document (docs/results.md). Flow, node and
// radio ids may themselves contain '/', so only the first and last segments are
// fixed.
bool valid_metric_name(std::string_view name) {
  const auto first = name.find('/');
  if (first == std::string_view::npos || first + 1 >= name.size()) return false;
  const std::string_view section = name.substr(0, first);
  if (name.back() == '/') return false;
  if (section == "summary") return true;
  if (section != "flows" && section != "nodes" && section != "radios") return false;
  const auto last = name.rfind('/');
  return last > first + 1;  // a non-empty id between the section and the column
}

// The scenario's own "name" when its document is known, else its file stem, the
// name `wmnsim run` gives a scenario without one.
std::string scenario_name_of(const std::filesystem::path& path, const nlohmann::json& doc) {
  if (const auto it = doc.find("name"); doc.is_object() && it != doc.end() && it->is_string() &&
                                        !it->get<std::string>().empty()) {
    return it->get<std::string>();
  }
  return path.stem().string();
}

// The scenario file with the overrides applied, or null and why not. The file is
// not validated as a scenario here: comparing needs only its document, and a
// moved or broken scenario should not stop a compare whose reference records the
// hash it was made from.
nlohmann::json resolve_scenario(const std::filesystem::path& path, const std::vector<std::string>& overrides,
                                std::string& problem) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "its scenario \"" + path.string() + "\" cannot be read (" + std::strerror(errno) + ")";
    return nullptr;
  }
  try {
    return apply_overrides(nlohmann::json::parse(in), overrides);
  } catch (const nlohmann::json::exception& e) {
    problem = "its scenario \"" + path.string() + "\" is not valid JSON (" + e.what() + ")";
  } catch (const ScenarioError& e) {
    problem = "its overrides do not apply to its scenario \"" + path.string() + "\" (" + e.what() + ")";
  }
  return nullptr;
}

bool is_hex_hash(const std::string& s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

Tolerance parse_tolerance(JsonReader r) {
  Tolerance t;
  t.ci = r.number("ci", NumberRange::open(0.0, 1.0), Need::optional);
  t.relative = r.number("relative", NumberRange::non_negative());
  t.absolute = r.number("absolute", NumberRange::non_negative());
  if (r.valid_object() && !r.has("ci") && !r.has("relative") && !r.has("absolute")) {
    r.issues().add(r.path(), "state at least one of \"absolute\", \"relative\" or \"ci\" "
                             "(e.g. {\"ci\": 0.95, \"absolute\": 1000})");
  }
  r.finish();
  return t;
}

ReferenceMetric parse_metric(JsonReader r, std::set<std::string>& seen) {
  ReferenceMetric m;
  if (const auto name = r.string("metric", Need::required, "\"flows/A_to_GW/goodput_bps\"")) {
    m.metric = *name;
    if (!valid_metric_name(*name)) {
      r.issues().add(r.path_of("metric"),
                     "expected summary/<key>, flows/<flow id>/<column>, nodes/<node id>/<column> or "
                     "radios/<node id>:<radio>/<column>, got \"" +
                         *name + "\"");
    } else if (!seen.insert(*name).second) {
      r.issues().add(r.path_of("metric"), "metric \"" + *name + "\" is listed twice; keep one");
    }
  }
  m.mean = r.number("mean", {}, Need::required, "12000").value_or(0.0);
  m.std = r.number_or("std", 0.0, NumberRange::non_negative());
  if (const nlohmann::json* samples = r.array("samples")) {
    for (std::size_t i = 0; i < samples->size(); ++i) {
      if (const auto v = check_number((*samples)[i], pointer_join(r.path_of("samples"), i), r.issues())) {
        m.samples.push_back(*v);
      }
    }
  }
  const auto fallback_n = static_cast<std::int64_t>(m.samples.empty() ? 1 : m.samples.size());
  m.n = r.integer_or("n", fallback_n, 1, 1'000'000);
  if (r.has("n") && r.has("samples") && !m.samples.empty() && static_cast<std::size_t>(m.n) != m.samples.size()) {
    r.issues().add(r.path_of("n"), "n is " + std::to_string(m.n) + " but \"samples\" holds " +
                                       std::to_string(m.samples.size()) + " values; make them agree");
  }
  if (r.get("tolerance", Need::required, "{\"ci\": 0.95, \"absolute\": 1000}") != nullptr) {
    m.tolerance = parse_tolerance(r.object("tolerance"));
    // A t interval needs a spread estimated from at least two runs.
    if (m.tolerance.ci && m.n < 2) {
      r.issues().add(pointer_join(r.path_of("tolerance"), "ci"),
                     "a confidence interval needs n >= 2 runs, this metric has n = " + std::to_string(m.n) +
                         "; add seeds or use \"absolute\"/\"relative\"");
    }
  }
  r.finish();
  return m;
}

}  // namespace

Reference parse_reference(const nlohmann::json& doc, const std::filesystem::path& base_dir) {
  IssueSink issues;
  Reference ref;
  {
    JsonReader r(doc, "", issues);
    if (const nlohmann::json* v = r.get("wmnsim_reference", Need::required, "1")) {
      if (!v->is_number_integer() || v->get<std::int64_t>() != kReferenceFormatVersion) {
        issues.add("/wmnsim_reference", "expected " + std::to_string(kReferenceFormatVersion) +
                                            " (the reference format this wmnsim reads), got " + describe_value(*v));
      }
    }
    if (const auto s = r.string("scenario", Need::required, "\"two_hop_chain_tcp.json\"")) {
      ref.scenario = *s;
      ref.scenario_path = base_dir / *s;
    }
    if (const nlohmann::json* overrides = r.array("overrides")) {
      for (std::size_t i = 0; i < overrides->size(); ++i) {
        const std::string path = pointer_join("/overrides", i);
        if (const auto s = check_string((*overrides)[i], path, issues)) {
          if (s->empty() || s->front() != '/' || s->find('=') == std::string::npos) {
            issues.add(path, "expected a --set assignment \"/json/pointer=value\", got \"" + *s + "\"");
          }
          ref.overrides.push_back(*s);
        }
      }
    }
    if (const nlohmann::json* seeds = r.array("seeds", Need::required)) {
      if (seeds->empty()) issues.add("/seeds", "expected at least one seed, e.g. [1, 2, 3, 4, 5]");
      for (std::size_t i = 0; i < seeds->size(); ++i) {
        if (const auto s = check_integer((*seeds)[i], pointer_join("/seeds", i), issues, 0,
                                         std::numeric_limits<std::int64_t>::max())) {
          ref.seeds.push_back(static_cast<std::uint64_t>(*s));
        }
      }
    }
    if (const auto h = r.string("scenario_hash", Need::optional, "\"3f2a9c0d5e6b7a81\"")) {
      if (is_hex_hash(*h)) {
        ref.scenario_hash = *h;
      } else {
        issues.add("/scenario_hash", "expected 16 lower-case hex digits (the results' \"scenario_hash\"), got \"" +
                                         *h + "\"");
      }
    }
    if (const auto d = r.number("duration_s", NumberRange::positive())) ref.duration_s = *d;
    if (const nlohmann::json* g = r.get("generated")) {
      if (g->is_object()) {
        ref.generated = *g;  // informative: who produced the numbers
      } else {
        issues.add("/generated", "expected an object, got " + describe_value(*g));
      }
    }
    ref.note = r.string("note").value_or("");
    if (const nlohmann::json* metrics = r.array("metrics", Need::required)) {
      if (metrics->empty()) issues.add("/metrics", "expected at least one metric");
      std::set<std::string> seen;
      for (std::size_t i = 0; i < metrics->size(); ++i) {
        ref.metrics.push_back(parse_metric(JsonReader((*metrics)[i], pointer_join("/metrics", i), issues), seen));
      }
    }
    r.finish();
  }
  if (!issues.empty()) throw ScenarioError(issues.take());
  ref.resolved_scenario = resolve_scenario(ref.scenario_path, ref.overrides, ref.resolved_problem);
  ref.scenario_name = scenario_name_of(ref.scenario_path, ref.resolved_scenario);
  return ref;
}

nlohmann::json read_json_input(const std::filesystem::path& path, std::string_view what) {
  // read_json_file names every file a "scenario file"; say what this one is.
  if (std::ifstream probe(path, std::ios::binary); !probe) {
    const std::string why = std::strerror(errno);
    throw ScenarioError({{"", "cannot open " + std::string(what) + " \"" + path.string() + "\": " + why}});
  }
  return read_json_file(path);
}

Reference load_reference_file(const std::filesystem::path& path) {
  return parse_reference(read_json_input(path, "reference file"), path.parent_path());
}

}  // namespace wmnsim
