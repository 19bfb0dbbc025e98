#include "control/counter_starvation_params.hpp"

#include <algorithm>

#include "control/counter_starvation.hpp"

namespace wmnsim::control {

namespace {

CounterStarvationParams parse(JsonReader& r, ControllerParseContext& ctx) {
  CounterStarvationParams p;
  // 000 Sec. 5.6: "a factor of at least two greater than all other nodes".
  p.cw_min_factor = r.number_or("cw_min_factor", 4.0, NumberRange::at_least(2));
  if (const nlohmann::json* v = r.get("cw_min")) p.cw_min = ctx.check_window(*v, r.path_of("cw_min"));
  if (r.has("cw_min") && r.has("cw_min_factor")) {
    ctx.issues().add(r.path_of("cw_min"), "give either cw_min or cw_min_factor, not both");
  }
  const int base = ctx.mac().params.cw_min;
  if (p.cw_min && ctx.mac().type == MacType::dcf && *p.cw_min < 2 * base) {
    ctx.issues().add(r.path_of("cw_min"), "cw_min " + std::to_string(*p.cw_min) +
                                              " is less than twice the scenario's cw_min (" +
                                              std::to_string(base) + "); the policy needs at least " +
                                              std::to_string(2 * base));
  }
  if (const nlohmann::json* list = r.array("access_categories")) {
    if (ctx.mac().type != MacType::edca) {
      ctx.issues().add(r.path_of("access_categories"),
                       "DCF has a single category; omit \"access_categories\" or set \"type\": \"edca\" in /mac");
    } else if (list->empty()) {
      ctx.issues().add(r.path_of("access_categories"), "the list is empty; omit it to raise CWmin in every category");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_join(r.path_of("access_categories"), i);
      const auto ac = check_enum((*list)[i], path, ctx.issues(), names(kAccessCategories));
      if (!ac) continue;
      if (std::find(p.access_categories.begin(), p.access_categories.end(), *ac) != p.access_categories.end()) {
        ctx.issues().add(path, "\"" + std::string(to_string(*ac)) + "\" is listed twice");
        continue;
      }
      p.access_categories.push_back(*ac);
    }
  }
  p.gateways = node_list(r, "gateways", true, ctx).value_or(gateways(ctx));
  if (p.gateways.empty() && !r.has("gateways")) {
    ctx.issues().add(r.path_of("type"),
                     "\"counter_starvation\" acts around gateways, and no node has \"role\": \"gateway\"");
  }
  r.forbid("nodes", "does not apply to \"counter_starvation\": it acts on the neighbours of \"gateways\"");
  return p;
}

}  // namespace

ControllerEntry counter_starvation_entry() {
  ControllerEntry e;
  e.name = "counter_starvation";
  e.acts_on_nodes = false;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse(r, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<CounterStarvation>(c, ctx); };
  e.schema = R"json({
  "description": "000: gateway neighbours raise CWmin",
  "properties": {
    "cw_min_factor": {
      "type": "number",
      "description": "the gateways' neighbours use cw_min x this",
      "minimum": 2,
      "default": 4
    },
    "cw_min": {
      "$ref": "#/$defs/window",
      "description": "absolute window instead of the factor (000: 128)"
    },
    "gateways": {
      "$ref": "#/$defs/node_list",
      "description": "whose one-hop neighbours; default: every gateway"
    },
    "access_categories": {
      "type": "array",
      "minItems": 1,
      "uniqueItems": true,
      "items": {
        "enum": [
          "ac_bk",
          "ac_be",
          "ac_vi",
          "ac_vo"
        ]
      },
      "description": "edca only: the categories whose CWmin is raised; default: all"
    }
  },
  "not": {
    "required": [
      "cw_min",
      "cw_min_factor"
    ]
  }
})json";
  e.doc =
      R"md(| `counter_starvation` | 000 Sec. 5.6 | the one-hop neighbours of `gateways` (every gateway), found from the routing, use `cw_min_factor` (4) times their CWmin, or an absolute `cw_min` window, at least twice /mac's under dcf (000 uses 128 against 32); only the radio of the hop to the gateway changes; edca: `access_categories` (default: all) picks the categories raised; no `nodes` |)md";
  return e;
}

}  // namespace wmnsim::control
