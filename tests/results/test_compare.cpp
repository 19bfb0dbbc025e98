// Reference files and compare(): parsing with JSON paths, metric lookup, bands,
// verdicts, and the Student-t quantiles behind the "ci" tolerance.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "results/compare.hpp"
#include "results/reference.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {

using nlohmann::json;

json reference_doc() {
  return json::parse(R"({
    "wmnsim_reference": 1,
    "scenario": "chain.json",
    "overrides": ["/simulation/duration_s=30"],
    "seeds": [1, 2, 3],
    "note": "test",
    "metrics": [
      {"metric": "flows/A->GW/goodput_bps", "mean": 1000, "std": 100, "n": 3, "samples": [900, 1000, 1100],
       "tolerance": {"ci": 0.95}},
      {"metric": "summary/drops/queue_overflow", "mean": 0, "std": 0, "n": 3,
       "tolerance": {"ci": 0.95, "absolute": 2}},
      {"metric": "nodes/B/forwarded", "mean": 50, "tolerance": {"relative": 0.1}}
    ]})");
}

json results_doc(double goodput, double overflow, double forwarded) {
  json r = {{"format", "wmnsim-results"}, {"scenario", {{"name", "chain"}}}};
  r["summary"] = {{"jain_fairness_index", nullptr}, {"drops", {{"queue_overflow", overflow}}}};
  r["flows"] = json::array({{{"id", "A->GW"}, {"goodput_bps", goodput}}, {{"id", "B->GW"}, {"goodput_bps", 1.0}}});
  r["nodes"] = json::array({{{"id", "B"}, {"forwarded", forwarded}}});
  return r;
}

std::vector<ValidationIssue> issues_of(const json& doc) {
  try {
    (void)parse_reference(doc, ".");
  } catch (const ScenarioError& e) {
    return e.issues();
  }
  return {};
}

::testing::AssertionResult has_issue(const std::vector<ValidationIssue>& issues, const std::string& path,
                                     const std::string& fragment) {
  std::string all;
  for (const auto& i : issues) {
    if (i.path == path && i.message.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
    all += "\n  " + i.path + ": " + i.message;
  }
  return ::testing::AssertionFailure() << "no issue at " << path << " with \"" << fragment << "\"; issues:" << all;
}

TEST(CompareStudentT, MatchesPublishedTables) {
  // Two-sided quantiles from any t table.
  EXPECT_NEAR(student_t_quantile(0.95, 1), 12.706, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.95, 2), 4.303, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.95, 4), 2.776, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.99, 9), 3.250, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.90, 30), 1.697, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.95, 100000), 1.960, 1e-3);  // the normal limit
  // scipy.stats.t.ppf(0.975, 7), which the Python scripts use: the two agree to 1e-9.
  EXPECT_NEAR(student_t_quantile(0.95, 7), 2.3646242510102993, 1e-9);
}

TEST(CompareStudentT, HalfWidthShrinksWithMoreMeasuredRuns) {
  const double one = ci_half_width(0.95, 100.0, 5, 1);
  EXPECT_NEAR(one, 2.776 * 100.0 * std::sqrt(1.0 / 5 + 1.0), 0.1);
  EXPECT_LT(ci_half_width(0.95, 100.0, 5, 5), one);
  EXPECT_EQ(ci_half_width(0.95, 100.0, 1, 1), 0.0);
}

