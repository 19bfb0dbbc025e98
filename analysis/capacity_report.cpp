#include "analysis/capacity_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/simulation.hpp"
#include "runner/network_links.hpp"
#include "scenario/phy_builder.hpp"

namespace wmnsim {

namespace {

using Json = nlohmann::ordered_json;

Json rate_json(double bps) { return std::isfinite(bps) ? Json(bps) : Json(nullptr); }

Json model_json(const Scenario& scenario, const ScenarioCapacity& sc, const control::CapacityResult& r) {
  Json constraints = Json::array();
  for (const control::CapacityConstraint& c : r.constraints) {
    Json links = Json::array();
    for (const std::size_t l : c.links) {
      const control::CapacityLink& link = sc.problem.links[l];
      links.push_back(scenario.nodes[link.from].id + "->" + scenario.nodes[link.to].id);
    }
    constraints.push_back(Json{{"links", links}, {"capacity_bps", c.capacity_bps}});
  }
  return Json{{"u_opt_bps", r.u_opt_bps}, {"constraints", constraints}};
}

}  // namespace

Json capacity_report(const Scenario& scenario, const CapacityReportOptions& options) {
  Simulation sim(scenario.simulation.seed, scenario.name, spdlog::level::off);
  const phy::PhyNetwork net = phy::build_phy(sim, scenario);
  const Routing routing = compute_routing(scenario, routing_links(scenario, net));
  const ScenarioCapacity sc = capacity_problem(scenario, net, routing, options.capacity);
  const std::vector<bool> active =
      options.at ? active_flows(scenario, *options.at) : std::vector<bool>(scenario.flows.size(), true);
  const control::CapacityResult cd = control::solve_capacity(sc.problem, CapacityModel::collision_domain, active);
  const control::CapacityResult cl = control::solve_capacity(sc.problem, CapacityModel::clique, active);

  const char* source = sc.b_given      ? "given"
                       : sc.b_measured ? (net.fixed_data_rate != nullptr ? "measured" : "measured_per_link")
                       : sc.bianchi_bps ? "bianchi"
                                        : "bianchi_per_link";
  Json b{{"source", source},
         {"mac_capacity_bps", sc.problem.mac_capacity_bps},
         {"payload_bytes", sc.payload_bytes},
         {"header_bytes", sc.header_bytes}};
  if (net.fixed_data_rate != nullptr) b["data_rate_bps"] = static_cast<double>(net.fixed_data_rate->rate_bps);
  if (!sc.problem.link_capacity_bps.empty()) {
    Json per_link = Json::array();
    for (std::size_t l = 0; l < sc.problem.links.size(); ++l) {
      const control::CapacityLink& link = sc.problem.links[l];
      per_link.push_back(Json{{"link", scenario.nodes[link.from].id + "->" + scenario.nodes[link.to].id},
                              {"mac_capacity_bps", sc.problem.link_capacity_bps[l]}});
    }
    b["per_link"] = per_link;
  }

  Json flows = Json::array();
  for (std::size_t f = 0; f < scenario.flows.size(); ++f) {
    Json route = Json::array();
    const auto& hops = sc.problem.routes[f];
    for (std::size_t k = 0; k < hops.size(); ++k) {
      const control::CapacityLink& link = sc.problem.links[hops[k]];
      if (k == 0) route.push_back(scenario.nodes[link.from].id);
      route.push_back(scenario.nodes[link.to].id);
    }
    const FlowEnds ends = routing.flows[f];
    flows.push_back(Json{{"id", scenario.flows[f].id},
                         {"src", scenario.nodes[ends.src].id},
                         {"dst", scenario.nodes[ends.dst].id},
                         {"active", static_cast<bool>(active[f])},
                         {"hops", hops.size()},
                         {"route", route},
                         {"collision_domain_bps", rate_json(cd.rate_bps[f])},
                         {"clique_bps", rate_json(cl.rate_bps[f])}});
  }
  return Json{{"scenario", scenario.name},
              {"at_s", options.at ? Json(options.at->to_seconds()) : Json(nullptr)},
              {"links", sc.problem.links.size()},
              {"b", b},
              {"models", Json{{"collision_domain", model_json(scenario, sc, cd)}, {"clique", model_json(scenario, sc, cl)}}},
              {"flows", flows}};
}

std::string format_capacity_table(const Json& report) {
  std::string out;
  char line[512];
  const Json& b = report.at("b");
  std::snprintf(line, sizeof line, "Capacity models (paper 001 App. A): %s", report.at("scenario").get<std::string>().c_str());
  out += line;
  if (!report.at("at_s").is_null()) {
    std::snprintf(line, sizeof line, ", flows active at %g s", report.at("at_s").get<double>());
    out += line;
  }
  out += "\n";
  const std::string source = b.at("source").get<std::string>();
  std::snprintf(line, sizeof line, "B = %.1f kbit/s (%s; %d B payload + %d B headers per frame)\n",
                b.at("mac_capacity_bps").get<double>() / 1e3,
                source == "given"                ? "given"
                : source == "bianchi"            ? "Bianchi, one saturated station"
                : source == "measured"           ? "measured in a one-hop run"
                : source == "measured_per_link"  ? "measured per link rate, largest shown"
                                                 : "Bianchi per link rate, largest shown",
                b.at("payload_bytes").get<int>(), b.at("header_bytes").get<int>());
  out += line;
  std::snprintf(line, sizeof line, "\n%-16s %-10s %-10s %6s %6s %16s %12s\n", "flow", "src", "dst", "active", "hops",
                "collision_domain", "clique");
  out += line;
  std::snprintf(line, sizeof line, "%-16s %-10s %-10s %6s %6s %16s %12s\n", "", "", "", "", "", "kbit/s", "kbit/s");
  out += line;
  const auto rate = [](const Json& v) {
    char text[32];
    if (v.is_null()) return std::string("unconstrained");
    std::snprintf(text, sizeof text, "%.1f", v.get<double>() / 1e3);
    return std::string(text);
  };
  for (const Json& f : report.at("flows")) {
    std::snprintf(line, sizeof line, "%-16s %-10s %-10s %6s %6d %16s %12s\n", f.at("id").get<std::string>().c_str(),
                  f.at("src").get<std::string>().c_str(), f.at("dst").get<std::string>().c_str(),
                  f.at("active").get<bool>() ? "yes" : "no", f.at("hops").get<int>(),
                  rate(f.at("collision_domain_bps")).c_str(), rate(f.at("clique_bps")).c_str());
    out += line;
  }
  const Json& m = report.at("models");
  std::snprintf(line, sizeof line,
                "\nU_opt: collision_domain %.1f kbit/s (constraints: %zu), clique %.1f kbit/s (constraints: %zu)\n",
                m.at("collision_domain").at("u_opt_bps").get<double>() / 1e3,
                m.at("collision_domain").at("constraints").size(), m.at("clique").at("u_opt_bps").get<double>() / 1e3,
                m.at("clique").at("constraints").size());
  out += line;
  return out;
}

}  // namespace wmnsim
