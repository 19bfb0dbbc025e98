// Reference files and compare(): parsing with JSON paths, metric lookup, bands,
// verdicts, and the Student-t quantiles behind the "ci" tolerance.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "results/compare.hpp"
#include "results/provenance.hpp"
#include "results/reference.hpp"
#include "results/results.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using nlohmann::json;

json reference_doc();

json results_doc(double goodput, double overflow, double forwarded) {
  json r = {{"format", "wmnsim-results"}, {"scenario", {{"name", "chain"}}}};
  r["summary"] = {{"jain_fairness_index", nullptr}, {"drops", {{"queue_overflow", overflow}}}};
  r["flows"] = json::array({{{"id", "A->GW"}, {"goodput_bps", goodput}}, {{"id", "B->GW"}, {"goodput_bps", 1.0}}});
  r["nodes"] = json::array({{{"id", "B"}, {"forwarded", forwarded}}});
  return r;
}

// A reference made from results_doc()'s scenario: it records that scenario's hash.
json reference_doc() {
  json d = json::parse(R"({
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
  d["scenario_hash"] = scenario_hash(results_doc(0, 0, 0)["scenario"]);
  return d;
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

// The message of the ScenarioError compare() throws, or "" when it throws none.
std::string refusal(const Reference& ref, const std::vector<LabelledResults>& results, const CompareOptions& o = {}) {
  try {
    (void)compare(ref, results, o);
  } catch (const ScenarioError& e) {
    std::string all;
    for (const auto& i : e.issues()) {
      EXPECT_EQ(i.path, "");
      all += i.message + "\n";
    }
    return all;
  }
  return "";
}

TEST(CompareRows, RefusesAnotherScenarioWithoutItsDocumentByHash) {
  const Reference ref = parse_reference(reference_doc(), ".");  // chain.json is not there
  json other = results_doc(1000, 0, 50);
  other["scenario"]["name"] = "star";
  const std::string why = refusal(ref, {{"other.json", other}});
  EXPECT_NE(why.find("other.json: not made from the reference's scenario: the scenario differs from the "
                     "reference's (hash " + scenario_hash(other["scenario"]) + ", the reference's " +
                     *ref.scenario_hash + ")"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("(--allow-different-scenario compares anyway)"), std::string::npos) << why;
  const Comparison c = compare(ref, {{"other.json", other}}, {.allow_different_scenario = true});
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("other.json: not made from the reference's scenario, compared anyway: the scenario "
                               "differs"),
            std::string::npos)
      << c.warnings[0];
  EXPECT_TRUE(c.passed());
}

TEST(CompareRows, WithoutAHashNorItsScenarioItWarnsThatItCannotCheck) {
  json d = reference_doc();
  d.erase("scenario_hash");
  const Reference ref = parse_reference(d, ".");
  json other = results_doc(1000, 0, 50);
  other["scenario"]["name"] = "star";
  const Comparison c = compare(ref, {{"other.json", other}});
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[0].find("cannot check that the results were made from the reference's scenario: the "
                               "reference records no \"scenario_hash\" and its scenario \"./chain.json\" cannot "
                               "be read"),
            std::string::npos)
      << c.warnings[0];
  EXPECT_NE(c.warnings[1].find("other.json: results of scenario \"star\""), std::string::npos);
  EXPECT_TRUE(c.passed());
}

// A folder with a scenario file, and references of it written the way
// scripts/references.py generate writes them.
class CompareProvenance : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("wmnsim_provenance_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    scenario_ = {{"name", "chain"},
                 {"description", "two hops"},
                 {"simulation", {{"duration_s", 120}, {"seed", 1}}},
                 {"mac", {{"cw_min", 16}}},
                 {"outputs", {{"timeseries", json::array({"flow_goodput"})}}}};
    write_scenario(scenario_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void write_scenario(const json& doc) const { std::ofstream(dir_ / "chain.json") << doc.dump(2); }

  // The reference: chain.json with `overrides`, recording the hash and duration of
  // the scenario it was made from (unless `record` is false).
  Reference reference(const std::vector<std::string>& overrides, bool record = true) const {
    json d = reference_doc();
    d["overrides"] = overrides;
    d.erase("scenario_hash");
    if (record) {
      const json made_from = apply_overrides(scenario_, overrides);
      d["scenario_hash"] = scenario_hash(made_from);
      d["duration_s"] = made_from["simulation"]["duration_s"];
    }
    return parse_reference(d, dir_);
  }

  // Results of chain.json run with `overrides` and `seed`, as `wmnsim run` writes them.
  json results(const std::vector<std::string>& overrides, std::uint64_t seed = 1) const {
    json r = results_doc(1000, 0, 50);
    std::vector<std::string> all = overrides;
    all.push_back("/simulation/seed=" + std::to_string(seed));
    r["scenario"] = apply_overrides(scenario_, all);
    r["seed"] = seed;
    return r;
  }

  std::filesystem::path dir_;
  json scenario_;
};

TEST_F(CompareProvenance, TheHashCoversWhatIsSimulatedOnly) {
  const std::string h = scenario_hash(scenario_);
  EXPECT_EQ(h.size(), 16u);
  // The seed (recorded apart), the outputs and the comments do not count...
  EXPECT_EQ(scenario_hash(apply_overrides(scenario_, {"/simulation/seed=7"})), h);
  EXPECT_EQ(scenario_hash(apply_overrides(scenario_, {"/outputs/timeseries=[\"drops\"]"})), h);
  EXPECT_EQ(scenario_hash(apply_overrides(scenario_, {"/description=other words"})), h);
  // ... nor key order or how a number is spelt (an override writes 120, a file 120.0).
  EXPECT_EQ(scenario_hash(json::parse(R"({"mac": {"cw_min": 16.0}, "simulation": {"duration_s": 120.0},
                                          "name": "chain"})")),
            h);
  EXPECT_EQ(canonical_json(json::parse(R"({"b": [1.0, 0.5, -0.0], "a": "x"})")), R"({"a":"x","b":[1,0.5,0]})");
  // Everything else does.
  EXPECT_NE(scenario_hash(apply_overrides(scenario_, {"/mac/cw_min=32"})), h);
  EXPECT_NE(scenario_hash(apply_overrides(scenario_, {"/simulation/duration_s=20"})), h);
  EXPECT_NE(scenario_hash(apply_overrides(scenario_, {"/name=star"})), h);
  // The results file carries the same hash.
  Results r;
  r.scenario = nlohmann::ordered_json::parse(scenario_.dump());
  EXPECT_EQ(r.to_json()["scenario_hash"], h);
}

TEST_F(CompareProvenance, TheReferenceRecordsWhatItWasMadeFrom) {
  const Reference ref = reference({"/simulation/duration_s=30"});
  ASSERT_TRUE(ref.scenario_hash && ref.duration_s);
  EXPECT_EQ(*ref.duration_s, 30.0);
  EXPECT_EQ(ref.resolved_scenario["simulation"]["duration_s"], 30);
  EXPECT_EQ(ref.scenario_name, "chain");
  json d = reference_doc();
  d["scenario_hash"] = "3F2A";
  d["duration_s"] = 0;
  const auto issues = issues_of(d);
  EXPECT_TRUE(has_issue(issues, "/scenario_hash", "expected 16 lower-case hex digits"));
  EXPECT_TRUE(has_issue(issues, "/duration_s", "> 0"));
}

TEST_F(CompareProvenance, AcceptsResultsOfItsScenarioWhateverTheSeed) {
  const Reference ref = reference({"/simulation/duration_s=30"});
  const Comparison c = compare(ref, {{"s1.json", results({"/simulation/duration_s=30"}, 1)},
                                     {"s9.json", results({"/simulation/duration_s=30"}, 9)}});  // 9: not a reference seed
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.rows[0].n_measured, 2u);
  // A hand-written reference (no hash) is checked against its scenario file and overrides.
  EXPECT_EQ(refusal(reference({"/simulation/duration_s=30"}, false), {{"s1.json", results({"/simulation/duration_s=30"})}}),
            "");
}