TEST(CompareReference, ParsesAValidDocument) {
  const Reference ref = parse_reference(reference_doc(), "/tmp/refs");
  EXPECT_EQ(ref.scenario_path, std::filesystem::path("/tmp/refs/chain.json"));
  EXPECT_EQ(ref.scenario_name, "chain");  // no such file: the stem
  ASSERT_EQ(ref.metrics.size(), 3u);
  EXPECT_EQ(ref.metrics[0].samples.size(), 3u);
  EXPECT_EQ(ref.metrics[2].n, 1);
  EXPECT_EQ(ref.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(CompareReference, ReportsEveryProblemWithItsPath) {
  json d = reference_doc();
  d["wmnsim_reference"] = 2;
  d["seeds"][1] = "two";
  d["overrides"][0] = "duration=3";
  d["metrics"][0]["metric"] = "flow/A/goodput_bps";
  d["metrics"][1]["tolerance"]["relative"] = "x";
  d["metrics"][2]["tolerance"] = json::object();
  d["metrics"][2]["n"] = 1;
  d["metrics"][2]["tolerance"] = {{"ci", 0.95}};
  d["metrics"][0]["tolerance"]["cl"] = 0.9;
  const auto issues = issues_of(d);
  EXPECT_TRUE(has_issue(issues, "/wmnsim_reference", "expected 1"));
  EXPECT_TRUE(has_issue(issues, "/seeds/1", "got \"two\""));
  EXPECT_TRUE(has_issue(issues, "/overrides/0", "/json/pointer=value"));
  EXPECT_TRUE(has_issue(issues, "/metrics/0/metric", "flows/<flow id>/<column>"));
  EXPECT_TRUE(has_issue(issues, "/metrics/1/tolerance/relative", "expected a number >= 0, got \"x\""));
  EXPECT_TRUE(has_issue(issues, "/metrics/2/tolerance/ci", "n >= 2"));
  EXPECT_TRUE(has_issue(issues, "/metrics/0/tolerance/cl", "unknown key \"cl\""));
}

TEST(CompareReference, NeedsATolerance) {
  json d = reference_doc();
  d["metrics"].push_back(d["metrics"][0]);
  d["metrics"][0]["tolerance"] = json::object();
  d["metrics"][1].erase("tolerance");
  d["metrics"][2]["n"] = 2;  // samples not given: nothing to disagree with
  const auto issues = issues_of(d);
  EXPECT_TRUE(has_issue(issues, "/metrics/0/tolerance", "at least one of"));
  EXPECT_TRUE(has_issue(issues, "/metrics/1/tolerance", "missing required key \"tolerance\""));
  EXPECT_TRUE(has_issue(issues, "/metrics/3/metric", "listed twice"));
  EXPECT_EQ(issues.size(), 3u);
}

TEST(CompareLookup, AddressesSummaryFlowsAndNodes) {
  const json r = results_doc(1000, 3, 50);
  EXPECT_EQ(lookup_metric(r, "summary/drops/queue_overflow").value, 3.0);
  EXPECT_EQ(lookup_metric(r, "flows/A->GW/goodput_bps").value, 1000.0);
  EXPECT_EQ(lookup_metric(r, "nodes/B/forwarded").value, 50.0);
  EXPECT_NE(lookup_metric(r, "flows/C->GW/goodput_bps").reason.find("no flow \"C->GW\" in the results"),
            std::string::npos);
  EXPECT_NE(lookup_metric(r, "flows/A->GW/goodput").reason.find("did you mean \"goodput_bps\""), std::string::npos);
  EXPECT_NE(lookup_metric(r, "summary/jain_fairness_index").reason.find("null"), std::string::npos);
  EXPECT_NE(lookup_metric(r, "summary/drops/queue_overfow").reason.find("summary/drops has no key"),
            std::string::npos);
}

TEST(CompareLookup, AddressesRadiosByNodeAndRadioIndex) {
  json r = results_doc(1000, 3, 50);
  r["radios"] = json::array({{{"id", "R9:0"}, {"mac_service_delay_mean_s", 0.0023}},
                             {{"id", "R9:1"}, {"mac_service_delay_mean_s", 0.0064}}});
  EXPECT_EQ(lookup_metric(r, "radios/R9:1/mac_service_delay_mean_s").value, 0.0064);
  EXPECT_EQ(lookup_metric(r, "radios/R9:0/mac_service_delay_mean_s").value, 0.0023);
  EXPECT_NE(lookup_metric(r, "radios/R6:1/mac_service_delay_mean_s").reason.find("no radio \"R6:1\" in the results"),
            std::string::npos);
  EXPECT_NE(lookup_metric(r, "radios/R9:1/mac_service_delay").reason.find("radio \"R9:1\" has no column"),
            std::string::npos);
  // A results file written before the radios table.
  EXPECT_NE(lookup_metric(results_doc(1000, 3, 50), "radios/R9:1/channel").reason.find("no \"radios\" table"),
            std::string::npos);
}

TEST(CompareRows, ARadioMetricIsParsedAndCompared) {
  json d = reference_doc();
  d["metrics"] = json::array({{{"metric", "radios/R9:1/mac_service_delay_mean_s"}, {"mean", 0.0064},
                               {"tolerance", {{"relative", 0.1}}}}});
  const Reference ref = parse_reference(d, ".");
  ASSERT_EQ(ref.metrics.size(), 1u);
  json r = results_doc(1000, 3, 50);
  r["radios"] = json::array({{{"id", "R9:1"}, {"mac_service_delay_mean_s", 0.0068}}});
  EXPECT_EQ(compare(ref, {{"r.json", r}}).rows[0].status, CompareStatus::pass);
  r["radios"][0]["mac_service_delay_mean_s"] = 0.0080;
  EXPECT_EQ(compare(ref, {{"r.json", r}}).rows[0].status, CompareStatus::fail);
  // A radio id needs a column after it; the section name is checked.
  d["metrics"][0]["metric"] = "radios/R9:1";
  EXPECT_TRUE(has_issue(issues_of(d), "/metrics/0/metric", "radios/<node id>:<radio>/<column>"));
  d["metrics"][0]["metric"] = "radio/R9:1/channel";
  EXPECT_TRUE(has_issue(issues_of(d), "/metrics/0/metric", "expected summary/<key>"));
}

TEST(CompareRows, PassFailAndMissing) {
  json d = reference_doc();
  d["metrics"].push_back({{"metric", "flows/Z/goodput_bps"}, {"mean", 1}, {"tolerance", {{"absolute", 1}}}});
  const Reference ref = parse_reference(d, ".");
  // goodput 1000 +- t(0.95,2)*100*sqrt(1/3+1) = +-496.9: 1400 is inside; overflow 3 > 2: outside.
  const Comparison c = compare(ref, {{"r.json", results_doc(1400, 3, 54)}});
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0].status, CompareStatus::pass);
  EXPECT_EQ(c.rows[0].tolerance, "ci");
  EXPECT_NEAR(c.rows[0].high, 1000 + 4.3027 * 100 * std::sqrt(1.0 / 3 + 1), 0.1);
  EXPECT_EQ(c.rows[1].status, CompareStatus::fail);
  EXPECT_EQ(c.rows[1].tolerance, "absolute");  // the ci band of a zero std is empty
  EXPECT_EQ(c.rows[2].status, CompareStatus::pass);
  EXPECT_EQ(c.rows[3].status, CompareStatus::missing);
  EXPECT_FALSE(c.passed());
  EXPECT_TRUE(c.warnings.empty());

  const std::string table = format_comparison(c);
  EXPECT_NE(table.find("2 of 4 outside: summary/drops/queue_overflow, flows/Z/goodput_bps (missing)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("missing flows/Z/goodput_bps: no flow \"Z\""), std::string::npos) << table;
}

