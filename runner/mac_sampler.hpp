#pragma once
// Per-interval MAC statistics: every measurement interval, each MAC's counters
// are differenced against the previous sample and written as time series into
// the run's Results (docs/results.md), and at the end one row per radio (the
// radios table) carries the totals, the delays and the parameters in force.
// Time series kinds (scenario outputs.timeseries):
//   channel_busyness   busy time / interval, 003 Sec. III-A (transmitting,
//                      receiving or NAV set)
//   channel_busyness_ns2  the same as ns-2's MAC counts it (Mac::ns2_busy_time),
//                      the measure 003's controller read
//   queue_length       packets queued in all categories at the sample instant
//   contention_window  the current window, slots: DCF's one window under the
//                      radio's id; under EDCA one per access category, under
//                      "<radio id>:ac_bk" ... "<radio id>:ac_vo"
//   drops              packets dropped in the interval: retry limit + queues
//   txop_limit         the TXOP limit in force at the sample instant, with the
//                      ids of contention_window. 802.11 gives it as a time and
//                      002 as a frame count (mac_params.hpp, TxopLimit), two
//                      units that do not convert, so it is written as two kinds:
//                      "txop_limit" in frames for a category limited by frames or
//                      not at all (1: one frame per channel access), and
//                      "txop_limit_time" in seconds for one limited by time (EDCA's
//                      default AC_VI and AC_VO). Each (radio, category) has one
//                      sample per interval, in one of the two.
// Sample ids are "<node id>" for a node's first radio and "<node id>/<radio>"
// for the others. Samples are taken at the end of each interval, from time 0.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "results/results.hpp"
#include "core/simulation.hpp"
#include "mac/mac.hpp"

namespace wmnsim {
class DelaySummaries;  // runner/result_rows.hpp
}

namespace wmnsim::mac {

class MacSampler {
 public:
  struct Radio {
    Radio(Mac* radio_mac, std::string_view node_id, std::size_t index)
        : mac(radio_mac),
          node_chars(node_id.data()),
          node_size(static_cast<std::uint32_t>(node_id.size())),
          radio_index(static_cast<std::uint32_t>(index)) {}
    // The node's id, the scenario's (alive for the run): not a copy per radio, nor
    // the sample id beside it (issue 43 §3).
    std::string_view node() const { return {node_chars, node_size}; }
    // The sample id: "<node id>" for radio 0, "<node id>/<radio>" for the others.
    std::string id() const {
      return radio_index == 0 ? std::string(node()) : std::string(node()) + "/" + std::to_string(radio_index);
    }

    Mac* mac;
    // A string_view's parts, with 32-bit sizes: 24 B a radio, not 32 (issue 43 §3).
    const char* node_chars;
    std::uint32_t node_size;
    std::uint32_t radio_index;
  };

  // The radios, listed when the sampler needs them: at start() when it samples a
  // time series, else at write() (issue 43 §3: 24 B a radio not held for the run).
  using RadioList = std::function<std::vector<Radio>()>;
  // `kinds` are the requested time series kinds; others are ignored here.
  MacSampler(Simulation& sim, RadioList radios, Time interval, const std::vector<std::string>& kinds);
  MacSampler(const MacSampler&) = delete;
  MacSampler& operator=(const MacSampler&) = delete;
  ~MacSampler();

  // Starts sampling at `interval`, 2 interval, ...
  void start();
  // Writes the collected time series and one row per radio (radio_row) into
  // out.radios. `summaries`, when given, holds delay summaries already selected
  // (the nodes table's) and keeps the ones selected here.
  void write(Results& out, DelaySummaries* summaries = nullptr) const;
  // Only the time series.
  void write_timeseries(Results& out) const;
  // A MAC's totals since time 0 (the counter columns of a radio's row).
  static nlohmann::ordered_json totals(const Mac& mac, Time elapsed);
  // A radio's row of the radios table (docs/results.md): id "<node>:<radio>",
  // node, radio, channel, totals(), the MAC service and queueing delays, and the
  // AC_BE parameters in force at the end (TXOP limit, CWmin).
  static nlohmann::ordered_json radio_row(const Radio& radio, Time elapsed, DelaySummaries* summaries = nullptr);

  static std::uint64_t total_drops(const Mac& mac);
  static std::size_t queued_packets(const Mac& mac);

 private:
  struct Last {
    Time busy;
    Time busy_ns2;
    std::uint64_t drops = 0;
  };
  void sample();

  Simulation& sim_;
  RadioList list_radios_;
  std::vector<Radio> radios_;  // from start(), and only when sampling
  Time interval_;
  bool busyness_ = false, busyness_ns2_ = false, queue_ = false, cw_ = false, drops_ = false, txop_ = false;
  std::vector<Last> last_;  // per radio, from start(), and only when sampling
  std::vector<TimeSeries::Sample> busy_samples_, busy_ns2_samples_, queue_samples_, cw_samples_, drop_samples_;
  std::vector<TimeSeries::Sample> txop_frame_samples_, txop_time_samples_;
  EventId next_{};
};

}  // namespace wmnsim::mac
