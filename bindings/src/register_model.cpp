// The analytical models (control/), as JSON text across the boundary:
//   starvation_model(params) -> result   params: a JSON object of
//       StarvationModelParams fields; result: analysis/starvation_report.hpp's document
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
}

}  // namespace wmnsim::py
