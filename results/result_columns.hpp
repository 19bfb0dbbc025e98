#pragma once
// The columns of the results rows, each declared once with its key, unit and
// meaning: the runner writes a row through them, a test or a program reads it back
// typed, so no reader spells a key that the writer does not; and the column tables
// of docs/results.md are generated from them (compose_result_tables, checked by ctest
// `fragments`), so the docs list what the runner writes. As config/parameter_table.hpp does for the
// scenario's parameters.

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/packet.hpp"  // DropCause

namespace wmnsim {

// What docs/results.md says of a column.
struct ColumnDoc {
  std::string_view key;
  std::string_view unit;
  std::string_view meaning;
};

template <typename T>
class ResultColumn {
 public:
  constexpr ResultColumn(std::string_view key, std::string_view unit, std::string_view meaning)
      : doc_{key, unit, meaning} {}

  constexpr std::string_view key() const { return doc_.key; }
  constexpr std::string_view unit() const { return doc_.unit; }
  constexpr std::string_view meaning() const { return doc_.meaning; }
  constexpr ColumnDoc doc() const { return doc_; }

  // The value in `row`. Throws std::out_of_range naming the column when the row has
  // none or null there (a nullable column: value_in()).
  template <typename Json>
  T of(const Json& row) const {
    const auto it = row.find(std::string(doc_.key));
    if (it == row.end() || it->is_null()) {
      throw std::out_of_range("the results row has no value in column \"" + std::string(doc_.key) + "\"");
    }
    return it->template get<T>();
  }
  // The row's JSON value in this column, by reference (an object column read in
  // place). Throws std::out_of_range naming the column when the row has none.
  template <typename Json>
  const Json& cell(const Json& row) const {
    const auto it = row.find(std::string(doc_.key));
    if (it == row.end()) {
      throw std::out_of_range("the results row has no column \"" + std::string(doc_.key) + "\"");
    }
    return *it;
  }
  // The value, or nothing when the row holds null (or lacks the column).
  template <typename Json>
  std::optional<T> value_in(const Json& row) const {
    const auto it = row.find(std::string(doc_.key));
    if (it == row.end() || it->is_null()) return std::nullopt;
    return it->template get<T>();
  }
  template <typename Json>
  void set(Json& row, const T& value) const {
    row[std::string(doc_.key)] = value;
  }
  // Null when `value` is empty.
  template <typename Json>
  void set(Json& row, const std::optional<T>& value) const {
    if (value) {
      row[std::string(doc_.key)] = *value;
    } else {
      row[std::string(doc_.key)] = nullptr;
    }
  }

