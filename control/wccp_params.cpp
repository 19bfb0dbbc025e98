#include "control/wccp_params.hpp"

namespace wmnsim::control {

ControllerEntry wccp_entry() {
  ControllerEntry e;
  e.name = "wccp";
  e.parse = [](JsonReader& r, ControllerParseContext&) {
    WccpControllerParams p;
    p.busyness_threshold = fraction(r, "busyness_threshold", 0.92);
    p.alpha = fraction(r, "alpha", 0.1);
    return std::any(p);
  };
  e.schema = R"json({
  "description": "003: in-network half of WCCP; added with these defaults when wccp flows exist",
  "properties": {
    "busyness_threshold": {
      "type": "number",
      "description": "th_b",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.92
    },
    "alpha": {
      "type": "number",
      "description": "alpha",
      "exclusiveMinimum": 0,
      "exclusiveMaximum": 1,
      "default": 0.1
    }
  }
})json";
  e.doc =
      R"md(| `wccp` | 003 Sec. III | `busyness_threshold` th_b (0.92), `alpha` (0.1). Added with these defaults on every node when a flow uses wccp and no `wccp` controller is listed |)md";
  return e;
}

}  // namespace wmnsim::control
