// Controllers: one object per controller, chosen by "type" among the registered
// entries (control/controller_registry.hpp). This file reads the keys every
// controller has; the entry reads its own. Every default is the value the
// controller's paper used.

#include <algorithm>
#include <map>
#include <memory>

#include "control/edca_policy_params.hpp"
#include "control/gateway_rate_control_params.hpp"
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
  // Radios that shared one MacParams share its converted copy (RadioConfig::mac).
  std::map<std::shared_ptr<const MacParams>, std::shared_ptr<const MacParams>> converted;
  for (NodeConfig& node : s.nodes) {
    for (RadioConfig& radio : node.radios) {
      std::shared_ptr<const MacParams>& to = converted[radio.mac];
      if (!to) {
        MacParams p = *radio.mac;
        dcf_everywhere(p);
        to = std::make_shared<const MacParams>(std::move(p));
      }
      radio.mac = to;
    }
  }
}

// Whether two controllers act at some common time ([start, stop) intervals meet).
bool overlap_in_time(const ControllerConfig& a, const ControllerConfig& b) {
  const Time a_end = a.stop.value_or(Time::max()), b_end = b.stop.value_or(Time::max());
  return a.start < b_end && b.start < a_end;
}

// A node both act on, if any.
std::optional<std::size_t> common_node(const ControllerConfig& a, const ControllerConfig& b) {
  for (const std::size_t n : a.nodes) {
    if (std::find(b.nodes.begin(), b.nodes.end(), n) != b.nodes.end()) return n;
  }
  return std::nullopt;
}

// 002's two EDCA policies: one of each kind per node at a time, the TXOP on the
// category ACK priority puts TCP data in, and AIFSNs the EDCA Parameter Set can
// carry (4-bit field, IEEE 802.11-2012 8.4.2.31); no TXOP controller on a radio
// under `deferral: "ns2"`. After the DCF conversion.
void check_edca_policies(ParseContext& ctx, const std::vector<std::size_t>& json_index) {
  const Scenario& s = ctx.scenario;
  const std::size_t listed = json_index.size();
  const auto path = [&](std::size_t i, std::string_view key) {
    return pointer_join(pointer_join("/controllers", json_index[i]), key);
  };
  const auto at = [&](std::size_t i) { return "/controllers/" + std::to_string(json_index[i]); };
  for (std::size_t i = 0; i < listed; ++i) {
    const ControllerConfig& a = s.controllers[i];
    if (a.type != "edca_ack_priority" && a.type != "edca_txop") continue;
    if (!a.params.has_value()) continue;  // its own issues are reported
    if (a.type == "edca_ack_priority") {
      const auto& p = a.params_as<EdcaAckPriorityParams>();
      for (const std::size_t n : a.nodes) {
        for (const RadioConfig& radio : s.nodes[n].radios) {
          const int aifsn = radio.mac->ac(p.data_category).aifsn + p.data_aifsn_increase;
          if (aifsn > 15) {
            ctx.issues.add(path(i, "data_aifsn_increase"),
                           "node \"" + s.nodes[n].id + "\" would get AIFSN " + std::to_string(aifsn) + " for " +
                               std::string(to_string(p.data_category)) +
                               "; the EDCA Parameter Set carries at most 15 (a 4-bit field)");
            break;
          }
        }
      }
    }
    if (a.type == "edca_txop") {
      // The TXOP limits it sets during the run have no ns-2 counterpart (the MAC
      // object's own limits are refused with "ns2" at load: scenario_radio.cpp,
      // check_ns2_without_txop); a DCF scenario it turned into EDCA is no exception.
      const auto ns2_node = std::find_if(a.nodes.begin(), a.nodes.end(), [&](std::size_t n) {
        return std::any_of(s.nodes[n].radios.begin(), s.nodes[n].radios.end(),
                           [](const RadioConfig& radio) { return radio.mac->deferral == Deferral::ns2; });
      });
      if (ns2_node != a.nodes.end()) {
        ctx.issues.add(path(i, "type"), "edca_txop sets TXOP limits on node \"" + s.nodes[*ns2_node].id +
                                            "\", whose radio has \"deferral\": \"ns2\" (ns-2's Mac802_11 has no "
                                            "TXOP); leave that node out with \"nodes\", or use \"deferral\": "
                                            "\"standard\" (docs/mac.md)");
      }
    }
    for (std::size_t j = i + 1; j < listed; ++j) {
      const ControllerConfig& b = s.controllers[j];
      if ((b.type != "edca_ack_priority" && b.type != "edca_txop") || !b.params.has_value()) continue;
      const auto node = common_node(a, b);
      if (!node || !overlap_in_time(a, b)) continue;
      const std::string where = "node \"" + s.nodes[*node].id + "\"";
      if (a.type == b.type) {
        ctx.issues.add(path(j, "type"), "\"" + b.type + "\" already acts on " + where + " at the same time (" + at(i) +
                                            "); give each node one, with \"nodes\" or start_s/stop_s");
        continue;
      }
      const ControllerConfig& ack = a.type == "edca_ack_priority" ? a : b;
      const ControllerConfig& txop = a.type == "edca_txop" ? a : b;
      const std::size_t txop_index = &txop == &a ? i : j;
      const AccessCategory data = ack.params_as<EdcaAckPriorityParams>().data_category;
      const AccessCategory tuned = txop.params_as<EdcaTxopParams>().category;
      if (data != tuned) {
        ctx.issues.add(path(txop_index, "access_category"),
                       "edca_ack_priority (" + at(&ack == &a ? i : j) + ") puts TCP data in \"" +
                           std::string(to_string(data)) + "\" on " + where + ", and this TXOP is for \"" +
                           std::string(to_string(tuned)) + "\"; set \"access_category\": \"" +
                           std::string(to_string(data)) + "\"");
      }
    }
  }
}

}  // namespace