TEST(CompareRows, SeveralResultsCompareTheirMean) {
  const Reference ref = parse_reference(reference_doc(), ".");
  const Comparison c = compare(ref, {{"a", results_doc(900, 0, 40)}, {"b", results_doc(1100, 2, 60)}});
  EXPECT_TRUE(c.passed());
  EXPECT_EQ(*c.rows[0].measured, 1000.0);
  EXPECT_EQ(c.rows[0].n_measured, 2u);
  EXPECT_EQ(*c.rows[2].measured, 50.0);
  EXPECT_NE(format_comparison(c).find("3 of 3 metrics within tolerance"), std::string::npos);
  const auto j = comparison_to_json(c);
  EXPECT_EQ(j["passed"], true);
  EXPECT_EQ(j["rows"][0]["status"], "pass");
}

TEST(CompareRows, WarnsAboutAnotherScenario) {
  const Reference ref = parse_reference(reference_doc(), ".");
  json other = results_doc(1000, 0, 50);
  other["scenario"]["name"] = "star";
  const Comparison c = compare(ref, {{"other.json", other}});
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("other.json: results of scenario \"star\""), std::string::npos);
  EXPECT_TRUE(c.passed());
}

TEST(CompareRows, RejectsSomethingElseThanResults) {
  EXPECT_THROW(check_results_document(json::object(), "x.json"), ScenarioError);
  EXPECT_NO_THROW(check_results_document(results_doc(1, 1, 1), "x.json"));
}

}  // namespace
}  // namespace wmnsim