TEST_F(CompareProvenance, RefusesAnotherDuration) {
  const Reference ref = reference({});
  const std::string why = refusal(ref, {{"short.json", results({"/simulation/duration_s=20"})}});
  EXPECT_EQ(why, "short.json: not made from the reference's scenario: the results are of a 20 s run, the reference "
                 "of 120 s (--allow-different-scenario compares anyway)\n");
  // The same without a recorded hash: from the scenario file and its overrides.
  EXPECT_EQ(refusal(reference({}, false), {{"short.json", results({"/simulation/duration_s=20"})}}), why);
  // A run stopped early says so.
  json partial = results({});
  partial["run"] = {{"partial", true}, {"simulated_time_s", 12.5}};
  EXPECT_NE(refusal(ref, {{"p.json", partial}}).find("the results are of a run stopped early at 12.5 s (partial "
                                                     "results)"),
            std::string::npos);
}

TEST_F(CompareProvenance, RefusesAnotherScenarioNamingTheFields) {
  const Reference ref = reference({"/simulation/duration_s=30"});
  const json other = results({"/simulation/duration_s=20", "/mac/cw_min=32"});
  const std::string why = refusal(ref, {{"cw.json", other}});
  EXPECT_EQ(why, "cw.json: not made from the reference's scenario: the results are of a 20 s run, the reference of "
                 "30 s; the scenario differs from the reference's (hash " +
                     scenario_hash(other["scenario"]) + ", the reference's " + *ref.scenario_hash +
                     "): /mac/cw_min is 32 in the results, 16 in the reference's "
                     "(--allow-different-scenario compares anyway)\n");
  // Allowed: compared, with what differs as a warning; Python names its argument.
  const Comparison c = compare(ref, {{"cw.json", other}}, {.allow_different_scenario = true});
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("cw.json: not made from the reference's scenario, compared anyway: the results are "
                               "of a 20 s run"),
            std::string::npos);
  EXPECT_EQ(c.rows.size(), 3u);
  EXPECT_NE(refusal(ref, {{"cw.json", other}}, {.allow_option = "allow_different_scenario=True"})
                .find("(allow_different_scenario=True compares anyway)"),
            std::string::npos);
  // Only the files made from something else are named.
  const std::string two = refusal(ref, {{"ok.json", results({"/simulation/duration_s=30"})}, {"cw.json", other}});
  EXPECT_EQ(two.find("ok.json"), std::string::npos);
  EXPECT_NE(two.find("cw.json"), std::string::npos);
}

