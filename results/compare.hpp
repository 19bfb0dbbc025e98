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
  double low = 0.0, high = 0.0;    // the widest band of the stated tolerances
  std::string tolerance;           // which tolerance gave that band: "absolute", "relative" or "ci"
  std::optional<double> measured;  // mean over the results that have the metric
  std::size_t n_measured = 0;      // results that have the metric
  CompareStatus status = CompareStatus::missing;
  std::string reason;              // why a metric is missing (empty otherwise)
};

struct Comparison {
  std::vector<CompareRow> rows;
  std::vector<std::string> warnings;  // e.g. results of another scenario
  bool passed() const;
};

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
Comparison compare(const Reference& reference, const std::vector<LabelledResults>& results);

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
// tolerance, measured, n_measured, status, reason}, ...]}
nlohmann::ordered_json comparison_to_json(const Comparison& comparison);

}  // namespace wmnsim
