#include "runner/mac_sampler.hpp"

#include <algorithm>
#include <stdexcept>

namespace wmnsim::mac {

MacSampler::MacSampler(Simulation& sim, std::vector<Radio> radios, Time interval, const std::vector<std::string>& kinds)
    : sim_(sim), radios_(std::move(radios)), interval_(interval), last_(radios_.size()) {
  if (interval_ <= Time::zero()) throw std::invalid_argument("MAC sampler: the interval must be positive");
  const auto wants = [&](const char* k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  busyness_ = wants("channel_busyness");
  queue_ = wants("queue_length");
  cw_ = wants("contention_window");
  drops_ = wants("drops");
}

MacSampler::~MacSampler() { sim_.scheduler().cancel(next_); }

void MacSampler::start() {
  if (!(busyness_ || queue_ || cw_ || drops_)) return;
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
  for_each_queue(mac, [&](const QueueDiscipline& q) { n += q.counters().dropped_total(); });
  return n;
}

}  // namespace

std::uint64_t MacSampler::total_drops(const Mac& mac) { return mac.stats().drops_retry_limit + queue_drops(mac); }

std::size_t MacSampler::queued_packets(const Mac& mac) {
  std::size_t n = 0;
  for_each_queue(mac, [&](const QueueDiscipline& q) { n += q.length_packets(); });
  return n;
}

void MacSampler::sample() {
  const double t = sim_.now().to_seconds();
  for (std::size_t i = 0; i < radios_.size(); ++i) {
    const Mac& mac = *radios_[i].mac;
    const std::string& id = radios_[i].id;
    Last& last = last_[i];
    if (busyness_) {
      const Time busy = mac.channel_busy_time();
      busy_samples_.push_back({t, id, (busy - last.busy).to_seconds() / interval_.to_seconds()});
      last.busy = busy;
    }
    if (queue_) queue_samples_.push_back({t, id, static_cast<double>(queued_packets(mac))});
    if (cw_) {
      // DCF has one window, sampled under the radio's id; EDCA one per access
      // category (802.11-2012 9.19.2), under "<radio id>:<category>".
      if (mac.category_count() == 1) {
        cw_samples_.push_back({t, id, static_cast<double>(mac.current_cw(AccessCategory::ac_be))});
      } else {
        for (std::size_t c = 0; c < kAccessCategoryCount; ++c) {
          const auto ac = static_cast<AccessCategory>(c);
          cw_samples_.push_back({t, id + ":" + std::string(to_string(ac)), static_cast<double>(mac.current_cw(ac))});
        }
      }
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
  put("queue_length", "packets", queue_samples_, queue_);
  put("contention_window", "slots", cw_samples_, cw_);
  put("drops", "packets", drop_samples_, drops_);
}

nlohmann::ordered_json MacSampler::totals(const Mac& mac, Time elapsed) {
  const MacStats& s = mac.stats();
  nlohmann::ordered_json row;
  row["data_attempts"] = s.data_attempts;
  row["data_retries"] = s.data_retries;
  row["rts_attempts"] = s.rts_attempts;
  row["tx_success"] = s.tx_success;
  row["failed_attempts"] = s.failed_attempts;
  row["internal_collisions"] = s.internal_collisions;
  row["drops_retry_limit"] = s.drops_retry_limit;
  row["drops_queue"] = queue_drops(mac);
  row["rx_data"] = s.rx_data;
  row["rx_duplicates"] = s.rx_duplicates;
  row["rx_errors"] = s.rx_errors;
  // Management frames, apart from the data counters above (docs/mac.md).
  row["mgmt_sent"] = s.mgmt_attempts;
  row["mgmt_received"] = s.mgmt_rx;
  row["channel_busyness"] = elapsed > Time::zero() ? mac.channel_busy_time().to_seconds() / elapsed.to_seconds() : 0.0;
  return row;
}

void MacSampler::write(Results& out) const {
  write_timeseries(out);
  for (const Radio& r : radios_) {
    nlohmann::ordered_json row;
    row["node"] = r.node;
    row["radio"] = r.radio_index;
    const nlohmann::ordered_json t = totals(*r.mac, sim_.now());
    for (const auto& [key, value] : t.items()) row[key] = value;
    out.nodes.push_back(std::move(row));
  }
}

}  // namespace wmnsim::mac