 private:
  ColumnDoc doc_;
};

// Results::flows: one row per flow (docs/results.md, `flows`), in this order; a
// transport's own statistics come after delivered_packets.
namespace flow_column {
inline constexpr ResultColumn<std::string> id{"id", "", "as in the scenario"};
inline constexpr ResultColumn<std::string> transport{"transport", "", "as in the scenario"};
inline constexpr ResultColumn<std::string> src{"src", "", "source node id, `\"@gateway\"` resolved by the routing"};
inline constexpr ResultColumn<std::string> dst{"dst", "", "destination node id, `\"@gateway\"` resolved by the routing"};
inline constexpr ResultColumn<std::uint64_t> hops{"hops", "links", "length of the data route"};
inline constexpr ResultColumn<double> goodput_bps{"goodput_bps", "bit/s",
                                                  "application bytes delivered in order at the receiver (UDP: every datagram received), over the window"};
inline constexpr ResultColumn<double> share{"share", "", "goodput / total goodput of all flows"};
inline constexpr ResultColumn<std::uint64_t> sent_packets{"sent_packets", "packets",
    "datagrams (UDP) or data segments including retransmissions (TCP) sent by the source"};
inline constexpr ResultColumn<std::uint64_t> delivered_packets{"delivered_packets", "packets",
                                                               "data packets that reached the destination node (TCP: duplicates of retransmitted bytes too)"};
inline constexpr ResultColumn<std::uint64_t> dropped_packets{"dropped_packets", "packets",
                                                             "the flow's packets (data and ACKs) dropped anywhere, every cause"};
inline constexpr ResultColumn<std::uint64_t> drops_retry_limit{"drops_retry_limit", "packets",
                                                               "of those, the ones a MAC dropped at its retry limit: collisions (and channel errors under the `sinr` reception model); 003's \"dropped packets due to collision\""};
// The other causes, as FlowMonitor's packetsDropped by reason (core/packet.hpp DropCause):
// with drops_retry_limit they add up to dropped_packets.
inline constexpr ResultColumn<std::uint64_t> drops_queue_overflow{"drops_queue_overflow", "packets",
                                                                  "of those, the ones a full queue refused or pushed out"};
inline constexpr ResultColumn<std::uint64_t> drops_queue_early_drop{"drops_queue_early_drop", "packets",
                                                                    "of those, an active queue discipline's early drops (RED/FRED family)"};
inline constexpr ResultColumn<std::uint64_t> drops_rate_limit{"drops_rate_limit", "packets",
                                                              "of those, the ones a policer (token bucket) refused"};
inline constexpr ResultColumn<std::uint64_t> drops_no_route{"drops_no_route", "packets",
                                                            "of those, the ones forwarding found no next hop for"};
inline constexpr ResultColumn<std::uint64_t> drops_ttl_expired{"drops_ttl_expired", "packets",
                                                               "of those, the ones whose TTL reached zero"};
inline constexpr ResultColumn<std::uint64_t> drops_lifetime_expired{"drops_lifetime_expired", "packets",
                                                                    "of those, the ones that waited in a MAC queue longer than its queue_lifetime_s"};
inline constexpr ResultColumn<std::uint64_t> drops_false_duplicate{
    "drops_false_duplicate", "packets",
    "of those, new frames a receiving MAC took for retransmissions (same sequence number as its last frame from that "
    "sender, Retry set: IEEE 802.11-2012 9.3.2.10) after the sender's 12-bit counter wrapped"};
inline constexpr ResultColumn<double> delay_mean_s{"delay_mean_s", "s", "mean one-way delay of data packets delivered in the window (creation at the source to arrival at the destination node)"};
inline constexpr ResultColumn<double> delay_max_s{"delay_max_s", "s", "the largest of those delays"};
inline constexpr ResultColumn<double> delay_p50_s{"delay_p50_s", "s", "their median, exact (below); null when none was delivered in the window"};
inline constexpr ResultColumn<double> delay_p95_s{"delay_p95_s", "s", "their 95th percentile; null as above"};
inline constexpr ResultColumn<double> delay_p99_s{"delay_p99_s", "s", "their 99th percentile; null as above"};
inline constexpr ResultColumn<double> jitter_s{"jitter_s", "s", "mean absolute difference between the delays of consecutively received data packets in the window (below); null below two packets"};
inline constexpr ResultColumn<std::uint64_t> tx_packets{"tx_packets", "packets",
    "data packets (not TCP ACKs) the source originated, whole run; FlowMonitor's txPackets"};
inline constexpr ResultColumn<std::uint64_t> tx_bytes{"tx_bytes", "bytes", "their IP bytes; FlowMonitor's txBytes"};
inline constexpr ResultColumn<std::uint64_t> rx_packets{"rx_packets", "packets",
    "of those, delivered at the destination node (first copy only), whole run; equals `delivered_packets`"};
inline constexpr ResultColumn<std::uint64_t> rx_bytes{"rx_bytes", "bytes", "their IP bytes"};
inline constexpr ResultColumn<std::uint64_t> lost_packets{"lost_packets", "packets", "of `tx_packets`, dropped (below), whole run"};
inline constexpr ResultColumn<std::uint64_t> in_network_packets{"in_network_packets", "packets",
                                                                "of `tx_packets`, still queued, on a link or on the air at the end: `tx_packets` = `rx_packets` + `lost_packets` + `in_network_packets`"};
inline constexpr ResultColumn<double> fair_ratio{"fair_ratio", "",
                                                 "goodput / the flow's `fair_share_bps` (only when some flow gives one; null for the others)"};
inline constexpr ResultColumn<std::vector<std::string>> route{"route", "", "the node ids the data crosses, source to destination"};
}  // namespace flow_column

// Results::summary (docs/results.md, `summary`), in this order.
namespace summary_column {
inline constexpr ResultColumn<double> jain_fairness_index{
    "jain_fairness_index", "", "(sum x)^2 / (n sum x^2) over the flows' `goodput_bps`; null when every flow got nothing"};
inline constexpr ResultColumn<double> total_goodput_bps{"total_goodput_bps", "bit/s", "sum of the flows' goodput"};
inline constexpr ResultColumn<double> effective_utilization_bps{"effective_utilization_bps", "bit/s",
                                                                "U = sum over flows of goodput x hops (001 Sec. 3)"};
inline constexpr ResultColumn<double> min_fair_ratio{
    "min_fair_ratio", "", "the smallest `fair_ratio` (001's min/fair; only with fair shares)"};
inline constexpr ResultColumn<double> max_fair_ratio{
    "max_fair_ratio", "", "the largest `fair_ratio` (001's max/fair; only with fair shares)"};
inline constexpr ResultColumn<double> utilization_ratio{
    "utilization_ratio", "",
    "U / U_opt with U_opt = sum of fair share x hops, over the flows with a fair share (001; only with fair shares)"};
inline constexpr ResultColumn<double> weighted_intra_mesh_loss_bps{
    "weighted_intra_mesh_loss_bps", "bit/s",
    "dropped bits per second, each weighted by the hops the packet had made (004 Sec. 4.2), over the window"};
inline constexpr ResultColumn<std::uint64_t> drops_local{"drops_local", "packets",
                                                         "drops at the packet's source (no hop made)"};
inline constexpr ResultColumn<std::uint64_t> drops_intra_mesh{"drops_intra_mesh", "packets",
                                                              "drops after at least one hop"};
inline constexpr ResultColumn<nlohmann::ordered_json> drops_intra_mesh_by_cause{
    "drops_intra_mesh_by_cause", "packets",
    "`drops_intra_mesh` by cause (the keys of `drops`): 004's intra-mesh packet loss is a buffer's "
    "(`queue_overflow`); retry-limit drops of forwarded packets are loss after forwarding too, which congestion "
    "control does not address"};
inline constexpr ResultColumn<nlohmann::ordered_json> drops{
    "drops", "packets",
    "drops by cause: `queue_overflow`, `queue_early_drop`, `rate_limit`, `retry_limit`, `no_route`, "
    "`ttl_expired`, `lifetime_expired` (waited longer than the MAC's `queue_lifetime_s`), `false_duplicate` (a new "
    "frame the receiving MAC discarded as a duplicate, 802.11-2012 9.3.2.10)"};
inline constexpr ResultColumn<nlohmann::ordered_json> packets{
    "packets", "packets",
    "the conservation balance: `originated` = `delivered` + `dropped` + `in_network` (still queued, on a link or "
    "on the air at the end); `stale_copy_drops` counts sender copies a MAC gave up after the next hop already had "
    "the packet (lost ACKs), which are not losses. A run whose balance fails is a bug and stops with an error"};
}  // namespace summary_column

// A radio's MAC totals (mac/mac_stats.hpp), in this order: a radio's own in its
// radios row, summed over a node's radios in the node's row (the busy fractions:
// their mean). Null for hosts.
namespace mac_column {
inline constexpr ResultColumn<std::uint64_t> data_attempts{"data_attempts", "frames",
                                                           "DATA transmissions, first attempts and retries"};
inline constexpr ResultColumn<std::uint64_t> data_retries{"data_retries", "frames",
                                                          "of those, retransmissions (Retry bit set)"};
inline constexpr ResultColumn<std::uint64_t> rts_attempts{"rts_attempts", "frames", "RTS transmissions"};
inline constexpr ResultColumn<std::uint64_t> tx_success{"tx_success", "frames",
                                                        "unicast DATA acknowledged, plus broadcasts sent"};
inline constexpr ResultColumn<std::uint64_t> failed_attempts{
    "failed_attempts", "", "exchanges whose awaited CTS or ACK did not come (\"collisions seen\")"};
inline constexpr ResultColumn<std::uint64_t> internal_collisions{
    "internal_collisions", "", "EDCA: a lower access category lost to a higher one in the station"};
inline constexpr ResultColumn<std::uint64_t> drops_retry_limit{
    "drops_retry_limit", "packets", "packets given up after the short or long retry limit"};
inline constexpr ResultColumn<std::uint64_t> drops_lifetime_in_service{
    "drops_lifetime_in_service", "packets",
    "frames in service (retried at least once or taken early) dropped at a channel access once their queue lifetime "
    "had passed: mac.queue_lifetime_rule \"ns3\" only"};
inline constexpr ResultColumn<std::uint64_t> drops_queue{"drops_queue", "packets",
                                                         "packets the MAC's queues dropped, every cause"};
inline constexpr ResultColumn<std::uint64_t> rx_data{"rx_data", "frames",
                                                     "DATA frames for this radio (or broadcast) delivered up"};
inline constexpr ResultColumn<std::uint64_t> rx_duplicates{
    "rx_duplicates", "frames",
    "frames taken for retransmissions of frames already delivered (acknowledged, not delivered; IEEE 802.11-2012 "
    "9.3.2.10), new packets the rule mistakes for them included (drops_false_duplicate)"};
inline constexpr ResultColumn<std::uint64_t> rx_errors{"rx_errors", "frames",
                                                       "frames locked on and lost (the PHY's errors)"};
inline constexpr ResultColumn<std::uint64_t> rts_refused{
    "rts_refused", "frames",
    "RTS frames for this radio not answered at their end: the station's own exchange, or the NAV (IEEE 802.11-2012 "
    "9.3.2.6); under `mac.deferral: \"ns2\"` ns-2's send timer instead of the NAV (docs/mac.md)"};
inline constexpr ResultColumn<std::uint64_t> cts_refused_busy{
    "cts_refused_busy", "frames",
    "`mac.deferral: \"ns2\"` only: CTS frames due SIFS after an accepted RTS not sent, the medium not idle then "
    "(the NAV, EIFS's included, or a frame being received; ns-2's check_pktCTRL)"};
inline constexpr ResultColumn<std::uint64_t> data_refused_after_cts{
    "data_refused_after_cts", "frames",
    "`mac.deferral: \"ns2\"` only: DATA frames due SIFS after their CTS not sent, the medium not idle then; a new "
    "RTS follows a backoff (ns-2's check_pktTx)"};
inline constexpr ResultColumn<std::uint64_t> mgmt_sent{
    "mgmt_sent", "frames",
    "management (Action) frames put on the air (first attempts and retries), counted apart from every data "
    "counter; 0 unless a controller sends management frames (docs/mac.md, \"Management frames\")"};
inline constexpr ResultColumn<std::uint64_t> mgmt_received{
    "mgmt_received", "frames",
    "management frames received (duplicates excluded, whether or not a handler took them)"};
inline constexpr ResultColumn<std::uint64_t> mgmt_drops_retry_limit{
    "mgmt_drops_retry_limit", "frames",
    "unicast management frames given up at the retry limit (no CTS or no ACK after every attempt): e.g. "
    "congestion notifications that never arrived"};
inline constexpr ResultColumn<std::uint64_t> mgmt_false_duplicates{
    "mgmt_false_duplicates", "frames",
    "new management frames this receiver discarded as duplicates (the sender's 12-bit sequence counter had wrapped: "
    "same number and Retry bit as its last frame from that sender, IEEE 802.11-2012 9.3.2.10): e.g. congestion "
    "notifications lost without a retry"};
inline constexpr ResultColumn<double> channel_busyness{
    "channel_busyness", "",
    "busy fraction of the run (003 Sec. III-A: transmitting, receiving or sensing, NAV set); a node's: its "
    "radios' mean"};
inline constexpr ResultColumn<double> channel_busyness_ns2{
    "channel_busyness_ns2", "",
    "the same as ns-2's 802.11 MAC counts it: also the waits of ns-2's send timer and the EIFS after an errored or "
    "captured frame, which ns-2 keeps in the NAV (docs/mac.md)"};
}  // namespace mac_column

// A delay distribution's columns: <prefix>_mean_s, _p50_s, _p95_s, _p99_s; null
// when there are none. Nearest-rank percentiles, exact (as for flows).
struct DelayColumns {
  ResultColumn<double> mean_s;
  ResultColumn<double> p50_s;
  ResultColumn<double> p95_s;
  ResultColumn<double> p99_s;
};
inline constexpr DelayColumns kMacServiceDelay{
    {"mac_service_delay_mean_s", "s",
     "the MAC service delay of the data frames, whole run: from when a frame reached the head of its queue (the "
     "later of its arrival and the end of the previous frame's service) to its ACK, the end of its transmission "
     "(broadcast) or its drop at the retry limit; frames that expired in the queue never reached service. A node's: "
     "its radios pooled. Null for hosts and where no data frame was sent"},
    {"mac_service_delay_p50_s", "s", "its median"},
    {"mac_service_delay_p95_s", "s", "its 95th percentile"},
    {"mac_service_delay_p99_s", "s", "its 99th percentile"}};
inline constexpr DelayColumns kMacQueueingDelay{
    {"mac_queueing_delay_mean_s", "s",
     "the MAC queueing delay of the data frames, whole run: from a frame's arrival in the MAC queue to the start of "
     "its service as above, so queueing + service is arrival to ACK. Counted when the MAC takes the frame from its "
     "queue, once per frame (retries are in the service delay): a frame still in service at the end is counted here "
     "but not yet in the service delay; frames that expired in the queue are in neither. Null as above"},
    {"mac_queueing_delay_p50_s", "s", "its median"},
    {"mac_queueing_delay_p95_s", "s", "its 95th percentile"},
    {"mac_queueing_delay_p99_s", "s", "its 99th percentile"}};

// Results::nodes: one row per node (docs/results.md, `nodes`), in this order: these,
// with the drops by cause (node_drops()) after `drops`, then `radios`, the MAC
// totals (mac_column) and the MAC delays (kMacServiceDelay, kMacQueueingDelay).
namespace node_column {
inline constexpr ResultColumn<std::string> id{"id", "", "node id"};
inline constexpr ResultColumn<std::string> role{"role", "", "`mesh`, `gateway` or `host`"};
inline constexpr ResultColumn<std::uint64_t> originated{"originated", "packets", "sent by the node's endpoints"};
inline constexpr ResultColumn<std::uint64_t> forwarded{"forwarded", "packets", "forwarded for others"};
inline constexpr ResultColumn<std::uint64_t> delivered{"delivered", "packets", "delivered to the node's endpoints"};
inline constexpr ResultColumn<std::uint64_t> drops{"drops", "packets", "dropped at this node, every cause"};
inline constexpr ColumnDoc drops_by_cause{"drops_<cause>", "packets",
                                          "of those, each cause's (the keys of the summary's `drops`)"};
inline constexpr ResultColumn<std::uint64_t> drops_local{"drops_local", "packets",
                                                         "of `drops`, packets that had made no hop"};
inline constexpr ResultColumn<std::uint64_t> drops_intra_mesh{"drops_intra_mesh", "packets",
                                                              "of `drops`, packets that had made at least one hop"};
inline constexpr ResultColumn<std::uint64_t> drops_intra_mesh_queue_overflow{
    "drops_intra_mesh_queue_overflow", "packets",
    "of `drops_intra_mesh`, those the node's queue had no room for (004's intra-mesh loss)"};
inline constexpr ResultColumn<double> weighted_loss_bps{"weighted_loss_bps", "bit/s",
                                                        "this node's share of the weighted intra-mesh loss"};
inline constexpr ResultColumn<std::uint64_t> radios{"radios", "", "number of radios (hosts: 0)"};
}  // namespace node_column

// drops_<cause>: a node's drops of one cause.
const ResultColumn<std::uint64_t>& node_drops(DropCause cause);

// Results::radios: one row per radio (docs/results.md, `radios`), in this order:
// these four, the MAC totals (mac_column), the MAC delays, then AC_BE's parameters.
namespace radio_column {
inline constexpr ResultColumn<std::string> id{
    "id", "",
    "`<node id>:<radio index>`, radio index from 0 in the node's `radios` order: `R9:1`. The reference metric "
    "`radios/R9:1/<column>` names it (docs/references.md). Time series use other ids for the same radio (`R9/1`, "
    "below)"};
inline constexpr ResultColumn<std::string> node{"node", "", "the node id"};
inline constexpr ResultColumn<std::uint64_t> radio{"radio", "", "the radio index"};
inline constexpr ResultColumn<std::int64_t> channel{"channel", "", "the radio's channel"};
inline constexpr ResultColumn<std::int64_t> txop_limit_frames{
    "txop_limit_frames", "frames",
    "AC_BE's TXOP limit in force at the end (DCF: 0) as a frame count (002), as the scenario writes it: at most one "
    "of the two limits is non-zero, both 0 meaning one frame per channel access. A controller's changes show here "
    "(the end) and in the `txop_limit` time series (over time)"};
inline constexpr ResultColumn<double> txop_limit_s{"txop_limit_s", "s", "the same limit as a time (DCF: 0)"};
inline constexpr ResultColumn<std::int64_t> cw_min{
    "cw_min", "slots", "AC_BE's CWmin in force at the end (DCF: the radio's CWmin), a window size (docs/mac.md)"};
}  // namespace radio_column

// Results::hops (outputs.hops): one row per (flow, direction, node) that handled or
// dropped one of the flow's packets, whole run (runner/hop_statistics.hpp).
namespace hop_column {
inline constexpr ResultColumn<std::string> flow{"flow", "", "the flow id"};
inline constexpr ResultColumn<std::string> direction{
    "direction", "", "`data` (the flow's data packets) or `ack` (its TCP ACKs, from the destination back)"};
inline constexpr ResultColumn<std::string> node{"node", "", "the node id"};
inline constexpr ResultColumn<std::uint64_t> hop{
    "hop", "links",
    "the fewest links a packet of the row had crossed when it reached the node (0 at the source): its place on the "
    "path; null for a row of drops only"};
inline constexpr ResultColumn<std::uint64_t> originated{"originated", "packets", "packets the node's endpoint sent"};
inline constexpr ResultColumn<std::uint64_t> forwarded{"forwarded", "packets", "packets the node forwarded"};
inline constexpr ResultColumn<std::uint64_t> delivered{"delivered", "packets",
                                                       "packets the node delivered to its endpoint"};
inline constexpr ResultColumn<std::uint64_t> bytes{"bytes", "bytes",
                                                   "IP bytes of the packets originated, forwarded or delivered"};
inline constexpr ResultColumn<double> delay_mean_s{
    "delay_mean_s", "s",
    "mean time from a packet's creation at the source to its forwarding or delivery here (FlowMonitor's "
    "delayFromFirstProbe); null at the source"};
inline constexpr ResultColumn<std::uint64_t> drops{
    "drops", "packets",
    "packets lost at this node, every cause; over the nodes a flow's add up to its `dropped_packets`"};
inline constexpr ColumnDoc drops_by_cause{"drops_<cause>", "packets",
                                          "of those, each cause's (the keys of the summary's `drops`)"};
inline constexpr ResultColumn<std::uint64_t> stale_copy_drops{
    "stale_copy_drops", "packets",
    "sender copies the node gave up after the next hop already had the packet (lost ACKs): not losses, not in "
    "`drops`"};
}  // namespace hop_column

// Results::controllers: one row per entry of the scenario's `controllers`.
namespace controller_column {
inline constexpr ResultColumn<std::string> id{"id", "", "as in the scenario (default `<type>#<index>`)"};
inline constexpr ResultColumn<std::string> type{"type", "", "as in the scenario"};
inline constexpr ResultColumn<nlohmann::ordered_json> statistics{"statistics", "",
                                                         "the controller's own record (below)"};
}  // namespace controller_column

// The column tables of docs/results.md, row by row, in the rows' order.
std::vector<ColumnDoc> flow_column_docs();
std::vector<ColumnDoc> summary_column_docs();
std::vector<ColumnDoc> node_column_docs();
std::vector<ColumnDoc> radio_column_docs();
std::vector<ColumnDoc> controller_column_docs();
std::vector<ColumnDoc> hop_column_docs();
// "| key | unit | meaning |" and a row per column.
std::string column_table(const std::vector<ColumnDoc>& columns);
// `markdown` (docs/results.md) with the regions between `<!-- columns:T begin -->` and
// `<!-- columns:T end -->` regenerated, T each of flows, summary, nodes, radios,
// controllers and hops. Throws std::invalid_argument when one is missing.
std::string compose_result_tables(const std::string& markdown);

}  // namespace wmnsim
