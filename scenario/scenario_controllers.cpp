// Controllers: one object per controller, chosen by "type" among the registered
// entries (control/controller_registry.hpp). This file reads the keys every
// controller has; the entry reads its own. Every default is the value the
// controller's paper used.

#include <algorithm>

#include "mac/edca_params.hpp"
#include "scenario/scenario_parse.hpp"

namespace wmnsim::scenario_detail {

namespace {

// The scenario as a controller entry may see it while it parses.
class EntryContext final : public control::ControllerParseContext {
 public:
  explicit EntryContext(ParseContext& ctx) : ctx_(ctx) {}
  IssueSink& issues() override { return ctx_.issues; }
  const MacSection& mac() const override { return ctx_.scenario.mac; }
  std::size_t node_count() const override { return ctx_.scenario.nodes.size(); }
  const std::string& node_id(std::size_t node) const override { return ctx_.scenario.nodes[node].id; }
  NodeRole node_role(std::size_t node) const override { return ctx_.scenario.nodes[node].role; }
  std::optional<std::size_t> resolve_node(const nlohmann::json& v, const std::string& path) override {
    return ctx_.nodes.resolve(v, path, ctx_.issues);
  }
  std::optional<std::size_t> resolve_flow(const nlohmann::json& v, const std::string& path) override {
    return ctx_.flows.resolve(v, path, ctx_.issues);
  }
  std::size_t flow_count() const override { return ctx_.scenario.flows.size(); }
  std::optional<int> check_window(const nlohmann::json& v, const std::string& path) override {
    return scenario_detail::check_window(v, path, ctx_.issues);
  }

 private:
  ParseContext& ctx_;
};

void parse_controller(JsonReader r, std::size_t index, ParseContext& ctx) {
  const control::ControllerRegistry& registry = ctx.registries.controllers;
  ControllerConfig c;
  const nlohmann::json* type = r.get("type", Need::required, "\"counter_starvation\"");
  const auto i = type != nullptr ? check_choice(*type, r.path_of("type"), ctx.issues, registry.names())
                                 : std::nullopt;
  if (!i) {
    // Without a type the other keys cannot be judged; report the one real problem.
    r.ignore_unknown_keys();
    return;
  }
  const control::ControllerEntry& entry = registry.entries()[*i];
  c.type = entry.name;
  if (const auto id = r.string("id")) {
    c.id = *id;
    if (!valid_id(*id)) {
      ctx.issues.add(r.path_of("id"), "invalid controller id \"" + *id +
                                          "\": use letters, digits, '_', '-' and '.' only");
    } else {
      ctx.controllers.define(*id, index, r.path(), r.path_of("id"), ctx.issues);
    }
  } else {
    c.id = c.type + "#" + std::to_string(index);  // '#' never clashes with a given id
  }
  c.start = r.seconds_or("start_s", Time::zero(), NumberRange::non_negative());
  c.stop = r.seconds("stop_s", NumberRange::positive());
  if (c.stop && *c.stop <= c.start) {
    ctx.issues.add(r.path_of("stop_s"), "stop_s must be after start_s");
  }
  EntryContext entry_ctx(ctx);
  if (entry.acts_on_nodes) {
    c.nodes = control::node_list(r, "nodes", false, entry_ctx).value_or(control::wireless_nodes(entry_ctx));
  }
  if (entry.parse) c.params = entry.parse(r, entry_ctx);
  r.finish();
  ctx.scenario.controllers.push_back(std::move(c));
}

// A controller that tunes EDCA on a scenario written for DCF (ControllerEntry::
// needs_edca): EDCA MACs whose four categories all carry the radio's DCF parameters
// (AIFSN 2, so AIFS = DIFS, IEEE 802.11-2012 9.3.2.3; its windows; one frame per
// access), and untagged traffic goes to AC_BE. Until the controller acts, channel
// access is DCF's; only the QoS Control field (2 bytes) of QoS data frames differs.
void run_dcf_as_edca(Scenario& s) {
  const auto dcf_everywhere = [](MacParams& p) { p.access_categories.fill(mac::dcf_params(p)); };
  s.mac.type = MacType::edca;
  dcf_everywhere(s.mac.params);
  for (NodeConfig& node : s.nodes) {
    for (RadioConfig& radio : node.radios) dcf_everywhere(radio.mac);
  }
}

}  // namespace

void parse_controllers(const nlohmann::json* controllers, ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  for (std::size_t i = 0; controllers != nullptr && i < controllers->size(); ++i) {
    parse_controller(JsonReader((*controllers)[i], pointer_join("/controllers", i), ctx.issues), i,
                     ctx);
  }
  if (s.mac.type == MacType::dcf) {
    const bool edca_wanted = std::any_of(s.controllers.begin(), s.controllers.end(), [&](const ControllerConfig& c) {
      const control::ControllerEntry* e = ctx.registries.controllers.find(c.type);
      return e != nullptr && e->needs_edca;
    });
    if (edca_wanted) run_dcf_as_edca(s);
  }
  // A transport may need a controller on every node (WCCP flows need its in-network
  // half); without an explicit one it runs with its entry's defaults.
  std::vector<std::string> companions;
  for (const FlowConfig& f : s.flows) {
    const transport::TransportEntry* t = ctx.registries.transports.find(f.transport_name);
    if (t == nullptr || t->companion_controller.empty()) continue;
    if (std::find(companions.begin(), companions.end(), t->companion_controller) == companions.end()) {
      companions.push_back(t->companion_controller);
    }
  }
  for (const std::string& name : companions) {
    const bool listed = std::any_of(s.controllers.begin(), s.controllers.end(),
                                    [&](const ControllerConfig& c) { return c.type == name; });
    const control::ControllerEntry* entry = ctx.registries.controllers.find(name);
    if (listed || entry == nullptr) continue;
    ControllerConfig c;
    c.type = name;
    c.id = name + "#implicit";
    EntryContext entry_ctx(ctx);
    c.nodes = control::wireless_nodes(entry_ctx);
    if (entry->parse) {
      // Its defaults: an empty object, read apart so that nothing lands in the issues.
      IssueSink scratch;
      ParseContext quiet{s, scratch, ctx.registries};
      EntryContext quiet_ctx(quiet);
      const nlohmann::json no_keys = nlohmann::json::object();  // outlives the reader, which keeps a reference
      JsonReader empty(no_keys, "/controllers", scratch);
      c.params = entry->parse(empty, quiet_ctx);
      empty.ignore_unknown_keys();
    }
    s.controllers.push_back(std::move(c));
  }
}

}  // namespace wmnsim::scenario_detail
