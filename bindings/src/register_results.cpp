// The results document (docs/results.md) as the command line writes it. Kept as
// nlohmann's ordered JSON on the C++ side, so that Result.to_json(path) writes the
// very bytes `wmnsim run -o` writes, and a CLI file loaded and saved again is
// unchanged.

#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "results_document.hpp"
#include "runner/flow_table.hpp"

namespace wmnsim::py {

namespace {

ResultsDocument from_text(const std::string& text) {
  try {
    return ResultsDocument{nlohmann::ordered_json::parse(text)};
  } catch (const nlohmann::json::exception& e) {
    throw pyb::value_error(std::string("not a results document: ") + e.what());
  }
}

// The parts of Results that the CSV and the flow table read.
Results tables_of(const ResultsDocument& doc) {
  Results r;
  if (const auto it = doc.json.find("flows"); it != doc.json.end() && it->is_array()) {
    for (const auto& f : *it) r.flows.push_back(f);
  }
  if (const auto it = doc.json.find("summary"); it != doc.json.end() && it->is_object()) r.summary = *it;
  return r;
}

}  // namespace

std::string ResultsDocument::file_text() const { return json.dump(2) + "\n"; }

static void write_atomically(const std::string& path, const std::string& content) {
  try {
    write_file_atomically(path, content);
  } catch (const std::runtime_error& e) {
    PyErr_SetString(PyExc_OSError, e.what());
    throw pyb::error_already_set();
  }
}

void register_results(pyb::module_& m) {
  m.def("write_file_atomically", &write_atomically, pyb::arg("path"), pyb::arg("content"),
        "Writes a file as the command line does: a temporary file renamed into place; OSError on failure.");
  pyb::class_<ResultsDocument>(m, "ResultsDocument",
                               "A results document held in C++ with its key order and number formatting.")
      .def_static("from_text", &from_text, pyb::arg("text"),
                  "Parses JSON text (key order kept); raises ValueError on malformed JSON.")
      .def(
          "text", [](const ResultsDocument& d, int indent) { return d.json.dump(indent); },
          pyb::arg("indent") = -1, "The document as JSON text (compact with indent=-1).")
      .def("file_text", &ResultsDocument::file_text, "Exactly what `wmnsim run -o FILE` writes.")
      .def(
          "write",
          [](const ResultsDocument& d, const std::string& path) { write_atomically(path, d.file_text()); },
          pyb::arg("path"), "Writes file_text() atomically (temporary file, then rename); OSError on failure.")
      .def(
          "flows_csv", [](const ResultsDocument& d) { return tables_of(d).flows_csv(); },
          "The per-flow table as `wmnsim run --csv` writes it.")
      .def(
          "flow_table", [](const ResultsDocument& d, bool wide) { return format_flow_table(tables_of(d), wide); },
          pyb::arg("wide") = false, "The per-flow table as `wmnsim run` prints it (wide: as `--wide`).")
      .def(
          "timeseries_csv", [](const ResultsDocument& d) { return timeseries_csv(d.json); },
          "The time series as CSV, as `wmnsim run` writes outputs.timeseries_file.")
      .def(
          "without_timeseries",
          [](const ResultsDocument& d) {
            ResultsDocument out{d.json};
            out.json["timeseries"] = nlohmann::ordered_json::object();
            return out;
          },
          "A copy with no time series (what `wmnsim run` writes when they go to outputs.timeseries_file).");
}

}  // namespace wmnsim::py
