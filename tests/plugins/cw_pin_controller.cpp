#include "tests/plugins/cw_pin_controller.hpp"

namespace wmnsim::test {

CwPin::CwPin(const ControllerConfig& config, control::ControlContext& context)
    : Controller(config, context), params_(config.params_as<CwPinParams>()) {}

void CwPin::start() {
  for (const std::size_t n : config().nodes) {
    for (mac::Mac* mac : context().macs.at(n)) {
      pinned_.push_back({mac, mac->params(AccessCategory::ac_be).cw_min});
      mac->set_cw_min(AccessCategory::ac_be, params_.cw_min);
    }
  }
}

void CwPin::on_stop() {
  for (const Pinned& p : pinned_) p.mac->set_cw_min(AccessCategory::ac_be, p.cw_min_before);
}

nlohmann::ordered_json CwPin::statistics() const { return {{"pinned_radios", pinned_.size()}}; }

control::ControllerEntry cw_pin_entry() {
  control::ControllerEntry e;
  e.name = "cw_pin";
  e.parse = [](JsonReader& r, control::ControllerParseContext& ctx) {
    CwPinParams p;
    if (const nlohmann::json* v = r.get("cw_min", Need::required, "64")) {
      p.cw_min = ctx.check_window(*v, r.path_of("cw_min")).value_or(0);
    }
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, control::ControlContext& ctx) { return std::make_unique<CwPin>(c, ctx); };
  e.schema = R"json({
    "description": "test only: pins CWmin of its nodes",
    "properties": {"cw_min": {"$ref": "#/$defs/window", "description": "the pinned window"}},
    "required": ["cw_min"]
  })json";
  e.doc = "| `cw_pin` | tests only | `cw_min` (required): the window its `nodes` use from `start_s` to `stop_s` |";
  return e;
}

}  // namespace wmnsim::test
