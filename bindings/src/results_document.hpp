#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace wmnsim::py {

// A results file's JSON: from a run (Results::to_json()) or read from a file.
struct ResultsDocument {
  nlohmann::ordered_json json;
  std::string file_text() const;  // json.dump(2) + "\n", what the CLI writes
};

}  // namespace wmnsim::py
