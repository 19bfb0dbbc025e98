// The analytical models (control/), as JSON text across the boundary:
//   starvation_model(params) -> result   params: a JSON object of
//       StarvationModelParams fields; result: analysis/starvation_report.hpp's document
//   starvation_report(rows, as_json) -> the text `wmnsim model starvation` prints
// Bad parameters raise ValueError (std::invalid_argument).

#include <string>
#include <vector>

#include "bindings.hpp"
#include "control/starvation_model.hpp"
#include "analysis/starvation_report.hpp"

namespace wmnsim::py {

namespace {

nlohmann::ordered_json parse_ordered(const std::string& text) {
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace

void register_model(pyb::module_& m) {
  m.def(
      "starvation_model",
      [](const std::string& params) {
        const control::StarvationModelParams p = starvation_params_from_json(parse_ordered(params));
        control::StarvationModelResult r;
        {
          pyb::gil_scoped_release release;  // pure C++ from here
          r = control::solve_starvation_model(p);
        }
        return starvation_to_json(p, r).dump();
      },
      pyb::arg("params"));
  m.def(
      "starvation_report",
      [](const std::string& rows, bool as_json) {
        const nlohmann::ordered_json doc = parse_ordered(rows);
        if (!doc.is_array()) throw std::invalid_argument("starvation_report: rows must be a JSON list");
        const std::vector<nlohmann::ordered_json> list(doc.begin(), doc.end());
        if (as_json) return nlohmann::ordered_json(list).dump(2) + "\n";
        return format_starvation_table(list);
      },
      pyb::arg("rows"), pyb::arg("as_json") = false);
}

}  // namespace wmnsim::py
