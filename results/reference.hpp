#pragma once
// Reference results (docs/references.md): one JSON file per scenario that says
// how to run it (scenario, --set overrides, seeds) and what its metrics should
// be (mean, std, n and samples over those seeds, with a tolerance each).
//
// Parsing follows the scenario's style: every problem is collected with its JSON
// path, then one ScenarioError lists them all.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wmnsim {

inline constexpr int kReferenceFormatVersion = 1;

// Any subset of the three; a metric passes when it is inside ANY stated band.
struct Tolerance {
  std::optional<double> ci;        // confidence level in (0, 1) of a Student-t interval over the seeds
  std::optional<double> relative;  // fraction of |expected|
  std::optional<double> absolute;  // in the metric's own unit
};

struct ReferenceMetric {
  // "summary/<key>[/<key>...]", "flows/<id>/<column>", "nodes/<id>/<column>",
  // "radios/<node id>:<radio>/<column>"
  std::string metric;
  double mean = 0.0;
  double std = 0.0;             // sample standard deviation (n - 1 in the denominator)
  std::int64_t n = 1;           // runs behind mean and std
  std::vector<double> samples;  // one value per seed, informative only
  Tolerance tolerance;
};

struct Reference {
  std::string scenario;                // as written: relative to the reference file
  std::filesystem::path scenario_path; // resolved against the reference file's folder
  std::string scenario_name;           // the scenario's "name", else its file stem
  std::vector<std::string> overrides;  // --set assignments of every run
  std::vector<std::uint64_t> seeds;
  // What the numbers were made from (written by scripts/references.py generate;
  // absent in hand-written references): the hash of the scenario as run
  // (results/provenance.hpp) and its /simulation/duration_s.
  std::optional<std::string> scenario_hash;
  std::optional<double> duration_s;
  // The reference's scenario file with its overrides applied, as `wmnsim run
  // SCENARIO --set ...` would run it; null when it cannot be read or the overrides
  // do not apply, with the reason in `resolved_problem`. Comparing needs it only
  // to say which fields differ, so a moved scenario file does not stop a compare.
  nlohmann::json resolved_scenario;
  std::string resolved_problem;
  nlohmann::json generated = nlohmann::json::object();
  std::string note;
  std::vector<ReferenceMetric> metrics;
};

// Validates a reference document; `base_dir` resolves "scenario". Throws one
// ScenarioError listing every problem with its JSON path.
Reference parse_reference(const nlohmann::json& doc, const std::filesystem::path& base_dir);

// Reads and parses a reference file (unreadable or malformed files are
// ScenarioErrors naming it, as scenario files are).
Reference load_reference_file(const std::filesystem::path& path);

// Reads any JSON input file; `what` names it in the message of a file that
// cannot be opened ("results file", "reference file").
nlohmann::json read_json_input(const std::filesystem::path& path, std::string_view what);

}  // namespace wmnsim