TEST_F(CompareProvenance, SaysWhenTheScenarioFileChangedSinceTheReference) {
  const Reference before = reference({});
  json edited = scenario_;
  edited["mac"]["cw_min"] = 64;
  write_scenario(edited);
  json d = reference_doc();
  d["overrides"] = json::array();
  d["scenario_hash"] = *before.scenario_hash;
  const Reference ref = parse_reference(d, dir_);  // the same reference, its scenario edited since
  json now = results({});
  now["scenario"]["mac"]["cw_min"] = 64;
  const std::string why = refusal(ref, {{"now.json", now}});
  EXPECT_NE(why.find("the reference's scenario file with its overrides gives " + scenario_hash(edited) +
                     " now: it changed since the reference was made (regenerate the reference"),
            std::string::npos)
      << why;
  // Results of the scenario the reference was made from still match it.
  EXPECT_EQ(refusal(ref, {{"then.json", results({})}}), "");
}

TEST_F(CompareProvenance, RefusesOneRunTwice) {
  const Reference ref = reference({});
  const std::string why = refusal(ref, {{"a.json", results({}, 3)}, {"b.json", results({}, 3)}});
  EXPECT_EQ(why, "b.json: the same run as a.json (seed 3 of the same scenario): give each run once, or its mean "
                 "counts it twice\n");
  // Not even when other scenarios are allowed.
  EXPECT_NE(refusal(ref, {{"a.json", results({}, 3)}, {"b.json", results({}, 3)}}, {.allow_different_scenario = true}),
            "");
}

