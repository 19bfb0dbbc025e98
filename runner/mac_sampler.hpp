#pragma once
// Per-interval MAC statistics: every measurement interval, each MAC's counters
// are differenced against the previous sample and written as time series into
// the run's Results (docs/results.md), and at the end one row per radio carries
// the totals. Time series kinds (scenario outputs.timeseries):
//   channel_busyness   busy time / interval, 003 Sec. III-A (transmitting,
//                      receiving or NAV set)
//   queue_length       packets queued in all categories at the sample instant
//   contention_window  the current window, slots: DCF's one window under the
//                      radio's id; under EDCA one per access category, under
//                      "<radio id>:ac_bk" ... "<radio id>:ac_vo"
//   drops              packets dropped in the interval: retry limit + queues
// Sample ids are "<node id>" for a node's first radio and "<node id>/<radio>"
// for the others. Samples are taken at the end of each interval, from time 0.

#include <cstdint>
#include <string>
#include <vector>

#include "results/results.hpp"
#include "core/simulation.hpp"
#include "mac/mac.hpp"

namespace wmnsim::mac {

class MacSampler {
 public:
  struct Radio {
    Mac* mac;
    std::string id;  // sample id
    std::string node;
    std::size_t radio_index;
  };

  // `kinds` are the requested time series kinds; others are ignored here.
  MacSampler(Simulation& sim, std::vector<Radio> radios, Time interval, const std::vector<std::string>& kinds);
  MacSampler(const MacSampler&) = delete;
  MacSampler& operator=(const MacSampler&) = delete;
  ~MacSampler();

  // Starts sampling at `interval`, 2 interval, ...
  void start();
  // Writes the collected time series and one totals row per radio into `out`.
  void write(Results& out) const;
  // Only the time series.
  void write_timeseries(Results& out) const;
  // A MAC's totals since time 0 (the keys of a radio's row after node and radio).
  static nlohmann::ordered_json totals(const Mac& mac, Time elapsed);

  static std::uint64_t total_drops(const Mac& mac);
  static std::size_t queued_packets(const Mac& mac);

 private:
  struct Last {
    Time busy;
    std::uint64_t drops = 0;
  };
  void sample();

  Simulation& sim_;
  std::vector<Radio> radios_;
  Time interval_;
  bool busyness_ = false, queue_ = false, cw_ = false, drops_ = false;
  std::vector<Last> last_;
  std::vector<TimeSeries::Sample> busy_samples_, queue_samples_, cw_samples_, drop_samples_;
  EventId next_{};
};

}  // namespace wmnsim::mac
