#include "control/counter_starvation_params.hpp"

#include <algorithm>

#include "control/counter_starvation.hpp"

namespace wmnsim::control {

namespace {

struct CounterStarvationKeys {
  NumberParameter cw_min_factor;
  CustomParameter cw_min;
  CustomParameter gateways;
  CustomParameter access_categories;
};

const CounterStarvationKeys& counter_starvation_keys() {
  static const CounterStarvationKeys k{
      // At most 32768, the largest window over the smallest (check_window: powers of
      // two 1..32768): a larger factor raises every window beyond any the MAC may use,
      // and factor x CWmin must stay an int (a factor of 1e300 was an internal error).
      NumberParameter({.key = "cw_min_factor",
                       .range = NumberRange::closed(2, 32768),
                       .fallback = CounterStarvationParams{}.cw_min_factor,
                       .description = "the gateways' neighbours use their CWmin times this",
                       .source = "000 Sec. 5.6: \"a factor of at least two\"; Sec. 6: 32 -> 128"}),
      CustomParameter({.key = "cw_min",
                       .schema = {{"$ref", "#/$defs/window"}},
                       .value = "a window: a power of two 1..32768",
                       .description = "an absolute window instead of the factor; under dcf at least twice /mac's",
                       .source = "000 Sec. 6: 128"}),
      CustomParameter({.key = "gateways",
                       .schema = {{"$ref", "#/$defs/node_list"}},
                       .value = "a list of gateway ids",
                       .description = "whose one-hop neighbours (found from the routing) are raised; only the "
                                      "radio of the hop to the gateway changes; default: every gateway",
                       .source = "000 Sec. 5.6"}),
      CustomParameter({.key = "access_categories",
                       .schema = {{"type", "array"},
                                  {"minItems", 1},
                                  {"uniqueItems", true},
                                  {"items", {{"enum", enum_names(names(kAccessCategories))}}}},
                       .value = "a list of access categories",
                       .description = "edca only: the categories whose CWmin is raised; default: all",
                       .source = "ours (000 studies DCF)"}),
  };
  return k;
}

CounterStarvationParams parse_counter_starvation(JsonReader& r, ControllerParseContext& ctx) {
  const CounterStarvationKeys& k = counter_starvation_keys();
  CounterStarvationParams p;
  p.cw_min_factor = k.cw_min_factor.read_or(r);
  if (const nlohmann::json* v = k.cw_min.get(r)) p.cw_min = ctx.check_window(*v, k.cw_min.path(r));
  if (r.has(k.cw_min.key) && r.has(k.cw_min_factor.key)) {
    ctx.issues().add(k.cw_min.path(r), "give either cw_min or cw_min_factor, not both");
  }
  const int base = ctx.mac().params.cw_min;
  if (p.cw_min && ctx.mac().type == MacType::dcf && *p.cw_min < 2 * base) {
    ctx.issues().add(k.cw_min.path(r), "cw_min " + std::to_string(*p.cw_min) +
                                           " is less than twice the scenario's cw_min (" + std::to_string(base) +
                                           "); the policy needs at least " + std::to_string(2 * base));
  }
  const std::string& acs = k.access_categories.key;
  if (const nlohmann::json* list = r.array(acs)) {
    if (ctx.mac().type != MacType::edca) {
      ctx.issues().add(r.path_of(acs),
                       "DCF has a single category; omit \"access_categories\" or set \"type\": \"edca\" in /mac");
    } else if (list->empty()) {
      ctx.issues().add(r.path_of(acs), "the list is empty; omit it to raise CWmin in every category");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_join(r.path_of(acs), i);
      const auto ac = check_enum((*list)[i], path, ctx.issues(), names(kAccessCategories));
      if (!ac) continue;
      if (std::find(p.access_categories.begin(), p.access_categories.end(), *ac) != p.access_categories.end()) {
        ctx.issues().add(path, "\"" + std::string(to_string(*ac)) + "\" is listed twice");
        continue;
      }
      p.access_categories.push_back(*ac);
    }
  }
  p.gateways = node_list(r, k.gateways.key, true, ctx).value_or(gateways(ctx));
  if (p.gateways.empty() && !r.has(k.gateways.key)) {
    ctx.issues().add(r.path_of("type"),
                     "\"counter_starvation\" acts around gateways, and no node has \"role\": \"gateway\"");
  }
  r.forbid("nodes", "does not apply to \"counter_starvation\": it acts on the neighbours of \"gateways\"");
  return p;
}

}  // namespace

ControllerEntry counter_starvation_entry() {
  const CounterStarvationKeys& k = counter_starvation_keys();
  ControllerEntry e;
  e.name = "counter_starvation";
  e.acts_on_nodes = false;
  e.parse = [](JsonReader& r, ControllerParseContext& ctx) { return std::any(parse_counter_starvation(r, ctx)); };
  e.build = [](const ControllerConfig& c, ControlContext& ctx) { return std::make_unique<CounterStarvation>(c, ctx); };
  e.summary = "the one-hop neighbours of the gateways raise their CWmin, by `cw_min_factor` or to `cw_min` "
              "(000 uses 128 against 32); under edca in the categories `access_categories` names";
  e.source = "000 Sec. 5.6";
  e.parameters = {k.cw_min_factor, k.cw_min, k.gateways, k.access_categories};
  e.schema_rules = {{"not", {{"required", nlohmann::ordered_json::array({k.cw_min.key, k.cw_min_factor.key})}}}};
  return e;
}

}  // namespace wmnsim::control