void parse_controllers(const nlohmann::json* controllers, ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  std::vector<std::size_t> json_index;  // of each parsed controller (one with a bad type is not)
  for (std::size_t i = 0; controllers != nullptr && i < controllers->size(); ++i) {
    const std::size_t before = s.controllers.size();
    parse_controller(JsonReader((*controllers)[i], pointer_join("/controllers", i), ctx.issues), i,
                     ctx);
    if (s.controllers.size() > before) json_index.push_back(i);
  }
  if (s.mac.type == MacType::dcf) {
    const bool edca_wanted = std::any_of(s.controllers.begin(), s.controllers.end(), [&](const ControllerConfig& c) {
      const control::ControllerEntry* e = ctx.registries.controllers.find(c.type);
      return e != nullptr && e->needs_edca;
    });
    if (edca_wanted) run_dcf_as_edca(s);
  }
  check_edca_policies(ctx, json_index);
  // A gateway's queues have one owner: a second gateway_rate_control there would
  // replace the queues the first one shapes.
  std::vector<std::size_t> shaped;  // gateways, in list order
  for (std::size_t k = 0; k < s.controllers.size(); ++k) {
    const auto* p = std::any_cast<GatewayRateControlParams>(&s.controllers[k].params);
    // (A gateway the entry could not resolve has its own issue already.)
    if (s.controllers[k].type != "gateway_rate_control" || p == nullptr || p->gateway >= s.nodes.size()) continue;
    if (std::find(shaped.begin(), shaped.end(), p->gateway) != shaped.end()) {
      ctx.issues.add(pointer_join("/controllers", json_index.at(k)),
                     "a second gateway_rate_control at gateway \"" + s.nodes[p->gateway].id +
                         "\": one controller owns a gateway's queues; keep one");
    }
    shaped.push_back(p->gateway);
  }
  // mac.dequeue "ns3" counts the frame in service in a drop_tail queue's capacity; a
  // controller that installs its own discipline would drop that without a word.
  const bool dequeue_ns3 = std::any_of(s.nodes.begin(), s.nodes.end(), [](const NodeConfig& node) {
    return std::any_of(node.radios.begin(), node.radios.end(),
                       [](const RadioConfig& radio) { return radio.mac->dequeue == Dequeue::ns3; });
  });
  for (std::size_t k = 0; k < s.controllers.size() && dequeue_ns3; ++k) {
    const control::ControllerEntry* e = ctx.registries.controllers.find(s.controllers[k].type);
    if (e == nullptr || !e->replaces_queues) continue;
    ctx.issues.add(pointer_join(pointer_join("/controllers", json_index.at(k)), "type"),
                   "\"" + e->name + "\" installs its own queue discipline, which does not count the place a frame in "
                   "service holds under mac.dequeue \"ns3\": set mac.dequeue to \"at_access\" (or \"after_exchange\")");
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
