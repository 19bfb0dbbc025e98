#include "runner/flow_sampler.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace wmnsim {

namespace {

// The one series that names nodes (a sample per node).
constexpr std::string_view kLossSeries = "weighted_intra_mesh_loss";

FlowSampler::Sources network_sources(Network& network, const transport::TransportRegistry& transports,
                                     const std::vector<std::string>& kinds) {
  FlowSampler::Sources s;
  const Scenario& scenario = network.scenario();
  for (std::size_t i = 0; i < scenario.flows.size(); ++i) s.flows.push_back({scenario.flows[i].id, &network.flow(i)});
  s.ledger = &network.ledger();
  // Only the per-node series names nodes: otherwise no copy of every id is held
  // for the run (32 B a node; issue 43 §3).
  if (std::find(kinds.begin(), kinds.end(), kLossSeries) != kinds.end()) {
    s.node_ids.reserve(scenario.nodes.size());
    for (const NodeConfig& n : scenario.nodes) s.node_ids.push_back(n.id);
  }
  s.known_series = transport::series_kinds(transports);
  return s;
}

// The unit of `kind` as the flows offer it, else as a transport would; empty when
// no transport offers it.
std::optional<std::string> unit_of(const std::string& kind, const FlowSampler::Sources& sources) {
  std::optional<std::string> unit;
  for (const FlowSampler::Flow& f : sources.flows) {
    for (const transport::FlowSeriesKind& k : f.endpoint->series()) {
      if (k.name != kind) continue;
      if (unit && *unit != k.unit) {
        throw std::logic_error("time series " + kind + " offered in two units, " + *unit + " and " +
                               std::string(k.unit));
      }
      unit = std::string(k.unit);
    }
  }
  if (unit) return unit;
  for (const transport::FlowSeriesKind& k : sources.known_series) {
    if (k.name == kind) return std::string(k.unit);
  }
  return std::nullopt;
}

}  // namespace

FlowSampler::FlowSampler(Scheduler& scheduler, Sources sources, Time interval, const std::vector<std::string>& kinds)
    : scheduler_(scheduler),
      sources_(std::move(sources)),
      interval_(interval),
      last_bytes_(sources_.flows.size(), 0),
      last_weighted_bits_(sources_.node_ids.size(), 0) {
  for (const std::string& kind : kinds) {
    if (kind == "flow_goodput") {
      goodput_ = true;
    } else if (kind == kLossSeries) {
      loss_ = true;
    } else if (std::none_of(series_.begin(), series_.end(), [&](const Series& s) { return s.kind == kind; })) {
      if (auto unit = unit_of(kind, sources_)) series_.push_back({kind, std::move(*unit), {}});
    }
  }
  if (loss_ && sources_.ledger == nullptr) throw std::logic_error("FlowSampler: weighted_intra_mesh_loss needs a ledger");
}

FlowSampler::FlowSampler(Network& network, const transport::TransportRegistry& transports, Time interval,
                         const std::vector<std::string>& kinds)
    : FlowSampler(network.simulation().scheduler(), network_sources(network, transports, kinds), interval, kinds) {}

FlowSampler::~FlowSampler() { scheduler_.cancel(next_); }

void FlowSampler::start() {
  if (!goodput_ && !loss_ && series_.empty()) return;
  next_ = scheduler_.schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

void FlowSampler::sample() {
  const double t = scheduler_.now().to_seconds();
  for (std::size_t i = 0; i < sources_.flows.size(); ++i) {
    const transport::FlowEndpoint& e = *sources_.flows[i].endpoint;
    const std::string& id = sources_.flows[i].id;
    if (goodput_) {
      const std::uint64_t bytes = e.payload_bytes_delivered();
      goodput_samples_.push_back({t, id, static_cast<double>(bytes - last_bytes_[i]) * 8.0 / interval_.to_seconds()});
      last_bytes_[i] = bytes;
    }
    for (Series& s : series_) {
      if (const std::optional<double> value = e.sample(s.kind)) s.samples.push_back({t, id, *value});
    }
  }
  if (loss_) {
    for (std::size_t n = 0; n < sources_.node_ids.size(); ++n) {
      // A drop at the source weighs nothing (0 hops), so this is the intra-mesh loss.
      const std::uint64_t bits = sources_.ledger->node_drops(static_cast<std::uint32_t>(n)).total.hop_weighted_bits;
      loss_samples_.push_back(
          {t, sources_.node_ids[n], static_cast<double>(bits - last_weighted_bits_[n]) / interval_.to_seconds()});
      last_weighted_bits_[n] = bits;
    }
  }
  next_ = scheduler_.schedule_in(interval_, [this] { sample(); }, kObserverContext);
}

void FlowSampler::write(Results& out) const {
  if (goodput_) append_timeseries(out, "flow_goodput", "bit/s", interval_, goodput_samples_);
  for (const Series& s : series_) append_timeseries(out, s.kind, s.unit, interval_, s.samples);
  if (loss_) append_timeseries(out, std::string(kLossSeries), "bit/s", interval_, loss_samples_);
}

}  // namespace wmnsim
