#include "phy/medium.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wmnsim::phy {

double distance_m(const Point& a, const Point& b) {
  const double dx = a.x_m - b.x_m, dy = a.y_m - b.y_m, dz = a.z_m - b.z_m;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

Medium::Medium(Simulation& sim, ReceptionConfig reception) : sim_(sim), reception_(reception) {}

RadioId Medium::add_radio(const RadioSpec& spec, RandomStream error_draws) {
  if (connected_) throw std::logic_error("Medium::add_radio after connect()");
  const auto id = static_cast<RadioId>(radios_.size());
  specs_.push_back(spec);
  radios_.push_back(std::make_unique<Radio>(*this, id, spec.node, spec.channel, spec.tx_power, specs_.back().profile,
                                            reception_, error_draws));
  return id;
}

Time Medium::propagation_delay(double distance) const {
  return Time::ps(std::llround(distance / kSpeedOfLight * 1e12));
}

void Medium::connect(const PathGainFn& gain) {
  if (reception_.kind == ReceptionKind::range) throw std::logic_error("range reception needs connect_by_range");
  const std::size_t n = radios_.size();
  links_.assign(n, {});
  // Below the signal floor nothing arrives. ns-2 (WirelessPhy::sendUp) also drops
  // everything below CSThresh before the MAC sees it: for threshold and ns2 that
  // is a second floor.
  const bool cs_floor = reception_.kind == ReceptionKind::threshold || reception_.kind == ReceptionKind::ns2;
  const PowerDbm cutoff = cs_floor ? std::max(reception_.signal_floor, reception_.cca_threshold) : reception_.signal_floor;
  // Each unordered pair once: the gain is symmetric (shadowing drawn once per pair).
  for (RadioId a = 0; a < n; ++a) {
    for (RadioId b = a + 1; b < n; ++b) {
      if (specs_[a].channel != specs_[b].channel) continue;  // non-overlapping channels
      const double d = distance_m(specs_[a].position, specs_[b].position);
      const Db g = gain(a, b, d);
      const Time delay = propagation_delay(d);
      for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        const PowerDbm p = specs_[from].tx_power + g;
        if (p < cutoff) continue;
        SignalReach reach{};
        reach.decodable = p >= reception_.sensitivity;
        // threshold and ns2: what arrives (above CSThresh) both senses and
        // interferes. sinr: energy is judged in aggregate.
        reach.sensed = cs_floor;
        reach.interferes = true;
        links_[from].push_back(Link{to, p.to_mw(), p, delay, reach});
      }
    }
  }
  sort_deliveries();
  connected_ = true;
}

void Medium::connect_by_range(const RangeModel& ranges, double interference_range_m) {
  if (reception_.kind != ReceptionKind::range) throw std::logic_error("connect_by_range needs range reception");
  const std::size_t n = radios_.size();
  links_.assign(n, {});
  const double reach_m = std::max(ranges.cs_range_m, interference_range_m);
  for (RadioId a = 0; a < n; ++a) {
    for (RadioId b = a + 1; b < n; ++b) {
      if (specs_[a].channel != specs_[b].channel) continue;
      const double d = distance_m(specs_[a].position, specs_[b].position);
      if (d > reach_m) continue;
      const SignalReach reach{d <= ranges.rx_range_m, d <= ranges.cs_range_m, d <= interference_range_m};
      // No powers in this model: a nominal 0 dBm keeps energy bookkeeping finite.
      const PowerDbm nominal{0.0};
      links_[a].push_back(Link{b, nominal.to_mw(), nominal, propagation_delay(d), reach});
      links_[b].push_back(Link{a, nominal.to_mw(), nominal, propagation_delay(d), reach});
    }
  }
  sort_deliveries();
  connected_ = true;
}

void Medium::sort_deliveries() {
  delivery_order_.assign(links_.size(), {});
  for (std::size_t r = 0; r < links_.size(); ++r) {
    const std::vector<Link>& links = links_[r];
    DeliveryOrder& order = delivery_order_[r];
    order.resize(links.size());
    for (std::uint32_t i = 0; i < links.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return links[a].delay < links[b].delay; });
  }
}

const Link* Medium::link(RadioId from, RadioId to) const {
  for (const Link& l : links_[from]) {
    if (l.to == to) return &l;
  }
  return nullptr;
}

