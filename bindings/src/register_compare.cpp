// Comparing results with a reference file: the command line's compare()
// (results/compare.hpp), so Python prints the same table and the same messages.

#include <pybind11/stl.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "results/compare.hpp"
#include "results/provenance.hpp"
#include "results/reference.hpp"
#include "results_document.hpp"

namespace wmnsim::py {

namespace {

// A reference from a file (its folder resolves "scenario") or from JSON text (the
// current folder does).
Reference reference_of(const std::string& reference, bool is_path) {
  if (is_path) return load_reference_file(reference);
  return parse_reference(parse_document(reference), std::filesystem::current_path());
}

// Each results item is a ResultsDocument or a path; labels name them in messages.
std::vector<LabelledResults> results_of(const pyb::list& results, const std::vector<std::string>& labels) {
  std::vector<LabelledResults> out;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const pyb::handle item = results[i];
    const std::string label = i < labels.size() ? labels[i] : "results " + std::to_string(i + 1);
    nlohmann::json doc;
    if (pyb::isinstance<ResultsDocument>(item)) {
      // ordered_json -> json: the same values, key order does not matter here.
      doc = nlohmann::json::parse(item.cast<const ResultsDocument&>().json.dump());
    } else {
      doc = read_json_input(item.cast<std::string>(), "results file");
    }
    check_results_document(doc, label);
    out.push_back({label, std::move(doc)});
  }
  return out;
}

// {"json": comparison_to_json() as text (Python loads it), "table": the command
// line's table}.
pyb::dict compare_py(const std::string& reference, bool reference_is_path, const pyb::list& results,
                     const std::vector<std::string>& labels, bool allow_different_scenario) {
  const Reference ref = reference_of(reference, reference_is_path);
  const Comparison c = compare(ref, results_of(results, labels),
                               CompareOptions{.allow_different_scenario = allow_different_scenario,
                                              .allow_option = "allow_different_scenario=True"});
  pyb::dict out;
  out["json"] = comparison_to_json(c).dump(2);  // indented: what `wmnsim compare --json` prints
  out["table"] = format_comparison(c);
  return out;
}

}  // namespace

void register_compare(pyb::module_& m) {
  m.def("compare", &compare_py, pyb::arg("reference"), pyb::arg("reference_is_path"), pyb::arg("results"),
        pyb::arg("labels"), pyb::arg("allow_different_scenario") = false,
        "Compares results (ResultsDocument objects or paths) with a reference (a path, or JSON text); "
        "returns {'json': rows as JSON text, 'table': the CLI's table}. Raises ScenarioError for "
        "invalid input, and for results made from another scenario or duration than the reference's "
        "unless allow_different_scenario.");
  m.def(
      "scenario_hash", [](const std::string& scenario) { return scenario_hash(parse_document(scenario)); },
      pyb::arg("scenario"),
      "The hash of a scenario document (JSON text) as results files and references record it "
      "(results/provenance.hpp): 16 hex digits.");
}

}  // namespace wmnsim::py
