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

transport::TransportEntry probe_entry() {
  transport::TransportEntry e;
  e.name = "probe";
  e.keys = {"probe"};
  e.header_bytes = ProbeFlow::kHeaderBytes;
  e.parse = [](JsonReader& flow) {
    ProbeParams p;
    JsonReader r = flow.object("probe");
    p.interval = r.seconds_or("interval_s", Time::ms(100), NumberRange::at_least(0.001));
    r.finish();
    return std::any(p);
  };
  e.build = [](transport::FlowBuildContext& site) { return std::make_unique<ProbeFlow>(site); };
  e.series.assign(std::begin(ProbeFlow::kSeries), std::end(ProbeFlow::kSeries));
  e.schema = R"json({"properties": {"probe": {"type": "object", "properties": {"interval_s": {"type": "number", "minimum": 0.001, "default": 0.1}}, "additionalProperties": false}}})json";
  e.doc = "`probe`: tests only: one packet every `interval_s` (0.1), 100 header bytes, no ACKs.";
  return e;
}

}  // namespace wmnsim::test
