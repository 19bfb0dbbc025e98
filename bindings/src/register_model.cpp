// The analytical models (control/), as JSON text across the boundary:
//   starvation_model(params) -> result   params: a JSON object of
//       StarvationModelParams fields; result: analysis/starvation_report.hpp's document
//   capacity_model(document, at_s, mac_capacity_bps) -> report   document: a scenario as
//       JSON text; report: analysis/capacity_report.hpp's document (001 App. A)
// Bad parameters raise ValueError (std::invalid_argument); a scenario that cannot be
// built raises ScenarioError or NotSupportedError, as `wmnsim model capacity` reports them.

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "control/starvation_model.hpp"
#include "analysis/capacity_report.hpp"
#include "analysis/starvation_report.hpp"
#include "scenario/scenario.hpp"

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
      "capacity_model",
      [](const std::string& document, std::optional<double> at_s, std::optional<double> mac_capacity_bps) {
        if (at_s && !(std::isfinite(*at_s) && *at_s >= 0.0)) {
          throw std::invalid_argument("capacity model: at must be a time in seconds >= 0, got " +
                                      std::to_string(*at_s));
        }
        const Scenario s = parse_scenario(parse_document(document));
        CapacityReportOptions options;
        if (at_s) options.at = Time::from_seconds(*at_s);
        options.capacity.mac_capacity_bps = mac_capacity_bps;
        pyb::gil_scoped_release release;  // builds the PHY and the routing
        return capacity_report(s, options).dump();
      },
      pyb::arg("document"), pyb::arg("at_s") = pyb::none(), pyb::arg("mac_capacity_bps") = pyb::none());
}

}  // namespace wmnsim::py
