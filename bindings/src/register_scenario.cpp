// Scenario loading, overrides and validation: the command line's own functions
// (scenario/scenario.hpp), so Python reports the same problems with the same words.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "scenario/scenario.hpp"
#include "core/simulation.hpp"
#include "scenario/phy_builder.hpp"
#include "runner/network_links.hpp"
#include "runner/run_scenario.hpp"

namespace wmnsim::py {

namespace {

pyb::object node_id_or(const Scenario& s, const std::optional<std::size_t>& index, const char* fallback) {
  if (!index) return pyb::str(fallback);
  return pyb::str(s.nodes[*index].id);
}

// The routes a run takes, computed by the routing layer exactly as a run computes
// them (the PHY's usable links, the metric, the gateway trees, the tie rule), so
// that a user can check them before running (docs/python.md):
//  - "routes": next hops {node, dst, next_hop}. Static routing: the tables as
//    written ("*" for a default route). auto and gateway_trees: the computed next
//    hop of every node that has one towards each destination a run uses (every
//    flow's ends, both ways, and every gateway), in node order per destination;
//  - "paths": per flow its resolved ends ("@gateway" chosen), the nodes its data
//    crosses and the way back (None where the tables have none: UDP needs none);
//  - "gateway": each mesh node's gateway (its tree's root under gateway_trees).
void describe_routes(const Scenario& s, pyb::dict& routing) {
  Simulation sim(s.simulation.seed, "wmnsim.describe", spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, s);
  const std::vector<RoutingLink> links = routing_links(s, net);
  const Routing r = compute_routing(s, links);
  const auto ids = [&](const std::vector<std::uint32_t>& nodes) {
    pyb::list out;
    for (const std::uint32_t n : nodes) out.append(s.nodes[n].id);
    return out;
  };

  pyb::list routes;
  if (s.routing.type == RoutingType::static_tables) {
    for (const StaticRoute& t : s.routing.routes) {
      pyb::dict d;
      d["node"] = s.nodes[t.node].id;
      d["dst"] = node_id_or(s, t.dst, "*");
      d["next_hop"] = s.nodes[t.next_hop].id;
      routes.append(d);
    }
  } else {
    std::vector<bool> used(s.nodes.size(), false);
    for (const FlowEnds& e : r.flows) used[e.src] = used[e.dst] = true;
    for (std::size_t n = 0; n < s.nodes.size(); ++n) {
      if (s.nodes[n].role == NodeRole::gateway) used[n] = true;
    }
    for (std::uint32_t dst = 0; dst < used.size(); ++dst) {
      if (!used[dst]) continue;
      for (std::uint32_t node = 0; node < s.nodes.size(); ++node) {
        const NextHop* hop = r.tables.next_hop(node, dst);
        if (hop == nullptr) continue;
        pyb::dict d;
        d["node"] = s.nodes[node].id;
        d["dst"] = s.nodes[dst].id;
        d["next_hop"] = s.nodes[hop->node].id;
        routes.append(d);
      }
    }
  }
  routing["routes"] = routes;

  pyb::list paths;
  for (std::size_t i = 0; i < r.flows.size(); ++i) {
    const FlowEnds e = r.flows[i];
    pyb::dict d;
    d["flow"] = s.flows[i].id;
    d["src"] = s.nodes[e.src].id;
    d["dst"] = s.nodes[e.dst].id;
    d["path"] = ids(r.tables.path(e.src, e.dst));
    const std::vector<std::uint32_t> back = r.tables.path(e.dst, e.src);
    d["return_path"] = back.empty() ? pyb::object(pyb::none()) : pyb::object(ids(back));
    paths.append(d);
  }
  routing["paths"] = paths;

  pyb::dict gateway;
  for (std::size_t n = 0; n < r.gateway.size(); ++n) {
    if (r.gateway[n] && s.nodes[n].role == NodeRole::mesh) gateway[pyb::str(s.nodes[n].id)] = s.nodes[*r.gateway[n]].id;
  }
  routing["gateway"] = gateway;
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
    d["defined_at"] = n.defined_at();
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
  pyb::dict routing;
  routing["type"] = std::string(to_string(s.routing.type));
  routing["metric"] = std::string(to_string(s.routing.metric));
  try {
    describe_routes(s, routing);
  } catch (const std::runtime_error& e) {  // ScenarioError, NotSupportedError
    // A scenario whose routes cannot be computed (a flow with no route, a PHY feature
    // not simulated yet) is still described, for plots of what is wrong with it: no
    // routes, and why.
    routing["routes"] = pyb::none();
    routing["paths"] = pyb::none();
    routing["gateway"] = pyb::none();
    routing["error"] = std::string(e.what());
  }

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
// drawn from the topology's seed), with each link's data rate; no rate (NaN) where
// the link fails the FER rule routing applies (phy::usable_link_rate). With
// `sensed`, also the links whose signal the receiver senses (the medium busy on its
// own: phy::SignalReach::sensed) without decoding it: the reach a plot overlays.
// As columns (numpy arrays, the ends as node indices into "node_ids"), not a
// Python object per link: a network of 10^5 nodes has millions of links.
pyb::dict radio_links(const std::string& text, bool sensed) {
  const Scenario s = parse_scenario(parse_document(text));
  std::vector<std::int32_t> src, dst, channel;
  std::vector<double> power, rate;
  std::vector<std::uint8_t> decodable, sensed_only;
  {
    pyb::gil_scoped_release nogil;  // builds the PHY
    Simulation sim(s.simulation.seed, "wmnsim.radio_links", spdlog::level::off);
    const phy::PhyNetwork net = phy::build_phy(sim, s);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t a = 0; a < net.node_radios.size(); ++a) {
      for (const phy::RadioId from : net.node_radios[a]) {
        for (const phy::Link& l : net.medium->neighbours(from)) {
          if (!l.reach.decodable && !(sensed && l.reach.sensed)) continue;
          const phy::Mcs* r = l.reach.decodable ? phy::usable_link_rate(net, from, l.to) : nullptr;
          src.push_back(static_cast<std::int32_t>(a));
          dst.push_back(static_cast<std::int32_t>(net.medium->node_of(l.to)));
          channel.push_back(net.medium->channel_of(from));
          // The range model has no powers (its link powers are nominal): report none.
          const double dbm = net.medium->power_dbm(from, l).dbm();
          const bool powered = s.propagation.model != PropagationModel::range && std::isfinite(dbm);
          power.push_back(powered ? dbm : nan);
          rate.push_back(r != nullptr ? static_cast<double>(r->rate_bps) : nan);
          decodable.push_back(l.reach.decodable ? 1 : 0);
          sensed_only.push_back(l.reach.sensed ? 1 : 0);
        }
      }
    }
  }
  const auto column = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    pyb::array_t<T> out(static_cast<pyb::ssize_t>(v.size()));
    std::copy(v.begin(), v.end(), out.mutable_data());
    return out;
  };
  pyb::list ids;
  for (const NodeConfig& n : s.nodes) ids.append(n.id);
  pyb::dict out;
  out["node_ids"] = ids;
  out["src"] = column(src);
  out["dst"] = column(dst);
  out["channel"] = column(channel);
  out["rx_power_dbm"] = column(power);
  out["rate_bps"] = column(rate);
  out["decodable"] = column(decodable).attr("astype")("bool");
  out["sensed"] = column(sensed_only).attr("astype")("bool");
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
  m.def("radio_links", &radio_links, pyb::arg("document"), pyb::arg("sensed") = false,
        "Directed radio links that can carry data, as the PHY builds them for a run, as columns (numpy "
        "arrays; src and dst index node_ids); with sensed, also those the receiver only senses.");
}

}  // namespace wmnsim::py
