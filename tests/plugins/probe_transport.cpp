#include "tests/plugins/probe_transport.hpp"

#include <any>

#include "config/json_reader.hpp"

namespace wmnsim::test {

ProbeFlow::ProbeFlow(transport::FlowBuildContext& site)
    : scheduler_(site.scheduler),
      pool_(site.pool),
      network_(site.src),
      flow_(site.flow),
      params_(std::any_cast<const ProbeParams&>(site.flow.params)),
      window_(site.window) {
  site.dst.set_endpoint(flow_.address.flow, *this);
  next_ = scheduler_.schedule_at(flow_.start, [this] { send(); });
}

ProbeFlow::~ProbeFlow() { scheduler_.cancel(next_); }

void ProbeFlow::send() {
  if (scheduler_.now() >= flow_.stop) return;
  PacketPtr p = pool_.make(scheduler_.now());
  p->src = flow_.address.src;
  p->dst = flow_.address.dst;
  p->flow = flow_.address.flow;
  p->size_bytes = kHeaderBytes + flow_.payload_bytes;
  p->user_priority = flow_.user_priority;
  p->transport.seq = sent_++;
  p->transport.payload_bytes = flow_.payload_bytes;
  next_ = scheduler_.schedule_in(params_.interval, [this] { send(); });
  network_.receive(std::move(p));
}

void ProbeFlow::receive(PacketPtr packet) {
  ++delivered_;
  delivered_bytes_ += packet->transport.payload_bytes;
  const Time now = scheduler_.now();
  if (now >= window_.begin && now < window_.end) window_bytes_ += packet->transport.payload_bytes;
}

double ProbeFlow::goodput_bps() const {
  const double seconds = (window_.end - window_.begin).to_seconds();
  return seconds > 0 ? static_cast<double>(window_bytes_) * 8.0 / seconds : 0.0;
}

std::vector<transport::FlowStatistic> ProbeFlow::statistics() const { return {{"probe_delivered", delivered_}}; }

std::optional<double> ProbeFlow::sample(std::string_view kind) const {
  if (kind == "probe_delivered") return static_cast<double>(delivered_);
  return std::nullopt;
}

// Its keys, declared once: a "probe" object with one member.
const TimeParameter& probe_interval_key() {
  static const TimeParameter key({.key = "interval_s",
                                  .range = NumberRange::at_least(0.001),
                                  .fallback = ProbeParams{}.interval,
                                  .description = "the time between two probes",
                                  .source = "tests only"});
  return key;
}

const ObjectParameter& probe_key() {
  static const ObjectParameter key(
      {.key = "probe", .members = {probe_interval_key()}, .description = "the probe's settings", .source = "tests only"});
  return key;
}

transport::TransportEntry probe_entry() {
  transport::TransportEntry e;
  e.name = "probe";
  e.header_bytes = ProbeFlow::kHeaderBytes;
  e.parse = [](JsonReader& flow) {
    ProbeParams p;
    JsonReader r = probe_key().open(flow);
    p.interval = probe_interval_key().read_or(r);
    r.finish();
    return std::any(p);
  };
  e.build = [](transport::FlowBuildContext& site) { return std::make_unique<ProbeFlow>(site); };
  e.series.assign(std::begin(ProbeFlow::kSeries), std::end(ProbeFlow::kSeries));
  e.summary = "tests only: one packet every `probe.interval_s`, 100 header bytes, no ACKs.";
  e.parameters = {probe_key()};
  return e;
}

}  // namespace wmnsim::test
