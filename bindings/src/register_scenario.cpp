// Scenario loading, overrides and validation: the command line's own functions
// (scenario/scenario.hpp), so Python reports the same problems with the same words.

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"
#include "scenario/phy_builder.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim::py {

namespace {

pyb::object node_id_or(const Scenario& s, const std::optional<std::size_t>& index, const char* fallback) {
  if (!index) return pyb::str(fallback);
  return pyb::str(s.nodes[*index].id);
}

// The resolved scenario as plain Python data, for plots and tables: every node with
// its position (node_groups expanded), wired links, flows and routing.
pyb::dict describe(const std::string& text) {
  const Scenario s = parse_scenario(parse_document(text));
  pyb::list nodes;
  for (const NodeConfig& n : s.nodes) {
    pyb::dict d;
    d["id"] = n.id;
    d["role"] = std::string(to_string(n.role));
    if (n.position) {
      d["position_m"] = pyb::make_tuple(n.position->x_m, n.position->y_m, n.position->z_m);
    } else {
      d["position_m"] = pyb::none();
    }
    pyb::list channels;
    for (const RadioConfig& r : n.radios) channels.append(r.channel);
    d["channels"] = channels;
    d["defined_at"] = n.defined_at;
    nodes.append(d);
  }
  pyb::list links;
  for (const WiredLinkConfig& l : s.links) {
    pyb::dict d;
    d["a"] = s.nodes[l.a].id;
    d["b"] = s.nodes[l.b].id;
    d["rate_bps"] = l.rate_bps;
    d["delay_s"] = l.delay.to_seconds();
    links.append(d);
  }
  pyb::list flows;
  for (const FlowConfig& f : s.flows) {
    pyb::dict d;
    d["id"] = f.id;
    d["transport"] = f.transport_name;
    d["src"] = node_id_or(s, f.src, "@gateway");
    d["dst"] = node_id_or(s, f.dst, "@gateway");
    flows.append(d);
  }
  pyb::list routes;
  for (const StaticRoute& r : s.routing.routes) {
    pyb::dict d;
    d["node"] = s.nodes[r.node].id;
    d["dst"] = node_id_or(s, r.dst, "*");
    d["next_hop"] = s.nodes[r.next_hop].id;
    routes.append(d);
  }
  pyb::dict routing;
  routing["type"] = std::string(to_string(s.routing.type));
  routing["metric"] = std::string(to_string(s.routing.metric));
  routing["routes"] = routes;

  pyb::dict out;
  out["name"] = s.name;
  out["duration_s"] = s.simulation.duration.to_seconds();
  out["seed"] = s.simulation.seed;
  out["timeseries"] = s.timeseries;
  out["nodes"] = nodes;
  out["links"] = links;
  out["flows"] = flows;
  out["routing"] = routing;
  return out;
}

// Directed radio links that can carry data: the PHY's neighbour lists, built
// exactly as a run builds them (propagation, antenna gains, per-link shadowing
// drawn from the topology's seed), with each link's data rate; no rate where the
// link fails the FER rule routing applies (phy::usable_link_rate).
pyb::list radio_links(const std::string& text) {
  const Scenario s = parse_scenario(parse_document(text));
  Simulation sim(s.simulation.seed, "wmnsim.radio_links", spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, s);
  pyb::list out;
  for (std::size_t a = 0; a < net.node_radios.size(); ++a) {
    for (const phy::RadioId from : net.node_radios[a]) {
      for (const phy::Link& l : net.medium->neighbours(from)) {
        if (!l.reach.decodable) continue;
        const phy::Mcs* rate = phy::usable_link_rate(net, from, l.to);
        const std::size_t b = net.medium->spec(l.to).node;
        pyb::dict d;
        d["src"] = s.nodes[a].id;
        d["dst"] = s.nodes[b].id;
        d["channel"] = net.medium->spec(from).channel;
        // The range model has no powers (its link powers are nominal): report none.
        const bool powered = s.propagation.model != PropagationModel::range && std::isfinite(l.power_dbm.dbm());
        d["rx_power_dbm"] = powered ? pyb::object(pyb::float_(l.power_dbm.dbm())) : pyb::none();
        d["rate_bps"] = rate != nullptr ? pyb::object(pyb::float_(static_cast<double>(rate->rate_bps))) : pyb::none();
        out.append(d);
      }
    }
  }
  return out;
}

}  // namespace

void register_scenario(pyb::module_& m) {
  m.def(
      "check_json_file", [](const std::string& path, const std::string& what) { (void)read_json_file(path, what); },
      pyb::arg("path"), pyb::arg("what") = "scenario file",
      "Reads a JSON file (a scenario file, or what `what` names in messages) as the command line does; "
      "raises ScenarioError for a missing file, a folder, malformed JSON (with line and column) or duplicate keys.");
  m.def(
      "apply_overrides",
      [](const std::string& text, const std::vector<std::string>& assignments) {
        return apply_overrides(parse_document(text), assignments).dump();
      },
      pyb::arg("document"), pyb::arg("assignments"),
      "Applies '/json/pointer=value' assignments (the CLI's --set) to a JSON document; "
      "returns the new document as JSON text. Raises ScenarioError naming the pointer.");
  m.def(
      "check_json_text", [](const std::string& text) { (void)parse_json_text(text, "<string>"); },
      pyb::arg("text"),
      "Checks JSON text as the command line reads a file: syntax (line and column), nesting depth, "
      "numbers beyond a double, duplicate keys; raises ScenarioError.");
  m.def(
      "validate",
      [](const std::string& text, bool build) {
        const Scenario s = parse_scenario(parse_document(text));
        if (!build) return;
        pyb::gil_scoped_release nogil;  // builds the network: radios and routing
        check_runnable(s);
      },
      pyb::arg("document"), pyb::arg("build") = true,
      "Validates a scenario document as `wmnsim validate` does: the loader's checks, then (build=True) "
      "what a run checks before its first event (routing, features not simulated yet). Raises "
      "ScenarioError listing every problem, or NotSupportedError.");
  m.def("describe", &describe, pyb::arg("document"),
        "The resolved scenario (node_groups expanded, defaults filled in) as plain data.");
  m.def("radio_links", &radio_links, pyb::arg("document"),
        "Directed radio links that can carry data, as the PHY builds them for a run.");
}

}  // namespace wmnsim::py
