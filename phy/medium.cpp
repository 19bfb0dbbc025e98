#include "phy/medium.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace wmnsim::phy {

double distance_m(const Point& a, const Point& b) {
  const double dx = a.x_m - b.x_m, dy = a.y_m - b.y_m, dz = a.z_m - b.z_m;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

Medium::Medium(Simulation& sim, ReceptionConfig reception)
    : sim_(sim), reception_(reception), link_rules_(link_rules(reception)) {}

RadioId Medium::add_radio(const RadioSpec& spec, RandomStream error_draws) {
  const std::uint32_t first = 0;
  add_radios(std::span(&spec, 1), std::span(&error_draws, 1), std::span(&first, 1));
  return static_cast<RadioId>(radios_.size() - 1);
}

void Medium::add_radios(std::span<const RadioSpec> specs, std::span<const RandomStream> error_draws,
                        std::span<const std::uint32_t> build_order) {
  if (connected_) throw std::logic_error("Medium::add_radio after connect()");
  if (error_draws.size() != specs.size() || build_order.size() != specs.size()) {
    throw std::invalid_argument("Medium::add_radios: one stream and one place in the build order per radio");
  }
  std::vector<bool> placed(specs.size(), false);
  for (const std::uint32_t k : build_order) {
    if (k >= specs.size() || placed[k]) throw std::invalid_argument("Medium::add_radios: the build order is no permutation");
    placed[k] = true;
  }
  const std::size_t first = radios_.size();
  std::vector<const PhyProfile*> profiles;
  profiles.reserve(specs.size());
  for (const RadioSpec& spec : specs) {
    placements_.push_back(Placement{spec.node, spec.channel, spec.position, spec.tx_power});
    auto profile = std::find_if(profiles_.begin(), profiles_.end(),
                                [&](const PhyProfile& p) { return same_profile(p, spec.profile); });
    if (profile == profiles_.end()) profile = profiles_.insert(profiles_.end(), spec.profile);
    profiles.push_back(&*profile);
  }
  radios_.resize(first + specs.size());
  for (const std::uint32_t k : build_order) {
    const RadioSpec& spec = specs[k];
    radios_[first + k] = std::make_unique<Radio>(*this, static_cast<RadioId>(first + k), spec.node, spec.channel,
                                                 spec.tx_power, *profiles[k], reception_, error_draws[k]);
  }
}

Time Medium::propagation_delay(double distance) const {
  return Time::ps(std::llround(distance / kSpeedOfLight * 1e12));
}

namespace {

// Calls f(a, b, d) for every pair of radios a < b on the same channel whose
// distance d = distance_m(...) is at most reach_m, each pair once. Radios are
// bucketed per channel into a uniform grid over (x, y) with cells at least reach_m
// wide, so a pair within reach lies in the same or adjacent cells (the 3-D distance
// is at least the horizontal one); each cell is paired with itself and its four
// "forward" neighbours (+x; -x..+x at +y), which covers each adjacent pair of cells
// once. Within a cell radios are in increasing id, so with a single cell (infinite
// reach) the pairs come in the order of the all-pairs loop: a, then b > a.
// `specs`: indexed by radio id, each with its channel and position.
template <class Radios, class F>
void for_each_pair_within(const Radios& specs, double reach_m, F&& f) {
  const std::size_t n = specs.size();
  if (n < 2) return;
  if (std::isnan(reach_m)) reach_m = std::numeric_limits<double>::infinity();
  // Radio ids grouped by channel, increasing within each group.
  std::vector<RadioId> by_channel(n);
  for (RadioId i = 0; i < n; ++i) by_channel[i] = i;
  std::stable_sort(by_channel.begin(), by_channel.end(),
                   [&](RadioId a, RadioId b) { return specs[a].channel < specs[b].channel; });
  std::vector<std::uint32_t> cell_of;
  std::vector<std::uint32_t> cell_start;
  std::vector<RadioId> items;
  std::vector<Point> item_pos;
  for (std::size_t g0 = 0; g0 < n;) {
    std::size_t g1 = g0 + 1;
    while (g1 < n && specs[by_channel[g1]].channel == specs[by_channel[g0]].channel) ++g1;
    const std::span<const RadioId> group(by_channel.data() + g0, g1 - g0);
    g0 = g1;
    if (group.size() < 2) continue;
    double x0 = std::numeric_limits<double>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
    for (const RadioId r : group) {
      x0 = std::min(x0, specs[r].position.x_m);
      x1 = std::max(x1, specs[r].position.x_m);
      y0 = std::min(y0, specs[r].position.y_m);
      y1 = std::max(y1, specs[r].position.y_m);
    }
    // Cells a little wider than reach_m (so that rounding in the cell index cannot put
    // two radios within reach two cells apart), and no more cells than about 2 per
    // radio (a small reach over a wide area would otherwise make the grid larger than
    // the network).
    const double span_x = x1 - x0, span_y = y1 - y0;
    const double min_cell = std::sqrt(std::max(span_x, 1.0) * std::max(span_y, 1.0) / (2.0 * static_cast<double>(group.size())));
    const double cell = std::max(reach_m * (1.0 + 1e-6), min_cell);
    std::size_t nx = 1, ny = 1;
    if (std::isfinite(cell) && cell > 0.0) {
      nx = static_cast<std::size_t>(std::min(span_x / cell, 1e6)) + 1;
      ny = static_cast<std::size_t>(std::min(span_y / cell, 1e6)) + 1;
    }
    auto cell_index = [&](const Point& p) -> std::uint32_t {
      if (nx == 1 && ny == 1) return 0;
      const auto cx = std::min(nx - 1, static_cast<std::size_t>((p.x_m - x0) / cell));
      const auto cy = std::min(ny - 1, static_cast<std::size_t>((p.y_m - y0) / cell));
      return static_cast<std::uint32_t>(cy * nx + cx);
    };
    // Counting sort by cell, stable: ids stay increasing within a cell.
    const std::size_t cells = nx * ny;
    cell_of.resize(group.size());
    cell_start.assign(cells + 1, 0);
    for (std::size_t i = 0; i < group.size(); ++i) {
      cell_of[i] = cell_index(specs[group[i]].position);
      ++cell_start[cell_of[i] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) cell_start[c + 1] += cell_start[c];
    items.resize(group.size());
    item_pos.resize(group.size());
    {
      std::vector<std::uint32_t> fill(cell_start.begin(), cell_start.end() - 1);
      for (std::size_t i = 0; i < group.size(); ++i) {
        const std::uint32_t k = fill[cell_of[i]]++;
        items[k] = group[i];
        item_pos[k] = specs[group[i]].position;
      }
    }
    // Squared distances filter cheaply; the distance handed on is distance_m's.
    const double reach2 = reach_m * reach_m * (1.0 + 1e-9);
    auto visit = [&](std::size_t i, std::size_t j) {
      const Point& p = item_pos[i];
      const Point& q = item_pos[j];
      const double dx = p.x_m - q.x_m, dy = p.y_m - q.y_m, dz = p.z_m - q.z_m;
      if (dx * dx + dy * dy + dz * dz > reach2) return;
      const double d = distance_m(p, q);
      if (d > reach_m) return;
      const RadioId a = items[i], b = items[j];
      if (a < b) f(a, b, d);
      else f(b, a, d);
    };
    for (std::size_t cy = 0; cy < ny; ++cy) {
      for (std::size_t cx = 0; cx < nx; ++cx) {
        const std::size_t c = cy * nx + cx;
        const std::uint32_t begin = cell_start[c], end = cell_start[c + 1];
        if (begin == end) continue;
        for (std::uint32_t i = begin; i < end; ++i) {
          for (std::uint32_t j = i + 1; j < end; ++j) visit(i, j);
        }
        auto with_cell = [&](std::size_t ox, std::size_t oy) {
          const std::size_t o = oy * nx + ox;
          for (std::uint32_t i = begin; i < end; ++i) {
            for (std::uint32_t j = cell_start[o]; j < cell_start[o + 1]; ++j) visit(i, j);
          }
        };
        if (cx + 1 < nx) with_cell(cx + 1, cy);
        if (cy + 1 < ny) {
          if (cx > 0) with_cell(cx - 1, cy + 1);
          with_cell(cx, cy + 1);
          if (cx + 1 < nx) with_cell(cx + 1, cy + 1);
        }
      }
    }
  }
}

// A link as connect() finds it: what Link holds, with its power in dBm where Link
// has its radio (the same 32 bytes, so that finding links peaks no higher).
struct FoundLink {
  RadioId to;
  SignalReach reach;
  PowerMw power;
  PowerDbm power_dbm;
  Time delay;
};
static_assert(sizeof(FoundLink) == sizeof(Link));

// The neighbour lists from the links found, in any order: sorted by `to`, the
// order the all-pairs loop produced (radio r got the pairs (a, r), a < r, in
// increasing a, then (r, b) in increasing b); the powers in dBm in a second set
// of lists, entry for entry.
std::pair<FlatLists<Link>, FlatLists<PowerDbm>> neighbour_lists(
    const std::vector<std::unique_ptr<Radio>>& radios, std::vector<std::pair<RadioId, FoundLink>>& found) {
  const std::size_t n = radios.size();
  FlatLists<FoundLink> lists = FlatLists<FoundLink>::from_pairs(n, found);
  std::vector<std::pair<RadioId, FoundLink>>().swap(found);
  std::pair<FlatLists<Link>, FlatLists<PowerDbm>> out;
  out.first.reserve(n, lists.items().size());
  out.second.reserve(n, lists.items().size());
  for (std::size_t r = 0; r < n; ++r) {
    const std::span<FoundLink> l = lists[r];
    std::sort(l.begin(), l.end(), [](const FoundLink& x, const FoundLink& y) { return x.to < y.to; });
    out.first.add_list();
    out.second.add_list();
    for (const FoundLink& f : l) {
      out.first.push_back(Link{f.to, f.reach, f.power, radios[f.to].get(), f.delay});
      out.second.push_back(f.power_dbm);
    }
  }
  return out;
}

}  // namespace

double reach_distance_m(const std::function<Db(double distance_m)>& max_gain, PowerDbm tx_power, PowerDbm cutoff) {
  constexpr double kMarginDb = 1e-6;
  const auto out_of_reach = [&](double d) { return (tx_power + max_gain(d)).dbm() < cutoff.dbm() - kMarginDb; };
  double lo = 0.0, hi = 1.0;
  while (!out_of_reach(hi)) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e12) return std::numeric_limits<double>::infinity();
  }
  // out_of_reach(hi) holds; shrink hi towards the boundary, keeping it so.
  for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (out_of_reach(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

PowerDbm Medium::delivery_cutoff() const {
  // Below the signal floor nothing arrives. ns-2 (WirelessPhy::sendUp) also drops
  // everything below CSThresh before the MAC sees it: for threshold and ns2 that
  // is a second floor.
  return link_rules_.carrier_sense_floor ? std::max(reception_.signal_floor, reception_.cca_threshold)
                                         : reception_.signal_floor;
}

namespace {

[[noreturn]] void throw_too_many_links(std::size_t radios, std::size_t max_links) {
  throw TooManyLinks("the " + std::to_string(radios) + " radios hear each other over more than " +
                     std::to_string(max_links) + " links (pairs above the signal floor, each direction)");
}

}  // namespace

void Medium::connect(const PathGainFn& gain, double reach_m, std::size_t max_links) {
  if (link_rules_.by_range) throw std::logic_error("range reception needs connect_by_range");
  const std::size_t n = radios_.size();
  const PowerDbm cutoff = delivery_cutoff();
  std::vector<std::pair<RadioId, FoundLink>> found;  // (from, link), as found
  // Each unordered pair once: the gain is symmetric (shadowing drawn once per pair).
  // Pairs on different channels never interact (non-overlapping channels).
  std::vector<PowerDbm> tx_power(n);  // compact: read once per pair within reach
  for (std::size_t r = 0; r < n; ++r) tx_power[r] = placements_[r].tx_power;
  for_each_pair_within(placements_, reach_m, [&](RadioId a, RadioId b, double d) {
    const Db g = gain(a, b, d);
    if (tx_power[a] + g < cutoff && tx_power[b] + g < cutoff) return;  // the usual case
    const Time delay = propagation_delay(d);
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      const PowerDbm p = placements_[from].tx_power + g;
      if (p < cutoff) continue;
      SignalReach reach{};
      reach.decodable = p >= reception_.sensitivity;
      // threshold and ns2: what arrives (above CSThresh) both senses and
      // interferes. sinr: energy is judged in aggregate.
      reach.sensed = link_rules_.carrier_sense_floor;
      reach.interferes = true;
      if (found.size() == max_links) throw_too_many_links(n, max_links);
      found.emplace_back(from, FoundLink{to, reach, p.to_mw(), p, delay});
    }
  });
  std::tie(links_, power_dbm_) = neighbour_lists(radios_, found);
  sort_deliveries();
  connected_ = true;
}

void Medium::connect_by_range(const RangeModel& ranges, double interference_range_m, std::size_t max_links) {
  if (!link_rules_.by_range) throw std::logic_error("connect_by_range needs range reception");
  const std::size_t n = radios_.size();
  const double reach_m = std::max(ranges.cs_range_m, interference_range_m);
  std::vector<std::pair<RadioId, FoundLink>> found;  // (from, link), as found
  for_each_pair_within(placements_, reach_m, [&](RadioId a, RadioId b, double d) {
    const SignalReach reach{d <= ranges.rx_range_m, d <= ranges.cs_range_m, d <= interference_range_m};
    // No powers in this model: a nominal 0 dBm keeps energy bookkeeping finite.
    const PowerDbm nominal{0.0};
    if (found.size() + 2 > max_links) throw_too_many_links(n, max_links);
    found.emplace_back(a, FoundLink{b, reach, nominal.to_mw(), nominal, propagation_delay(d)});
    found.emplace_back(b, FoundLink{a, reach, nominal.to_mw(), nominal, propagation_delay(d)});
  });
  std::tie(links_, power_dbm_) = neighbour_lists(radios_, found);
  sort_deliveries();
  connected_ = true;
}

void Medium::sort_deliveries() {
  delivery_order_ = {};
  faint_ = {};
  max_link_delay_ = Time();
  // Signals that can never be locked onto only add energy (sinr reception): they
  // are handed to the radio as intervals rather than delivered as events.
  const bool intervals = link_rules_.faint_as_intervals;
  std::vector<double> faint_bound(links_.size(), 0.0);
  for (std::size_t r = 0; r < links_.size(); ++r) {
    const std::span<const Link> links = links_[r];
    delivery_order_.add_list();
    faint_.add_list();
    for (std::uint32_t i = 0; i < links.size(); ++i) {
      max_link_delay_ = std::max(max_link_delay_, links[i].delay);
      if (intervals && !links[i].reach.decodable) {
        faint_.push_back(i);
        faint_bound[links[i].to] += links[i].power.mw();
      } else {
        delivery_order_.push_back(Delivery{i, placements_[links[i].to].node});
      }
    }
    const std::span<Delivery> order = delivery_order_[r];
    std::stable_sort(order.begin(), order.end(),
                     [&](const Delivery& a, const Delivery& b) { return links[a.link].delay < links[b.link].delay; });
  }
  delivery_order_.shrink_to_fit();
  faint_.shrink_to_fit();
  for (std::size_t r = 0; r < links_.size(); ++r) radios_[r]->set_faint_bound(PowerMw(faint_bound[r]));
}

const Link* Medium::link(RadioId from, RadioId to) const {
  const std::span<const Link> links = links_[from];
  const auto it = std::lower_bound(links.begin(), links.end(), to, [](const Link& l, RadioId r) { return l.to < r; });
  return it != links.end() && it->to == to ? &*it : nullptr;
}

PowerDbm Medium::power_dbm(RadioId from, const Link& link) const {
  const std::span<const Link> links = links_.at(from);  // std::out_of_range before connect() or beyond the radios
  const std::less<const Link*> before;
  if (before(&link, links.data()) || !before(&link, links.data() + links.size())) {
    throw std::logic_error("Medium::power_dbm: not a link of radio " + std::to_string(from));
  }
  return power_dbm_[from][static_cast<std::size_t>(&link - links.data())];
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
  const std::span<const Link> links = links_[from];
  const std::span<const Delivery> order = delivery_order_[from];
  const std::span<const std::uint32_t> faint = faint_[from];
  Scheduler& s = sim_.scheduler();
  // Against the longest delay of any link first: one comparison on every frame,
  // where the sender's own longest delay is a walk over its faint links (issue 43
  // §4: 0.7 % of 004's mesh's instructions); that walk only when this says the
  // frame might end too late.
  if (max_link_delay_ + frame.duration > Time::max() - s.now()) [[unlikely]] check_end_of_time(from, frame);
  signals_delivered_ += links.size();
  if (!order.empty()) {
    const std::uint32_t slot = allocate_in_flight();
    InFlight& f = in_flight_[slot];
    f.frame = frame;
    f.pending_ends = static_cast<std::uint32_t>(order.size());
    // Two events stand for the arrivals and ends at the non-faint receivers: one
    // walks them in arrival order, handling each arrival inline while nothing else
    // is due first (Scheduler::advance_inline), the other walks the ends. Each
    // arrival and end keeps the sequence number its own event would have had (link
    // i: 2i for the start, 2i + 1 for the end; reserved for every link, faint or
    // not), so the order of everything, ties at one picosecond included, is that of
    // scheduling them one by one.
    f.from = from;
    f.sent = s.now();
    f.sequence = s.reserve_sequences(2 * links.size());
    f.epoch = s.reservation_epoch();
    f.next_start = f.next_end = 0;
    const std::uint32_t first = order.front().link;
    const Link& l = links[first];
    const ContextId ctx = order.front().context;
    s.schedule_reserved(f.sent + l.delay, f.sequence + 2 * first, f.epoch, [this, slot] { deliver_starts(slot); },
                        ctx);
    s.schedule_reserved(f.sent + l.delay + frame.duration, f.sequence + 2 * first + 1, f.epoch,
                        [this, slot] { deliver_ends(slot); }, ctx);
  }
  for (const std::uint32_t i : faint) {
    const Link& l = links[i];
    const Time start = s.now() + l.delay;
    l.radio->faint_signal(start, start + frame.duration, l.power);
    // Never locked onto: below the sensitivity (a trace with every failed frame).
    if (air_observer_ != nullptr) {
      air_observer_->on_missed(l.to, frame, RxFailureInfo{RxFailure::below_sensitivity, kNoRadio, l.power}, start);
    }
  }
}

void Medium::check_end_of_time(RadioId from, const PhyFrame& frame) const {
  const std::span<const Link> links = links_[from];
  const std::span<const Delivery> order = delivery_order_[from];
  Time last_delay;
  if (!order.empty()) last_delay = links[order.back().link].delay;  // the deliveries are by delay
  for (const std::uint32_t i : faint_[from]) last_delay = std::max(last_delay, links[i].delay);
  const Time now = sim_.scheduler().now();
  if (last_delay + frame.duration > Time::max() - now) {
    throw std::logic_error("a frame sent at " + now.to_string() + " would end past the end of simulated time");
  }
}

void Medium::deliver_starts(std::uint32_t slot) {
  Scheduler& s = sim_.scheduler();
  InFlight& f = in_flight_[slot];  // a deque: stays valid while listeners transmit
  const std::span<const Link> links = links_[f.from];
  const std::span<const Delivery> order = delivery_order_[f.from];
  for (;;) {
    const Link& l = links[order[f.next_start++].link];
    l.radio->signal_start(slot, f.frame, l.power, l.reach);
    if (f.next_start == order.size()) return;
    const std::uint32_t i = order[f.next_start].link;
    const Time at = f.sent + links[i].delay;
    const ContextId ctx = order[f.next_start].context;
    if (!s.advance_inline(at, f.sequence + 2 * i, f.epoch, ctx)) {
      s.schedule_reserved(at, f.sequence + 2 * i, f.epoch, [this, slot] { deliver_starts(slot); }, ctx);
      return;
    }
  }
}

void Medium::deliver_ends(std::uint32_t slot) {
  Scheduler& s = sim_.scheduler();
  InFlight& f = in_flight_[slot];
  const std::span<const Link> links = links_[f.from];
  const std::span<const Delivery> order = delivery_order_[f.from];
  for (;;) {
    Radio* const to = links[order[f.next_end++].link].radio;
    if (f.next_end == order.size()) {
      signal_ends(f, slot, to);  // the last: frees the slot
      return;
    }
    signal_ends(f, slot, to);
    const std::uint32_t i = order[f.next_end].link;
    const Time at = f.sent + links[i].delay + f.frame.duration;
    const ContextId ctx = order[f.next_end].context;
    if (!s.advance_inline(at, f.sequence + 2 * i + 1, f.epoch, ctx)) {
      s.schedule_reserved(at, f.sequence + 2 * i + 1, f.epoch, [this, slot] { deliver_ends(slot); }, ctx);
      return;
    }
  }
}

void Medium::signal_ends(InFlight& f, std::uint32_t slot, Radio* to) {
  to->signal_end(slot);
  if (--f.pending_ends == 0) {
    f.frame.payload.reset();  // the last receiver is done with it
    f.next_free = free_in_flight_;
    free_in_flight_ = slot;
  }
}

}  // namespace wmnsim::phy
