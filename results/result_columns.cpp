#include "results/result_columns.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace wmnsim {

namespace {

void add_delays(std::vector<ColumnDoc>& out, const DelayColumns& d) {
  for (const auto* c : {&d.mean_s, &d.p50_s, &d.p95_s, &d.p99_s}) out.push_back(c->doc());
}

void add_mac_totals(std::vector<ColumnDoc>& out) {
  using namespace mac_column;
  for (const auto* c : {&data_attempts, &data_retries, &rts_attempts, &tx_success, &failed_attempts,
                        &internal_collisions, &drops_retry_limit, &drops_lifetime_in_service, &drops_queue, &rx_data, &rx_duplicates, &rx_errors,
                        &rts_refused, &cts_refused_busy, &data_refused_after_cts, &mgmt_sent, &mgmt_received,
                        &mgmt_drops_retry_limit, &mgmt_false_duplicates}) {
    out.push_back(c->doc());
  }
  out.push_back(channel_busyness.doc());
  out.push_back(channel_busyness_ns2.doc());
}

}  // namespace

const ResultColumn<std::uint64_t>& node_drops(DropCause cause) {
  // The keys live as long as the columns that view them.
  static const std::array<std::string, kDropCauseCount> keys = [] {
    std::array<std::string, kDropCauseCount> k;
    for (std::size_t c = 0; c < kDropCauseCount; ++c) k[c] = "drops_" + std::string(to_string(static_cast<DropCause>(c)));
    return k;
  }();
  static const std::array<ResultColumn<std::uint64_t>, kDropCauseCount> columns = [] {
    const auto column = [](std::size_t c) {
      return ResultColumn<std::uint64_t>(keys[c], node_column::drops_by_cause.unit, node_column::drops_by_cause.meaning);
    };
    static_assert(kDropCauseCount == 8, "list every cause below");
    return std::array<ResultColumn<std::uint64_t>, kDropCauseCount>{column(0), column(1), column(2), column(3),
                                                                      column(4), column(5), column(6), column(7)};
  }();
  return columns.at(static_cast<std::size_t>(cause));
}

std::vector<ColumnDoc> flow_column_docs() {
  using namespace flow_column;
  std::vector<ColumnDoc> out;
  for (const auto* c : {&id, &flow_column::transport, &src, &dst}) out.push_back(c->doc());  // not namespace transport
  out.push_back(hops.doc());
  out.push_back(goodput_bps.doc());
  out.push_back(share.doc());
  out.push_back(sent_packets.doc());
  out.push_back(delivered_packets.doc());
  out.push_back(dropped_packets.doc());
  out.push_back(drops_retry_limit.doc());
  for (const auto* c : {&drops_queue_overflow, &drops_queue_early_drop, &drops_rate_limit, &drops_no_route,
                        &drops_ttl_expired, &drops_lifetime_expired, &drops_false_duplicate}) {
    out.push_back(c->doc());
  }
  for (const auto* c : {&delay_mean_s, &delay_max_s, &delay_p50_s, &delay_p95_s, &delay_p99_s, &jitter_s}) {
    out.push_back(c->doc());
  }
  for (const auto* c : {&tx_packets, &tx_bytes, &rx_packets, &rx_bytes, &lost_packets, &in_network_packets}) {
    out.push_back(c->doc());
  }
  out.push_back(fair_ratio.doc());
  out.push_back(route.doc());
  return out;
}

std::vector<ColumnDoc> summary_column_docs() {
  using namespace summary_column;
  std::vector<ColumnDoc> out;
  for (const auto* c : {&jain_fairness_index, &total_goodput_bps, &effective_utilization_bps, &min_fair_ratio,
                        &max_fair_ratio, &utilization_ratio, &weighted_intra_mesh_loss_bps}) {
    out.push_back(c->doc());
  }
  out.push_back(drops_local.doc());
  out.push_back(drops_intra_mesh.doc());
  for (const auto* c : {&drops_intra_mesh_by_cause, &drops, &packets}) out.push_back(c->doc());
  return out;
}

std::vector<ColumnDoc> node_column_docs() {
  using namespace node_column;
  std::vector<ColumnDoc> out;
  for (const auto* c : {&id, &role}) out.push_back(c->doc());
  for (const auto* c : {&originated, &forwarded, &delivered, &drops}) out.push_back(c->doc());
  out.push_back(drops_by_cause);
  for (const auto* c : {&drops_local, &drops_intra_mesh, &drops_intra_mesh_queue_overflow}) out.push_back(c->doc());
  out.push_back(weighted_loss_bps.doc());
  out.push_back(radios.doc());
  add_mac_totals(out);
  add_delays(out, kMacServiceDelay);
  add_delays(out, kMacQueueingDelay);
  return out;
}

std::vector<ColumnDoc> radio_column_docs() {
  using namespace radio_column;
  std::vector<ColumnDoc> out;
  for (const auto* c : {&id, &node}) out.push_back(c->doc());
  out.push_back(radio.doc());
  out.push_back(channel.doc());
  add_mac_totals(out);
  add_delays(out, kMacServiceDelay);
  add_delays(out, kMacQueueingDelay);
  out.push_back(txop_limit_frames.doc());
  out.push_back(txop_limit_s.doc());
  out.push_back(cw_min.doc());
  return out;
}

std::vector<ColumnDoc> controller_column_docs() {
  using namespace controller_column;
  return {id.doc(), type.doc(), statistics.doc()};
}

std::vector<ColumnDoc> hop_column_docs() {
  using namespace hop_column;
  std::vector<ColumnDoc> out;
  for (const auto* c : {&flow, &direction, &node}) out.push_back(c->doc());
  out.push_back(hop.doc());
  for (const auto* c : {&originated, &forwarded, &delivered, &bytes}) out.push_back(c->doc());
  out.push_back(delay_mean_s.doc());
  out.push_back(drops.doc());
  out.push_back(drops_by_cause);
  out.push_back(stale_copy_drops.doc());
  return out;
}

std::string column_table(const std::vector<ColumnDoc>& columns) {
  std::string out = "| key | unit | meaning |\n|---|---|---|\n";
  for (const ColumnDoc& c : columns) {
    out += "| `" + std::string(c.key) + "` | " + std::string(c.unit) + " | " + std::string(c.meaning) + " |\n";
  }
  return out;
}

std::string compose_result_tables(const std::string& markdown) {
  const std::pair<const char*, std::vector<ColumnDoc>> tables[] = {
      {"flows", flow_column_docs()},   {"summary", summary_column_docs()},
      {"nodes", node_column_docs()},   {"radios", radio_column_docs()},
      {"controllers", controller_column_docs()}, {"hops", hop_column_docs()}};
  std::string out = markdown;
  for (const auto& [name, columns] : tables) {
    const std::string begin = "<!-- columns:" + std::string(name) + " begin -->\n";
    const std::string end = "<!-- columns:" + std::string(name) + " end -->";
    const std::size_t b = out.find(begin);
    const std::size_t e = b == std::string::npos ? b : out.find(end, b);
    if (b == std::string::npos || e == std::string::npos) {
      throw std::invalid_argument("no region \"" + begin.substr(0, begin.size() - 1) + "\" ... \"" + end + "\"");
    }
    out = out.substr(0, b + begin.size()) + column_table(columns) + out.substr(e);
  }
  return out;
}

}  // namespace wmnsim