std::uint32_t Medium::allocate_in_flight() {
  if (free_in_flight_ != kNone) {
    const std::uint32_t s = free_in_flight_;
    free_in_flight_ = in_flight_[s].next_free;
    return s;
  }
  in_flight_.emplace_back();
  return static_cast<std::uint32_t>(in_flight_.size() - 1);
}

void Medium::transmit(RadioId from, const PhyFrame& frame) {
  if (!connected_) throw std::logic_error("Medium::transmit before connect()");
  const std::vector<Link>& links = links_[from];
  if (links.empty()) return;
  const std::uint32_t slot = allocate_in_flight();
  InFlight& f = in_flight_[slot];
  f.frame = frame;
  f.pending_ends = static_cast<std::uint32_t>(links.size());
  signals_delivered_ += links.size();
  // Two events stand for the 2 x links arrivals and ends: one walks the receivers
  // in arrival order, handling each arrival inline while nothing else is due
  // first (Scheduler::advance_inline), the other walks the ends. Each arrival and
  // end keeps the sequence number its own event would have had (link i: 2i for
  // the start, 2i + 1 for the end), so the order of everything, ties at one
  // picosecond included, is that of scheduling them one by one.
  Scheduler& s = sim_.scheduler();
  f.from = from;
  f.sent = s.now();
  f.sequence = s.reserve_sequences(2 * links.size());
  f.epoch = s.reservation_epoch();
  f.next_start = f.next_end = 0;
  const std::uint32_t first = delivery_order_[from].front();
  const Link& l = links[first];
  const ContextId ctx = specs_[l.to].node;
  s.schedule_reserved(f.sent + l.delay, f.sequence + 2 * first, f.epoch, [this, slot] { deliver_starts(slot); }, ctx);
  s.schedule_reserved(f.sent + l.delay + frame.duration, f.sequence + 2 * first + 1, f.epoch,
                      [this, slot] { deliver_ends(slot); }, ctx);
}

void Medium::deliver_starts(std::uint32_t slot) {
  Scheduler& s = sim_.scheduler();
  InFlight& f = in_flight_[slot];  // a deque: stays valid while listeners transmit
  const std::vector<Link>& links = links_[f.from];
  const DeliveryOrder& order = delivery_order_[f.from];
  for (;;) {
    const Link& l = links[order[f.next_start++]];
    radios_[l.to]->signal_start(slot, f.frame, l.power, l.reach);
    if (f.next_start == order.size()) return;
    const std::uint32_t i = order[f.next_start];
    const Time at = f.sent + links[i].delay;
    const ContextId ctx = specs_[links[i].to].node;
    if (!s.advance_inline(at, f.sequence + 2 * i, f.epoch, ctx)) {
      s.schedule_reserved(at, f.sequence + 2 * i, f.epoch, [this, slot] { deliver_starts(slot); }, ctx);
      return;
    }
  }
}

void Medium::deliver_ends(std::uint32_t slot) {
  Scheduler& s = sim_.scheduler();
  InFlight& f = in_flight_[slot];
  const std::vector<Link>& links = links_[f.from];
  const DeliveryOrder& order = delivery_order_[f.from];
  for (;;) {
    const RadioId to = links[order[f.next_end++]].to;
    if (f.next_end == order.size()) {
      signal_ends(slot, to);  // the last: frees the slot
      return;
    }
    signal_ends(slot, to);
    const std::uint32_t i = order[f.next_end];
    const Time at = f.sent + links[i].delay + f.frame.duration;
    const ContextId ctx = specs_[links[i].to].node;
    if (!s.advance_inline(at, f.sequence + 2 * i + 1, f.epoch, ctx)) {
      s.schedule_reserved(at, f.sequence + 2 * i + 1, f.epoch, [this, slot] { deliver_ends(slot); }, ctx);
      return;
    }
  }
}

void Medium::signal_ends(std::uint32_t slot, RadioId to) {
  radios_[to]->signal_end(slot);
  InFlight& f = in_flight_[slot];
  if (--f.pending_ends == 0) {
    f.frame.payload.reset();  // the last receiver is done with it
    f.next_free = free_in_flight_;
    free_in_flight_ = slot;
  }
}

}  // namespace wmnsim::phy
