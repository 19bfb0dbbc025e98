#include "control/counter_starvation.hpp"

#include <algorithm>
#include <cmath>
#include "core/sim_log.hpp"

namespace wmnsim::control {

namespace {

constexpr AccessCategory kAllCategories[] = {AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi,
                                             AccessCategory::ac_vo};

// The radio of `node` that carries a one-hop route between it and `gateway`, if any.
// `maybe_down`: whether the gateway's radios reach `node` at all; only then is the
// gateway's route to it looked up, since that computes the routing's column for
// `node`, and one per node would cost nodes x nodes.
std::optional<std::size_t> one_hop_radio(const ControlContext& ctx, std::size_t node, std::size_t gateway,
                                         bool maybe_down) {
  const std::size_t radios = ctx.macs.at(node).size();
  const auto n = static_cast<std::uint32_t>(node), g = static_cast<std::uint32_t>(gateway);
  if (const NextHop* up = ctx.routing.tables.next_hop(n, g); up && up->node == g && up->interface < radios) {
    return up->interface;
  }
  if (!maybe_down) return std::nullopt;
  if (const NextHop* down = ctx.routing.tables.next_hop(g, n); down && down->node == n) {
    // The gateway's radio reaches `node`; `node` hears it on the radio with the same channel.
    const auto& gw_radios = ctx.macs.at(gateway);
    if (down->interface >= gw_radios.size()) return std::nullopt;  // a wire, not a radio hop
    const auto& mine = ctx.macs.at(node);
    const int channel = gw_radios[down->interface]->radio().channel();
    for (std::size_t r = 0; r < mine.size(); ++r) {
      if (mine[r]->radio().channel() == channel) return r;
    }
  }
  return std::nullopt;
}

}  // namespace

CounterStarvation::CounterStarvation(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<CounterStarvationParams>()) {}

void CounterStarvation::start() {
  const ControlContext& ctx = context();
  std::vector<AccessCategory> categories = params_.access_categories;
  if (categories.empty()) categories.assign(std::begin(kAllCategories), std::end(kAllCategories));

  for (const std::size_t g : params_.gateways) {
    // A one-hop route from the gateway is a link from one of its radios.
    std::vector<std::uint32_t> heard;
    if (ctx.radio_neighbours) heard = ctx.radio_neighbours(static_cast<std::uint32_t>(g));
    for (std::size_t n = 0; n < ctx.node_info.size(); ++n) {
      if (n == g || ctx.node_info[n].role != NodeRole::mesh) continue;
      const bool maybe_down =
          !ctx.radio_neighbours || std::binary_search(heard.begin(), heard.end(), static_cast<std::uint32_t>(n));
      const auto radio = one_hop_radio(ctx, n, g, maybe_down);
      if (!radio) continue;
      // A node next to two gateways is raised once.
      const bool done = std::any_of(changes_.begin(), changes_.end(),
                                    [&](const Change& c) { return c.node == n && c.radio == *radio; });
      if (done) continue;
      mac::Mac& mac = *ctx.macs[n][*radio];
      // Under DCF every category names the one function: change it once.
      const std::vector<AccessCategory> dcf{AccessCategory::ac_be};
      for (const AccessCategory ac : mac.type() == MacType::dcf ? dcf : categories) {
        EdcaParams p = mac.params(ac);
        Change c{n, *radio, g, ac, p.cw_min, 0, p.cw_max, 0};
        p.cw_min = params_.cw_min ? *params_.cw_min
                                  : static_cast<int>(std::lround(params_.cw_min_factor * c.cw_min_before));
        p.cw_max = std::max(p.cw_max, p.cw_min);  // a window above cw_max would be cut back to it
        c.cw_min_after = p.cw_min;
        c.cw_max_after = p.cw_max;
        mac.set_params(ac, p);
        WMNSIM_LOG(ctx.sim.scheduler().log(), spdlog::level::debug, static_cast<std::uint32_t>(n),
                   "controller {}: {} next to gateway {}: CWmin {} -> {}, CWmax {} -> {}", id(), to_string(ac),
                   ctx.node_info[g].id, c.cw_min_before, c.cw_min_after, c.cw_max_before, c.cw_max_after);
        changes_.push_back(c);
      }
    }
  }
}

void CounterStarvation::on_stop() {
  for (const Change& c : changes_) {
    mac::Mac& mac = mac_of(c);
    EdcaParams p = mac.params(c.category);
    p.cw_min = c.cw_min_before;
    p.cw_max = c.cw_max_before;
    mac.set_params(c.category, p);
    WMNSIM_LOG(context().sim.scheduler().log(), spdlog::level::debug, static_cast<std::uint32_t>(c.node),
               "controller {}: {} restored: CWmin {}, CWmax {}", id(), to_string(c.category), p.cw_min, p.cw_max);
  }
}

nlohmann::ordered_json CounterStarvation::statistics() const {
  const auto& nodes = context().node_info;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Change& c : changes_) {
    rows.push_back({{"node", nodes[c.node].id},
                    {"radio", c.radio},
                    {"gateway", nodes[c.gateway].id},
                    {"access_category", to_string(c.category)},
                    {"cw_min_before", c.cw_min_before},
                    {"cw_min_after", c.cw_min_after}});
  }
  return {{"changed", rows}};
}

}  // namespace wmnsim::control
