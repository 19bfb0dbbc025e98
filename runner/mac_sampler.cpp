#include "runner/mac_sampler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "runner/result_rows.hpp"

namespace wmnsim::mac {

MacSampler::MacSampler(Simulation& sim, RadioList radios, Time interval, const std::vector<std::string>& kinds)
    : sim_(sim), list_radios_(std::move(radios)), interval_(interval) {
  if (interval_ <= Time::zero()) throw std::invalid_argument("MAC sampler: the interval must be positive");
  const auto wants = [&](const char* k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  busyness_ = wants("channel_busyness");
  busyness_ns2_ = wants("channel_busyness_ns2");
  queue_ = wants("queue_length");
  cw_ = wants("contention_window");
  drops_ = wants("drops");
  txop_ = wants("txop_limit");
}

MacSampler::~MacSampler() { sim_.scheduler().cancel(next_); }

void MacSampler::start() {
  if (!(busyness_ || busyness_ns2_ || queue_ || cw_ || drops_ || txop_)) return;
  // Only a sampling run lists its radios for the run and differences counters:
  // without a MAC time series no radio holds a record (issue 43 §3).
  radios_ = list_radios_();
  last_.assign(radios_.size(), Last{});
  next_ = sim_.scheduler().schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

namespace {

// The queues a MAC really has: one under DCF, four under EDCA.
template <typename Fn>
void for_each_queue(const Mac& mac, Fn fn) {
  for (std::size_t c = 0; c < kAccessCategoryCount; ++c) {
    const auto ac = static_cast<AccessCategory>(c);
    if (mac.category_count() == 1 && ac != AccessCategory::ac_be) continue;
    fn(mac.queue(ac));
  }
}

std::uint64_t queue_drops(const Mac& mac) {
  std::uint64_t n = 0;
  for_each_queue(mac, [&](const link::QueueDiscipline& q) { n += q.counters().dropped_total(); });
  return n;
}

// The categories a MAC has with their sample ids: DCF's one under the radio's
// id; under EDCA one per access category (802.11-2012 9.19.2), under
// "<radio id>:<category>".
template <typename Fn>
void for_each_category(const Mac& mac, const std::string& id, Fn fn) {
  if (mac.category_count() == 1) {
    fn(AccessCategory::ac_be, id);
    return;
  }
  for (std::size_t c = 0; c < kAccessCategoryCount; ++c) {
    const auto ac = static_cast<AccessCategory>(c);
    fn(ac, id + ":" + std::string(to_string(ac)));
  }
}

}  // namespace

std::uint64_t MacSampler::total_drops(const Mac& mac) {
  const MacStats s = mac.stats();
  return s.drops_retry_limit + s.drops_lifetime_in_service + queue_drops(mac);
}

std::size_t MacSampler::queued_packets(const Mac& mac) {
  std::size_t n = 0;
  for_each_queue(mac, [&](const link::QueueDiscipline& q) { n += q.length_packets(); });
  return n;
}

void MacSampler::sample() {
  const double t = sim_.now().to_seconds();
  for (std::size_t i = 0; i < radios_.size(); ++i) {
    const Mac& mac = *radios_[i].mac;
    const std::string id = radios_[i].id();
    Last& last = last_[i];
    if (busyness_) {
      const Time busy = mac.channel_busy_time();
      busy_samples_.push_back({t, id, (busy - last.busy).to_seconds() / interval_.to_seconds()});
      last.busy = busy;
    }
    if (busyness_ns2_) {
      const Time busy = mac.ns2_busy_time();
      busy_ns2_samples_.push_back({t, id, (busy - last.busy_ns2).to_seconds() / interval_.to_seconds()});
      last.busy_ns2 = busy;
    }
    if (queue_) queue_samples_.push_back({t, id, static_cast<double>(queued_packets(mac))});
    if (cw_) {
      for_each_category(mac, id, [&](AccessCategory ac, std::string sample_id) {
        cw_samples_.push_back({t, std::move(sample_id), static_cast<double>(mac.current_cw(ac))});
      });
    }
    if (txop_) {
      // Read at each sample, so a controller's Mac::set_params shows from the
      // next sample on.
      for_each_category(mac, id, [&](AccessCategory ac, std::string sample_id) {
        const TxopLimit& limit = mac.params(ac).txop;
        if (limit.time > Time::zero()) {
          txop_time_samples_.push_back({t, std::move(sample_id), limit.time.to_seconds()});
        } else {
          // No limit is a TXOP of one frame (802.11's TXOP limit 0).
          const double frames = limit.frames > 0 ? static_cast<double>(limit.frames) : 1.0;
          txop_frame_samples_.push_back({t, std::move(sample_id), frames});
        }
      });
    }
    if (drops_) {
      const std::uint64_t d = total_drops(mac);
      drop_samples_.push_back({t, id, static_cast<double>(d - last.drops)});
      last.drops = d;
    }
  }
  next_ = sim_.scheduler().schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

void MacSampler::write_timeseries(Results& out) const {
  const auto put = [&](const char* kind, const char* unit, const std::vector<TimeSeries::Sample>& samples, bool on) {
    if (on) append_timeseries(out, kind, unit, interval_, samples);
  };
  put("channel_busyness", "ratio", busy_samples_, busyness_);
  put("channel_busyness_ns2", "ratio", busy_ns2_samples_, busyness_ns2_);
  put("queue_length", "packets", queue_samples_, queue_);
  put("contention_window", "slots", cw_samples_, cw_);
  put("drops", "packets", drop_samples_, drops_);
  put("txop_limit", "frames", txop_frame_samples_, txop_);
  // Only when some category is limited by time: a run of frame limits (002) has
  // no empty second kind.
  put("txop_limit_time", "s", txop_time_samples_, txop_ && !txop_time_samples_.empty());
}

nlohmann::ordered_json MacSampler::totals(const Mac& mac, Time elapsed) {
  const MacStats& s = mac.stats();
  nlohmann::ordered_json row;
  mac_column::data_attempts.set(row, s.data_attempts);
  mac_column::data_retries.set(row, s.data_retries);
  mac_column::rts_attempts.set(row, s.rts_attempts);
  mac_column::tx_success.set(row, s.tx_success);
  mac_column::failed_attempts.set(row, s.failed_attempts);
  mac_column::internal_collisions.set(row, s.internal_collisions);
  mac_column::drops_retry_limit.set(row, s.drops_retry_limit);
  mac_column::drops_lifetime_in_service.set(row, s.drops_lifetime_in_service);
  mac_column::drops_queue.set(row, queue_drops(mac));
  mac_column::rx_data.set(row, s.rx_data);
  mac_column::rx_duplicates.set(row, s.rx_duplicates);
  mac_column::rx_errors.set(row, s.rx_errors);
  mac_column::rts_refused.set(row, s.rts_refused);
  mac_column::cts_refused_busy.set(row, s.cts_refused_busy);
  mac_column::data_refused_after_cts.set(row, s.data_refused_after_cts);
  // Management frames, apart from the data counters above (docs/mac.md).
  mac_column::mgmt_sent.set(row, s.mgmt_attempts);
  mac_column::mgmt_received.set(row, s.mgmt_rx);
  // Unicast management frames given up at the retry limit: notifications that
  // never arrived (a congestion control's blind spot).
  mac_column::mgmt_drops_retry_limit.set(row, s.mgmt_drops_retry_limit);
  mac_column::mgmt_false_duplicates.set(row, s.mgmt_rx_false_duplicates);
  mac_column::channel_busyness.set(
      row, elapsed > Time::zero() ? mac.channel_busy_time().to_seconds() / elapsed.to_seconds() : 0.0);
  // As ns-2's MAC counts it (mac::Mac::ns2_busy_time): what 003's figures show.
  mac_column::channel_busyness_ns2.set(
      row, elapsed > Time::zero() ? mac.ns2_busy_time().to_seconds() / elapsed.to_seconds() : 0.0);
  return row;
}

nlohmann::ordered_json MacSampler::radio_row(const Radio& r, Time elapsed, DelaySummaries* summaries) {
  const Mac& mac = *r.mac;
  nlohmann::ordered_json row;
  // Not the sample id ("R9/1"): ':' keeps the reference metric name
  // radios/<id>/<column> readable, and radio 0 gets an index too.
  radio_column::id.set(row, std::string(r.node()) + ":" + std::to_string(r.radio_index));
  radio_column::node.set(row, std::string(r.node()));
  radio_column::radio.set(row, static_cast<std::uint64_t>(r.radio_index));
  radio_column::channel.set(row, static_cast<std::int64_t>(r.mac->radio().channel()));
  const nlohmann::ordered_json t = totals(mac, elapsed);
  for (const auto& [key, value] : t.items()) row[key] = value;
  if (summaries != nullptr) {
    put_delay_columns(row, kMacServiceDelay, summaries->of(mac.service_delays()));
    put_delay_columns(row, kMacQueueingDelay, summaries->of(mac.queueing_delays()));
  } else {
    put_delay_columns(row, kMacServiceDelay, mac.service_delays());
    put_delay_columns(row, kMacQueueingDelay, mac.queueing_delays());
  }
  // AC_BE (DCF: its one function), the category of 002's TCP flows; as the
  // scenario writes it, both limits 0 means one frame per channel access.
  const EdcaParams& be = mac.params(AccessCategory::ac_be);
  radio_column::txop_limit_frames.set(row, static_cast<std::int64_t>(be.txop.frames));
  radio_column::txop_limit_s.set(row, be.txop.time.to_seconds());
  radio_column::cw_min.set(row, static_cast<std::int64_t>(be.cw_min));
  return row;
}

void MacSampler::write(Results& out, DelaySummaries* summaries) const {
  write_timeseries(out);
  std::vector<Radio> listed;
  if (radios_.empty()) listed = list_radios_();
  for (const Radio& r : radios_.empty() ? listed : radios_) out.radios.push_back(radio_row(r, sim_.now(), summaries));
}

}  // namespace wmnsim::mac
