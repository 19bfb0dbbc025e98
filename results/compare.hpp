#pragma once
// Checking results documents against a Reference (docs/references.md): the
// engine behind `wmnsim compare` and wmnsim.compare() in Python.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "results/reference.hpp"

namespace wmnsim {

enum class CompareStatus { pass, fail, missing };
std::string_view to_string(CompareStatus);

struct CompareRow {
  std::string metric;
  double expected = 0.0;           // the reference mean
  double low = 0.0, high = 0.0;    // the widest band of the stated tolerances, within the metric's range
  std::string tolerance;           // which tolerance gave that band: "absolute", "relative" or "ci"
  std::optional<double> measured;  // mean over the results that have the metric
  std::size_t n_measured = 0;      // results that have the metric
  CompareStatus status = CompareStatus::missing;
  std::string reason;              // why a metric is missing (empty otherwise)
  // The band reaches the least (most) value the metric can take while the
  // expected value does not: the check cannot fail on that side (a goodput band
  // down to 0 cannot see the flow starve).
  bool open_below = false, open_above = false;
};

struct Comparison {
  std::vector<CompareRow> rows;
  std::vector<std::string> warnings;  // e.g. results of another scenario, compared anyway
  bool passed() const;
};

struct CompareOptions {
  // Compare results made from another scenario or duration than the reference's
  // (what differs becomes a warning) instead of refusing them.
  bool allow_different_scenario = false;
  // How a refusal names that option: the command line's flag, or Python's argument.
  std::string allow_option = "--allow-different-scenario";
};

// The values a metric can take: [low, high] (either may be infinite).
struct MetricRange {
  double low;
  double high;
};

// The range of the value a metric name addresses (docs/references.md "Bands"):
// goodputs, delays, counts >= 0; shares and busy fractions in [0, 1]; Jain's index
// in [1/n, 1] with n the flows of `results` (when it has a "flows" table, else
// [0, 1]); unknown metrics unbounded.
MetricRange metric_range(const std::string& metric, const nlohmann::json& results);

// What makes `results` not made from the reference's scenario, one sentence each
// ("the results are of a 20 s run, the reference of 120 s", "the scenario differs
// from the reference's (hash ..., the reference's ...): /mac/cw_min is 32 in the
// results, 16 in the reference's"); empty when it is. `unchecked` receives why the
// scenario could not be checked (the reference records no hash and its scenario
// cannot be read), else stays empty.
std::vector<std::string> scenario_differences(const Reference& reference, const nlohmann::json& results,
                                              std::string& unchecked);

// One results document with the name it is reported under (a file path).
struct LabelledResults {
  std::string label;
  nlohmann::json document;
};

// Throws ScenarioError (path "", message naming `label`) unless `doc` looks like a
// results document ("format": "wmnsim-results").
void check_results_document(const nlohmann::json& doc, const std::string& label);

// Compares the mean of every metric over `results` (one per seed) with the
// reference. A metric absent from any of the results is `missing`, with a reason.
// Throws ScenarioError (one issue per results file, path "") for results made from
// another scenario or duration than the reference's (scenario_differences), unless
// options.allow_different_scenario, and for two results of one run (the same seed
// of the same scenario: the mean would count it twice). Results of seeds that are
// not the reference's are compared: the band is for new runs too.
Comparison compare(const Reference& reference, const std::vector<LabelledResults>& results,
                   const CompareOptions& options = {});

// The value a metric name addresses in one results document, or the reason it has
// none ("no flow \"X\" in the results (flows: A, B)").
struct MetricValue {
  std::optional<double> value;
  std::string reason;
};
MetricValue lookup_metric(const nlohmann::json& results, const std::string& metric);

// Half-width of the interval expected to hold the mean of m new runs, from a
// reference of n runs with mean and sample std s: t * s * sqrt(1/n + 1/m), t the
// two-sided `level` quantile of Student's t with n - 1 degrees of freedom (the
// prediction interval to contain the mean of m future observations; Hahn &
// Meeker, Statistical Intervals, Wiley 1991, ch. 4).
double ci_half_width(double level, double std, std::int64_t n, std::size_t m);

// t with P(|T| <= t) = level for Student's T with `df` degrees of freedom (df >= 1),
// from Boost.Math's Student-t distribution (scipy.stats.t.ppf in the Python scripts).
double student_t_quantile(double level, std::int64_t df);

// A fixed-width table (metric, expected, band, measured, status), warnings, and a
// verdict line: "12 of 12 metrics within tolerance" / "2 of 12 outside: ...".
std::string format_comparison(const Comparison& comparison);

// {"passed": bool, "warnings": [...], "rows": [{metric, expected, low, high,
// tolerance, measured, n_measured, status, reason, open_below, open_above}, ...]}
nlohmann::ordered_json comparison_to_json(const Comparison& comparison);

}  // namespace wmnsim
