#include "control/edca_ack_priority.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/sim_log.hpp"

namespace wmnsim::control {

EdcaAckPriority::EdcaAckPriority(const ControllerConfig& config, ControlContext& context)
    : Controller(config, context), params_(config.params_as<EdcaAckPriorityParams>()) {}

void EdcaAckPriority::start() {
  ControlContext& ctx = context();
  for (const std::size_t n : config().nodes) {
    const auto& macs = ctx.macs.at(n);
    for (std::size_t r = 0; r < macs.size(); ++r) {
      mac::Mac& mac = *macs[r];
      // The scenario loader turns DCF into EDCA for this controller (needs_edca).
      if (mac.type() != MacType::edca) throw std::logic_error("edca_ack_priority: the MAC is not EDCA");
      Change c;
      c.node = n;
      c.radio = r;
      c.data_before = mac.params(params_.data_category);
      c.ack_before = mac.params(params_.ack_category);
      c.pure_ack_category_before = mac.classifier().pure_ack_category();
      c.data_after = c.data_before;
      c.data_after.aifsn += params_.data_aifsn_increase;
      // ACKs contend as data did (same AIFS, same ceiling), from a window of ack_cw_min.
      c.ack_after = {c.data_before.aifsn, params_.ack_cw_min, std::max(c.data_before.cw_max, params_.ack_cw_min), {}};
      mac.set_params(params_.data_category, c.data_after);
      mac.set_params(params_.ack_category, c.ack_after);
      mac.classifier().set_pure_ack_category(params_.ack_category);
      WMNSIM_LOG(ctx.sim.scheduler().log(), spdlog::level::debug, static_cast<std::uint32_t>(n),
                 "controller {}: radio {}: {} AIFSN {} -> {}; TCP ACKs to {} (CWmin {})", id(), r,
                 to_string(params_.data_category), c.data_before.aifsn, c.data_after.aifsn,
                 to_string(params_.ack_category), c.ack_after.cw_min);
      changes_.push_back(c);
    }
  }
}

void EdcaAckPriority::on_stop() {
  for (const Change& c : changes_) {
    mac::Mac& mac = *context().macs.at(c.node, c.radio);
    // Only what this controller changed: another (edca_txop) may own the TXOP.
    EdcaParams data = mac.params(params_.data_category);
    data.aifsn = c.data_before.aifsn;
    mac.set_params(params_.data_category, data);
    mac.set_params(params_.ack_category, c.ack_before);
    mac.classifier().set_pure_ack_category(c.pure_ack_category_before);
  }
}

nlohmann::ordered_json EdcaAckPriority::statistics() const {
  const auto& nodes = context().node_info;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Change& c : changes_) {
    rows.push_back({{"node", nodes[c.node].id},
                    {"radio", c.radio},
                    {"data_access_category", to_string(params_.data_category)},
                    {"data_aifsn_before", c.data_before.aifsn},
                    {"data_aifsn_after", c.data_after.aifsn},
                    {"ack_access_category", to_string(params_.ack_category)},
                    {"ack_aifsn", c.ack_after.aifsn},
                    {"ack_cw_min", c.ack_after.cw_min},
                    {"ack_cw_max", c.ack_after.cw_max}});
  }
  return {{"changed", rows}};
}

}  // namespace wmnsim::control
