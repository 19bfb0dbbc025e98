#include "cli/compare_command.hpp"
#include "cli/command_line.hpp"  // kExitInvalidInput

#include <iostream>

#include "results/compare.hpp"
#include "results/reference.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim::cli {

namespace {

constexpr int kExitOutside = 3;

// As `wmnsim validate` prints them: "FILE: /json/pointer: message".
void print_compare_issues(const std::string& file, const ScenarioError& e) {
  for (const auto& issue : e.issues()) {
    if (issue.path.empty()) {
      std::cerr << issue.message << '\n';
    } else {
      std::cerr << file << ": " << issue.path << ": " << issue.message << '\n';
    }
  }
}

}  // namespace

CompareCommand::CompareCommand(CLI::App& app) {
  command_ = app.add_subcommand("compare", "Check results files against a reference file (docs/references.md)");
  command_->add_option("files", files_,
                       "Results JSON files (several seeds: their mean is compared), then the reference file "
                       "unless --reference is given")
      ->required();
  command_->add_option("--reference", reference_, "The reference file (else the last positional file)");
  command_->add_flag("--json", json_, "Print the rows as JSON instead of a table");
  command_->add_flag("--allow-different-scenario", allow_different_scenario_,
                     "Compare results made from another scenario or duration than the reference's (what differs "
                     "is printed as a warning) instead of refusing them");
}

int CompareCommand::run() const {
  std::vector<std::string> results_files = files_;
  std::string reference_file = reference_;
  if (reference_file.empty()) {
    if (results_files.size() < 2) {
      std::cerr << "compare: give at least one results file and a reference file "
                   "(wmnsim compare RESULTS... REFERENCE)\n";
      return kExitInvalidInput;
    }
    reference_file = results_files.back();
    results_files.pop_back();
  }

  Reference reference;
  try {
    reference = load_reference_file(reference_file);
  } catch (const ScenarioError& e) {
    print_compare_issues(reference_file, e);
    return kExitInvalidInput;
  }

  // Every results file is read before any comparing, so one bad file is reported
  // on its own, not as a table of missing metrics.
  std::vector<LabelledResults> results;
  int status = 0;
  for (const std::string& file : results_files) {
    try {
      nlohmann::json doc = read_json_input(file, "results file");
      check_results_document(doc, file);
      results.push_back({file, std::move(doc)});
    } catch (const ScenarioError& e) {
      print_compare_issues(file, e);
      status = kExitInvalidInput;
    }
  }
  if (status != 0) return status;

  Comparison comparison;
  try {
    comparison = compare(reference, results, CompareOptions{.allow_different_scenario = allow_different_scenario_});
  } catch (const ScenarioError& e) {
    print_compare_issues(reference_file, e);  // results of another scenario: messages naming each file
    return kExitInvalidInput;
  }
  if (json_) {
    std::cout << comparison_to_json(comparison).dump(2) << '\n';
  } else {
    std::cout << format_comparison(comparison);
  }
  return comparison.passed() ? 0 : kExitOutside;
}

}  // namespace wmnsim::cli