TEST(CompareBands, AreClippedToTheMetricsRange) {
  json d = reference_doc();
  d["metrics"] = json::array({
      // A starving flow's goodput: 1000 +- 5000 would reach -4000.
      {{"metric", "flows/A->GW/goodput_bps"}, {"mean", 1000}, {"tolerance", {{"absolute", 5000}}}},
      // A fraction near 1.
      {{"metric", "flows/A->GW/share"}, {"mean", 0.9}, {"tolerance", {{"absolute", 0.2}}}},
      // Jain's index of 2 flows is in [0.5, 1].
      {{"metric", "summary/jain_fairness_index"}, {"mean", 0.7}, {"tolerance", {{"absolute", 0.4}}}},
      // A count expected to be 0: the band cannot fail from below, and that says nothing.
      {{"metric", "summary/drops/queue_overflow"}, {"mean", 0}, {"tolerance", {{"absolute", 2}}}},
      // A tight band: untouched.
      {{"metric", "nodes/B/forwarded"}, {"mean", 50}, {"tolerance", {{"absolute", 5}}}},
  });
  const Reference ref = parse_reference(d, ".");
  json r = results_doc(0.0, 0, 50);
  r["flows"][0]["share"] = 1.0;
  r["summary"]["jain_fairness_index"] = 1.0000000000000002;  // one rounding above 1
  const Comparison c = compare(ref, {{"r.json", r}});
  ASSERT_EQ(c.rows.size(), 5u);
  EXPECT_EQ(c.rows[0].low, 0.0);
  EXPECT_EQ(c.rows[0].high, 6000.0);
  EXPECT_TRUE(c.rows[0].open_below);
  EXPECT_FALSE(c.rows[0].open_above);
  EXPECT_EQ(c.rows[0].status, CompareStatus::pass);  // 0: a starved flow, and the band cannot tell
  EXPECT_NEAR(c.rows[1].low, 0.7, 1e-12);
  EXPECT_EQ(c.rows[1].high, 1.0);
  EXPECT_TRUE(c.rows[1].open_above);
  EXPECT_EQ(c.rows[2].low, 0.5);
  EXPECT_EQ(c.rows[2].high, 1.0);
  EXPECT_TRUE(c.rows[2].open_below && c.rows[2].open_above);
  EXPECT_EQ(c.rows[2].status, CompareStatus::pass);  // the unclipped band decides
  EXPECT_EQ(c.rows[3].low, 0.0);
  EXPECT_FALSE(c.rows[3].open_below);
  EXPECT_EQ(c.rows[4].low, 45.0);
  EXPECT_FALSE(c.rows[4].open_below || c.rows[4].open_above);

  const std::string table = format_comparison(c);
  EXPECT_NE(table.find("[0, 6000]"), std::string::npos) << table;
  EXPECT_NE(table.find("note: flows/A->GW/goodput_bps: the band reaches 0, the least the metric can be: it cannot "
                       "fail from below"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("note: flows/A->GW/share: the band reaches 1, the most the metric can be: it cannot fail "
                       "from above"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("note: summary/jain_fairness_index: the band reaches both ends of the metric's range: it "
                       "cannot fail from either side"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("note: summary/drops"), std::string::npos) << table;
  const auto j = comparison_to_json(c);
  EXPECT_EQ(j["rows"][0]["open_below"], true);
  EXPECT_EQ(j["rows"][4]["open_above"], false);
}

TEST(CompareBands, KnowEachMetricsRange) {
  const json r = results_doc(1, 1, 1);  // two flows
  const auto range = [&](const char* m) {
    const MetricRange x = metric_range(m, r);
    return std::pair{x.low, x.high};
  };
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(range("summary/jain_fairness_index"), std::pair(0.5, 1.0));
  EXPECT_EQ(range("summary/total_goodput_bps"), std::pair(0.0, inf));
  EXPECT_EQ(range("summary/drops/retry_limit"), std::pair(0.0, inf));
  EXPECT_EQ(range("summary/packets/delivered"), std::pair(0.0, inf));
  EXPECT_EQ(range("summary/max_fair_ratio"), std::pair(0.0, inf));  // a flow can get more than its share
  EXPECT_EQ(range("flows/A->GW/share"), std::pair(0.0, 1.0));
  EXPECT_EQ(range("flows/A->GW/delay_p95_s"), std::pair(0.0, inf));
  EXPECT_EQ(range("flows/A->GW/lost_packets"), std::pair(0.0, inf));
  EXPECT_EQ(range("nodes/B/channel_busyness_ns2"), std::pair(0.0, 1.0));
  EXPECT_EQ(range("nodes/B/drops_queue_overflow"), std::pair(0.0, inf));
  EXPECT_EQ(range("radios/R9:1/mac_service_delay_mean_s"), std::pair(0.0, inf));
  EXPECT_EQ(range("nodes/B/something_new"), std::pair(-inf, inf));  // unknown: not bounded
  EXPECT_EQ(metric_range("summary/jain_fairness_index", json::object()).low, 0.0);  // no flows table
}

TEST(CompareRows, RejectsSomethingElseThanResults) {
  EXPECT_THROW(check_results_document(json::object(), "x.json"), ScenarioError);
  EXPECT_NO_THROW(check_results_document(results_doc(1, 1, 1), "x.json"));
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
