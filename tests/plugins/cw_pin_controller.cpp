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

// Its one key, declared once: the parse reads it, the schema and the docs show it.
const CustomParameter& cw_min_key() {
  static const CustomParameter key({.key = "cw_min",
                                    .schema = {{"$ref", "#/$defs/window"}},
                                    .value = "a window: a power of two 1..32768",
                                    .description = "the window its `nodes` use from `start_s` to `stop_s`",
                                    .source = "tests only",
                                    .required = true,
                                    .example = "64"});
  return key;
}

control::ControllerEntry cw_pin_entry() {
  control::ControllerEntry e;
  e.name = "cw_pin";
  e.parse = [](JsonReader& r, control::ControllerParseContext& ctx) {
    CwPinParams p;
    if (const nlohmann::json* v = cw_min_key().get(r)) p.cw_min = ctx.check_window(*v, cw_min_key().path(r)).value_or(0);
    return std::any(p);
  };
  e.build = [](const ControllerConfig& c, control::ControlContext& ctx) { return std::make_unique<CwPin>(c, ctx); };
  e.summary = "test only: pins CWmin of its nodes";
  e.source = "tests only";
  e.parameters = {cw_min_key()};
  return e;
}

}  // namespace wmnsim::test
