#include "cli/fragments_command.hpp"
#include "cli/command_line.hpp"  // kExitInvalidInput

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "results/result_columns.hpp"
#include "scenario/registries.hpp"
#include "scenario/scenario_fragments.hpp"

namespace wmnsim::cli {

namespace {

constexpr int kExitOutOfSync = 3;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!(out << text)) throw std::runtime_error("cannot write " + path);
}

}  // namespace

FragmentsCommand::FragmentsCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "fragments", "Check (or --write) the registry-owned parts of the scenario schema and docs/scenario.md");
  command_->add_option("schema", schema_, "scenarios/schema/scenario.schema.json")->required();
  command_->add_option("doc", doc_, "docs/scenario.md")->required();
  command_->add_option("prose", prose_, "docs whose <!--default:...--> values are generated (docs/controllers.md ...)");
  command_->add_option("--results", results_, "docs/results.md, whose column tables are generated");
  command_->add_flag("--write", write_, "Rewrite the files from the registries instead of checking them");
}

int FragmentsCommand::run() const {
  const Registries registries;
  std::string schema_text, doc_text;
  std::vector<std::string> prose_texts;
  std::string results_text;
  nlohmann::ordered_json schema;
  try {
    schema_text = read_text(schema_);
    doc_text = read_text(doc_);
    for (const std::string& path : prose_) prose_texts.push_back(read_text(path));
    if (!results_.empty()) results_text = read_text(results_);
    schema = nlohmann::ordered_json::parse(schema_text);
  } catch (const std::exception& e) {
    std::cerr << "wmnsim fragments: " << e.what() << '\n';
    return kExitInvalidInput;
  }
  nlohmann::ordered_json composed;
  std::string composed_doc;
  std::vector<std::string> composed_prose;
  std::string composed_results;
  try {
    composed = compose_schema(schema, registries);
    composed_doc = compose_doc(doc_text, registries);
    for (const std::string& text : prose_texts) composed_prose.push_back(compose_defaults(text, registries));
    if (!results_.empty()) composed_results = compose_result_tables(results_text);
  } catch (const std::exception& e) {  // a file without the places the fragments go, or of another shape
    std::cerr << "wmnsim fragments: " << e.what() << '\n';
    return kExitInvalidInput;
  }
  // The schema is compared as JSON (its hand-written formatting may differ from
  // nlohmann's); the doc as text.
  const bool schema_ok = nlohmann::json::parse(composed.dump()) == nlohmann::json::parse(schema.dump());
  const bool doc_ok = composed_doc == doc_text;
  bool prose_ok = true;
  for (std::size_t i = 0; i < prose_.size(); ++i) {
    if (composed_prose[i] == prose_texts[i]) continue;
    prose_ok = false;
    if (write_) {
      write_text(prose_[i], composed_prose[i]);
    } else {
      std::cerr << prose_[i] << ": a <!--default:...--> value differs from its declaration; run `wmnsim fragments "
                << "--write` with the same files\n";
    }
  }
  const bool results_ok = composed_results == results_text;
  if (!results_ok && !write_) {
    std::cerr << results_ << ": a <!-- columns:... --> table differs from the result columns; run `wmnsim "
              << "fragments --write` with the same files\n";
  }
  if (write_) {
    if (!results_ok) write_text(results_, composed_results);
    if (!schema_ok) write_text(schema_, composed.dump(2) + "\n");
    if (!doc_ok) write_text(doc_, composed_doc);
    return 0;
  }
  if (!schema_ok) {
    std::cerr << schema_ << ": its controllers, transports or queue disciplines differ from the registries' "
              << "fragments; run `wmnsim fragments --write " << schema_ << " " << doc_ << "`\n";
  }
  if (!doc_ok) {
    std::cerr << doc_ << ": a <!-- registry:... --> region differs from the registries' fragments; run "
              << "`wmnsim fragments --write " << schema_ << " " << doc_ << "`\n";
  }
  return schema_ok && doc_ok && prose_ok && results_ok ? 0 : kExitOutOfSync;
}

}  // namespace wmnsim::cli
