#include "phy/radio.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <variant>

#include "phy/error_model.hpp"
#include "phy/medium.hpp"

namespace wmnsim::phy {

namespace {
bool faint_recheck_at_every_edge = false;    // test_hooks::set_faint_recheck_at_every_edge
test_hooks::ListenerTap* listener_tap = nullptr;  // test_hooks::set_listener_tap
}  // namespace

void test_hooks::set_faint_recheck_at_every_edge(bool on) { faint_recheck_at_every_edge = on; }
void test_hooks::set_listener_tap(ListenerTap* tap) { listener_tap = tap; }

void Radio::set_listener(PhyListener* listener) {
  listener_ = listener != nullptr && listener_tap != nullptr ? listener_tap->wrap(id_, scheduler_, listener) : listener;
}

Radio::Radio(Medium& medium, RadioId id, ContextId node, int channel, PowerDbm tx_power, const PhyProfile& profile,
             const ReceptionConfig& reception, RandomStream error_draws)
    : success_(reception.exact_error_evaluation),
      strategy_(make_reception_strategy(reception)),
      tracks_sinr_(tracks_sinr(strategy_)),
      scheduler_(medium.simulation().scheduler()),
      channel_(channel),
      noise_(reception.noise.to_mw()),
      cca_threshold_(reception.cca_threshold.to_mw()),
      medium_(medium),
      id_(id),
      node_(node),
      tx_power_(tx_power),
      profile_(profile),
      reception_(reception),
      capture_ratio_(capture_ratio(reception)),
      preamble_snr_(reception.preamble_detection_snr.linear()),
      error_draws_(error_draws.uniform_part()) {}

Radio::~Radio() {
  if (locked_ != nullptr) medium_.reception_records().release(locked_);
}

void Radio::transmit(const PhyFrame& frame) {
  if (transmitting_) throw std::logic_error("radio asked to transmit while already transmitting");
  // Set before any listener callback, so a MAC reacting to the aborted reception
  // cannot start a second, overlapping transmission.
  transmitting_ = true;
  if (locked_) std::visit([this](const auto& s) { s.transmit_during_reception(*this); }, strategy_);
  if (!candidates_.empty()) drop_candidates(kNoRadio);  // half duplex: no preamble is judged while sending
  ++stats_.frames_sent;
  if (AirObserver* trace = medium_.air_observer()) trace->on_transmit(id_, frame);
  if (listener_ != nullptr) listener_->on_tx_start(frame);
  medium_.transmit(id_, frame);
  scheduler_.schedule_in(frame.duration, [this] { end_transmission(); }, node_);
}

void Radio::abort_reception() {
  account_chunk();  // its worst SINR covers it up to now
  finish_reception(RxOutcome::aborted);
  update_cca();  // the lock may have been the only reason the medium looked busy
}

void Radio::end_transmission() {
  transmitting_ = false;
  if (listener_ != nullptr) listener_->on_tx_end();
  update_cca();
}

void Radio::signal_start(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) {
  if (locked_) account_chunk();  // the interference changes now
  signals_.push_back({tx, power, reach});
  total_ += power;
  if (reach.sensed) ++sensed_;

  AirObserver* trace = medium_.air_observer();
  // The frame being received when this one arrived: a frame not locked onto missed
  // because of it. A trace's only (Locked::sender is set only when traced), so
  // untraced radios neither read it nor test the lock below: the cost of the trace
  // when off is the one null test (docs/traces.md "Cost").
  const RadioId receiving_from = trace != nullptr && locked_ ? holding_sender() : kNoRadio;
  if (locked_) {
    note_interferer(tx, power);
    std::visit([&](const auto& s) { s.overlap(*this, tx, frame, power, reach); }, strategy_);
  } else {
    std::visit([&](const auto& s) { s.arrival(*this, tx, frame, power, reach); }, strategy_);
  }
  // A lock on `tx` now is a lock on this signal (the signals in flight have distinct
  // slots; ns-2's reception may outlast its first signal, whose slot may then serve
  // a later one, but not at the lock's instant).
  if (trace != nullptr) [[unlikely]] {
    const bool locked_now = locked_ && locked_->first_tx == tx && locked_->start == scheduler_.now();
    if (!locked_now && !detection_pending(tx)) {
      report_missed(*trace, tx, frame, power, reach, receiving_from, scheduler_.now());
    }
  }
  update_cca();
}

bool Radio::locked_frame_on_air() const {
  const Locked& l = *locked_;
  return scheduler_.now() < l.start + l.frame.duration;
}

RadioId Radio::holding_sender() const {
  // ns2's reception outlasts its frame after a collision (it ends with the longest
  // collided frame, Locked::tx): once the frame locked onto is over, that frame
  // holds the receiver.
  return locked_frame_on_air() ? locked_->sender : medium_.sender(locked_->tx);
}

void Radio::note_interferer(std::uint32_t tx, PowerMw power) {
  if (medium_.air_observer() == nullptr) return;
  Locked& l = *locked_;
  // Only a signal that overlapped the frame locked onto (ns2 keeps the reception
  // open after it, until the longest collided frame ends).
  if (!locked_frame_on_air()) return;
  if (l.interferer == kNoRadio || power.mw() > l.interferer_mw) {
    l.interferer_mw = power.mw();
    l.interferer = medium_.sender(tx);
  }
}

void Radio::blame(std::uint32_t tx) {
  if (medium_.air_observer() != nullptr) locked_->interferer = medium_.sender(tx);
}

void Radio::report_missed(AirObserver& trace, std::uint32_t tx, const PhyFrame& frame, PowerMw power,
                          SignalReach reach, RadioId receiving_from, Time arrival) {
  RxFailureInfo why{RxFailure::below_sensitivity, kNoRadio, power};
  if (transmitting_) {
    why.cause = RxFailure::own_transmission;
  } else if (receiving_from != kNoRadio) {
    why.cause = RxFailure::collision;
    why.interferer = receiving_from;
  } else if (reach.decodable) {
    // Strong enough, idle, yet not locked onto: the preamble was not detected
    // against the other signals on the air (sinr preamble_detection_snr).
    double strongest = 0.0;
    for (const Signal& s : signals_) {
      if (s.tx != tx && s.power.mw() > strongest) {
        strongest = s.power.mw();
        why.cause = RxFailure::collision;
        why.interferer = medium_.sender(s.tx);
      }
    }
  }
  trace.on_missed(id_, frame, why, arrival);
}

bool Radio::detection_pending(std::uint32_t tx) const {
  return std::any_of(candidates_.begin(), candidates_.end(), [tx](const Candidate& c) { return c.tx == tx; });
}

void Radio::start_detection(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) {
  // ns-3 3.44 opens a window for every PPDU reaching an idle PHY (PhyEntity::
  // StartPreambleDetectionPeriod) and judges it when the window ends.
  const EventId end =
      scheduler_.schedule_in(reception_.preamble_detection_window, [this, tx] { end_detection(tx); }, node_);
  candidates_.push_back({tx, &frame, power, reach, scheduler_.now(), end});
}

void Radio::end_detection(std::uint32_t tx) {
  const auto it = std::find_if(candidates_.begin(), candidates_.end(), [tx](const Candidate& c) { return c.tx == tx; });
  if (it == candidates_.end()) return;
  const Candidate c = *it;
  candidates_.erase(it);
  AirObserver* trace = medium_.air_observer();
  // A stronger preamble that arrived in the meantime wins: it is judged at the end
  // of its own window (ns-3: the strongest of the current preamble events).
  for (const Candidate& other : candidates_) {
    if (other.power.mw() > c.power.mw()) {
      if (trace != nullptr) {
        report_missed(*trace, c.tx, *c.frame, c.power, c.reach, medium_.sender(other.tx), c.arrival);
      }
      return;
    }
  }
  // Its SINR against everything on the air now, those that arrived in the window included.
  if (!preamble_detected(c.power)) {
    if (trace != nullptr) report_missed(*trace, c.tx, *c.frame, c.power, c.reach, kNoRadio, c.arrival);
    return;
  }
  drop_candidates(medium_.sender(c.tx));  // the radio synchronises on this one; the others are interference
  try_lock(c.tx, *c.frame, c.power, c.reach, c.arrival);
  update_cca();  // the lock holds the medium busy even below the energy threshold
}

void Radio::drop_candidates(RadioId receiving_from) {
  AirObserver* trace = medium_.air_observer();
  for (const Candidate& c : candidates_) {
    scheduler_.cancel(c.window_end);
    if (trace != nullptr) report_missed(*trace, c.tx, *c.frame, c.power, c.reach, receiving_from, c.arrival);
  }
  candidates_.clear();
}

void Radio::signal_end(std::uint32_t tx) {
  if (locked_) account_chunk();
  if (!candidates_.empty()) {
    // A signal over before its detection window (none of 802.11's frames is: the
    // window lies within the preamble) is never locked onto.
    const auto c = std::find_if(candidates_.begin(), candidates_.end(), [tx](const Candidate& x) { return x.tx == tx; });
    if (c != candidates_.end()) {
      scheduler_.cancel(c->window_end);
      if (AirObserver* trace = medium_.air_observer()) {
        report_missed(*trace, c->tx, *c->frame, c->power, c->reach, kNoRadio, c->arrival);
      }
      candidates_.erase(c);
    }
  }
  // One pass drops the signal, keeping the others in order, and sums their energy
  // anew (re-summed rather than subtracted, so rounding never accumulates), in the
  // same order as a search, an erase and a sum would (issue 43 §4).
  PowerMw sum;
  std::size_t kept = 0;
  bool found = false;
  for (const Signal& s : signals_) {
    if (s.tx == tx) {  // the signals in flight have distinct slots
      found = true;
      if (s.reach.sensed) --sensed_;
      continue;
    }
    signals_[kept++] = s;
    sum += s.power;
  }
  if (!found) throw std::logic_error("signal end without its start");
  signals_.pop_back();  // the others moved down one
  total_ = sum;
  if (locked_ && locked_->tx == tx) {
    finish_reception(std::visit([this](const auto& s) { return s.outcome(*this); }, strategy_));
  }
  update_cca();
}

void Radio::try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach) {
  try_lock(tx, frame, power, reach, scheduler_.now());
}

void Radio::try_lock(std::uint32_t tx, const PhyFrame& frame, PowerMw power, SignalReach reach, Time start) {
  // Every path ends a reception (finish_reception) before another can begin, so no
  // record is held here. Not checked at run time: the check cost 0.13 % of 004's
  // mesh's instructions (3 a lock), for a case no path reaches.
  const Time now = scheduler_.now();
  const PlcpFormat plcp = plcp_format(profile_, *frame.mcs);
  // The stretches (the SINR record) begin now: a detection window ends within the
  // preamble, which carries no data bits (decide_reception).
  // Whether the frame is lost already (the models read the signals on the air and
  // whether the radio transmits, not the lock): decided first, so that the lock is
  // built where it stays rather than built and then moved there (issue 43 §4).
  const std::optional<RxFailure> cause =
      std::visit([&](const auto& s) { return s.lost_at_lock(*this, tx, power, reach); }, strategy_);
  // LockedReception's fields in order, each named (a designated initializer built
  // in place cost 20 instructions a lock more under GCC 12 -O2: 0.8 % of 004's mesh).
  locked_ = medium_.reception_records().acquire(/*tx=*/tx,
                                                /*first_tx=*/tx,
                                                /*sender=*/kNoRadio,
                                                /*interferer=*/kNoRadio,
                                                /*frame=*/frame,
                                                /*power=*/power,
                                                /*start=*/start,
                                                /*end=*/start + frame.duration,
                                                /*header_start=*/start + plcp.preamble,
                                                /*payload_start=*/start + plcp.preamble + plcp.header,
                                                /*header_mcs=*/plcp.header_mcs,
                                                /*last_change=*/now,
                                                /*min_sinr=*/std::numeric_limits<double>::infinity(),
                                                /*first_power=*/power,
                                                /*interferer_mw=*/0.0,
                                                /*cause=*/cause,
                                                /*doomed=*/cause.has_value(),
                                                /*evaluated=*/false);
  if (AirObserver* trace = medium_.air_observer()) {
    locked_->sender = medium_.sender(tx);
    for (const Signal& s : signals_) {
      if (s.tx != tx) note_interferer(s.tx, s.power);  // on the air before it
    }
    trace->on_locked(id_, frame, power);
  }
  success_.reset();
  stretches_.clear();
  prune_faint();  // for_each_chunk reads faint_ whole
  if (listener_ != nullptr) listener_->on_rx_start(frame);
}

void Radio::account_chunk() {
  Locked& l = *locked_;
  const Time now = scheduler_.now();
  if (tracks_sinr_ && now > l.last_change) {
    // Recorded now, evaluated when the reception is decided (decide_reception): a
    // reception cut short (aborted, captured) never needs its chunks.
    stretches_.emplace_back(l.last_change, now, total_.mw() - l.power.mw());
  }
  l.last_change = now;
}

template <typename F>
void Radio::for_each_chunk(F&& f) {
  if (stretches_.empty()) return;
  // The loops below are written without data-dependent branches (a sum of
  // products by 0 or 1, a write kept or overwritten): which faint signal is on
  // the air when is unpredictable, and mispredicted branches cost more here than
  // the arithmetic.
  // faint_ holds nothing that ended before the reception began (try_lock pruned it).
  const auto faint_at = [this](Time t) { return faint_energy(t); };
  // Where the faint signals split the reception besides the stretches' own ends.
  const Time from = stretches_.front().from, to = stretches_.back().to;
  std::vector<Time>& cuts = medium_.chunk_cuts();  // the medium's scratch, shared by its radios
  cuts.resize(2 * faint_.size());
  std::size_t n = 0;
  for (const Faint& x : faint_) {
    cuts[n] = x.start;
    n += static_cast<std::size_t>((x.start > from) & (x.start < to));
    cuts[n] = x.end;
    n += static_cast<std::size_t>((x.end > from) & (x.end < to));
  }
  std::sort(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(n));
  const double signal = locked_->power.mw();
  const auto chunk = [&](Time a, Time b, double interference) {
    f(a, b, signal / (noise_.mw() + std::max(0.0, interference)));
  };
  std::size_t next = 0;
  for (const Stretch& st : stretches_) {
    Time a = st.from;
    while (next < n && cuts[next] <= a) ++next;
    for (; next < n && cuts[next] < st.to; ++next) {
      chunk(a, cuts[next], st.interference_mw + faint_at(a));
      a = cuts[next];
      while (next + 1 < n && cuts[next + 1] == a) ++next;  // a start and an end at one instant
    }
    chunk(a, st.to, st.interference_mw + faint_at(a));
  }
}

void Radio::find_min_sinr() {
  Locked& l = *locked_;
  l.evaluated = true;
  for_each_chunk([&](Time, Time, double sinr) { l.min_sinr = std::min(l.min_sinr, sinr); });
}

template <bool kDsssGain>
bool Radio::decide_reception(double u) {
  Locked& l = *locked_;
  l.evaluated = true;
  // A chunk [a, b) may straddle the preamble, the PLCP header (at the header rate)
  // and the PSDU (at the data rate). The preamble carries no data bits: its
  // detection was the lock decision. 802.11g's signal extension is silence after
  // the last symbol: no bits there either.
  const Time payload_end = l.start + l.frame.duration - profile_.signal_extension;
  const auto overlap = [](Time a, Time b, Time from, Time to) {
    const Time x = std::max(from, a), y = std::min(to, b);
    return y > x ? y - x : Time();
  };
  const Time header_time = l.payload_start - l.header_start, payload_time = payload_end - l.payload_start;
  const double signal = l.power.mw();
  // The SINR as the error models read it (ReceptionConfig::dsss_sinr_gain, only ever
  // asked for a DSSS frame, whose header and payload are both DSSS). A product by 1
  // or 2 is exact and monotone, so the bounds below stay bounds. min_sinr stays the
  // SINR on the air. Without the gain no product is formed at all.
  const auto read = [gain = kDsssGain ? reception_.dsss_sinr_gain : 1.0](double sinr) {
    if constexpr (kDsssGain) return gain * sinr;
    return sinr;
  };
  if (!stretches_.empty() && !wants_min_sinr()) {
    // Bounds without the chunks. No chunk has more interference than the most
    // (non-faint) interference of any stretch plus every faint signal that
    // overlaps the reception: the floor. The stretch with that most interference
    // has at most the SINR without faint signals. The floating-point operations
    // are monotone, and the sums run over faint_ in the order for_each_chunk
    // sums them, so the floor is below every chunk's SINR as computed there.
    const Stretch* most = &stretches_.front();
    for (const Stretch& st : stretches_) {
      if (st.interference_mw > most->interference_mw) most = &st;
    }
    const Time now = scheduler_.now();
    double faint = 0.0;
    for (const Faint& x : faint_) faint += x.mw * static_cast<double>(x.start < now);
    const double floor = read(signal / (noise_.mw() + std::max(0.0, most->interference_mw + faint)));
    const double at_most = read(signal / (noise_.mw() + std::max(0.0, most->interference_mw)));
    const FrameBounds bounds{l.header_mcs,
                             header_time,
                             overlap(most->from, most->to, l.header_start, l.payload_start),
                             l.frame.mcs,
                             payload_time,
                             overlap(most->from, most->to, l.payload_start, payload_end),
                             floor,
                             at_most};
    const int quick = success_.decide_by_floor(bounds, u);
    if (quick >= 0) {
      l.min_sinr = std::numeric_limits<double>::quiet_NaN();  // not wanted, not computed
      return quick == 1;
    }
  }
  std::array<WorstChunk, 2> worst{
      WorstChunk{l.header_mcs, header_time, std::numeric_limits<double>::infinity(), Time(),
                 std::numeric_limits<double>::infinity()},
      WorstChunk{l.frame.mcs, payload_time, std::numeric_limits<double>::infinity(), Time(),
                 std::numeric_limits<double>::infinity()}};
  for_each_chunk([&](Time a, Time b, double sinr) {
    l.min_sinr = std::min(l.min_sinr, sinr);
    const Time header = overlap(a, b, l.header_start, l.payload_start);
    const Time payload = overlap(a, b, l.payload_start, payload_end);
    if (header > Time() && sinr < worst[0].worst_sinr) worst[0].worst_sinr = sinr, worst[0].worst_duration = header;
    if (payload > Time() && sinr < worst[1].worst_sinr) worst[1].worst_sinr = sinr, worst[1].worst_duration = payload;
  });
  for (WorstChunk& w : worst) {
    w.worst_sinr = read(w.worst_sinr);  // infinity stays infinity
    w.sinr_floor = w.worst_sinr;
    if (w.worst_duration == Time()) w.duration = Time();  // no bits of this part (or none at all)
  }
  const int quick = success_.decide_by_worst(worst, u);
  if (quick >= 0) return quick == 1;
  // Undecided: every chunk, in order (FrameSuccess bounds each, then evaluates exactly if need be).
  for_each_chunk([&](Time a, Time b, double sinr) {
    const Time header = overlap(a, b, l.header_start, l.payload_start);
    const Time payload = overlap(a, b, l.payload_start, payload_end);
    if (header > Time()) success_.add(*l.header_mcs, read(sinr), header);
    if (payload > Time()) success_.add(*l.frame.mcs, read(sinr), payload);
  });
  return success_.survives(u);
}

void Radio::prune_faint() {
  const Time now = scheduler_.now();
  if (faint_first_end_ > now) return;  // nothing has ended yet
  // Compacted without a data-dependent branch (see for_each_chunk).
  std::size_t n = 0;
  Time first_end = Time::max();
  for (const Faint& f : faint_) {
    faint_[n] = f;
    const bool keep = f.end > now;
    n += static_cast<std::size_t>(keep);
    first_end = std::min(first_end, keep ? f.end : Time::max());
  }
  faint_.resize(n);
  faint_first_end_ = first_end;
}

double Radio::faint_energy(Time t) const {
  double sum = 0.0;
  for (const Faint& f : faint_) sum += f.mw * static_cast<double>((f.start <= t) & (t < f.end));
  return sum;
}

PowerMw Radio::signal_energy() const { return PowerMw(total_.mw() + faint_energy(scheduler_.now())); }

void Radio::faint_signal(Time start, Time end, PowerMw power) {
  // What is over can matter no more, unless a reception in progress overlaps it
  // (then try_lock prunes when the next one begins). Every reader but the lock's
  // own looks at times, so ended signals may wait here until the list is full:
  // pruned once per fill rather than at every arrival, with room doubled when
  // more than half of it is still on the air.
  if (!locked_ && faint_.size() == faint_.capacity()) {
    prune_faint();
    if (2 * faint_.size() > faint_.capacity()) faint_.reserve(2 * faint_.capacity());
  }
  faint_.push_back({start, end, power.mw()});
  faint_first_end_ = std::min(faint_first_end_, end);
  // A new signal only adds energy: it can make an idle radio busy sooner (at its
  // start, or at a later start it lifts over the threshold), never a busy one idle.
  if (cca_ambiguous_ && start < faint_watch_at_) {
    if (faint_recheck_at_every_edge) [[unlikely]] watch_faint(start);  // the former rule
    else if (!faint_assessed_busy_) watch_faint(first_faint_flip(start, faint_watch_at_, false));
  }
}

void Radio::set_faint_bound(PowerMw bound) {
  faint_bound_ = bound.mw() * (1.0 + 1e-9);  // above any sum of a subset, rounding included
  // As energy_busy would find it with nothing on the air: faint signals alone may
  // cross the threshold, and no other signal's start would make the radio look.
  cca_ambiguous_ = total_.mw() < cca_threshold_.mw() && total_.mw() + faint_bound_ >= cca_threshold_.mw();
  faint_assessed_busy_ = false;  // nothing on the air yet
}

bool Radio::energy_busy() {
  const double strong = total_.mw();
  const double threshold = cca_threshold_.mw();
  // Faint signals only add energy, at most faint_bound_: unless the rest is within
  // that of the threshold, they cannot change the assessment.
  cca_ambiguous_ = strong < threshold && strong + faint_bound_ >= threshold;
  if (!cca_ambiguous_) {
    if (faint_watch_at_ != Time::max()) watch_faint(Time::max());
    return strong >= threshold;
  }
  const Time now = scheduler_.now();
  faint_assessed_busy_ = strong + faint_energy(now) >= threshold;
  if (faint_recheck_at_every_edge) [[unlikely]] {
    // The former rule: the next faint start or end, whatever it would change.
    Time next = Time::max();
    for (const Faint& f : faint_) {
      if (f.start > now) next = std::min(next, f.start);
      else if (f.end > now) next = std::min(next, f.end);
    }
    watch_faint(next);
    return faint_assessed_busy_;
  }
  // Re-assessed only where the outcome would change: a faint start or end that
  // cannot tip it needs no event.
  watch_faint(first_faint_flip(now + Time::ps(1), Time::max(), faint_assessed_busy_));
  return faint_assessed_busy_;
}

Time Radio::first_faint_flip(Time from, Time before, bool busy) const {
  // The faint energy changes only at starts and ends. Idle, only a start can raise
  // it; busy, only an end can lower it: faint_energy sums non-negative terms in a
  // fixed order, and such a rounded sum does not decrease when a term joins nor
  // increase when one leaves. So the candidates are taken in time order and each
  // assessed as energy_busy would assess it there, until one differs.
  const double strong = total_.mw();
  const double threshold = cca_threshold_.mw();
  Time lowest = from;
  for (;;) {
    Time t = before;
    for (const Faint& f : faint_) {
      const Time at = busy ? f.end : f.start;
      if (at >= lowest && at < t) t = at;
    }
    if (t == before || (strong + faint_energy(t) >= threshold) != busy) return t;
    lowest = t + Time::ps(1);
  }
}

void Radio::watch_faint(Time next) {
  if (next == faint_watch_at_) return;
  if (faint_watch_at_ != Time::max()) scheduler_.cancel(faint_watch_);
  faint_watch_at_ = next;
  if (next != Time::max()) faint_watch_ = scheduler_.schedule_at(next, [this] { on_faint_watch(); }, node_);
}

void Radio::on_faint_watch() {
  faint_watch_at_ = Time::max();
  update_cca();
}

void Radio::finish_reception(RxOutcome outcome) {
  if (tracks_sinr_ && !locked_->evaluated) {
    // A reception cut short (aborted, captured): its worst SINR so far, if wanted.
    if (wants_min_sinr()) find_min_sinr();
    else locked_->min_sinr = std::numeric_limits<double>::quiet_NaN();
  }
  switch (outcome) {
    case RxOutcome::success: ++stats_.rx_success; break;
    case RxOutcome::error: ++stats_.rx_error; break;
    case RxOutcome::aborted: ++stats_.rx_aborted; break;
  }
  AirObserver* trace = medium_.air_observer();
  // The lock is released before anyone hears of its end (the listener may
  // transmit, or lock anew, from its callback); what they are told is taken out
  // of it first: the frame moved, not the whole reception copied (issue 43 §4).
  Locked& l = *locked_;
  const RxInfo info{l.power, l.min_sinr, l.start};
  PhyFrame frame = std::move(l.frame);
  RxFailureInfo failure{};
  if (trace != nullptr && outcome != RxOutcome::success) {
    // Aborted: the radio's own transmission ended it (so a trace's other causes
    // count what the MAC counts as errors). Otherwise a cause the model set on the
    // way, else an overlapping signal, else (sinr) the draw alone.
    const RxFailure cause = outcome == RxOutcome::aborted ? RxFailure::own_transmission
                            : l.cause                     ? *l.cause
                            : l.interferer != kNoRadio    ? RxFailure::collision
                                                          : RxFailure::error_draw;
    const bool blamed = cause == RxFailure::collision || cause == RxFailure::capture_lost;
    failure = RxFailureInfo{cause, blamed ? l.interferer : kNoRadio, l.first_power};
  }
  medium_.reception_records().release(locked_);
  locked_ = nullptr;
  if (trace != nullptr) {
    if (outcome == RxOutcome::success) trace->on_decoded(id_, frame, info, info.start);
    else trace->on_failed(id_, frame, failure, info.start);
  }
  if (listener_ != nullptr) listener_->on_rx_end(frame, outcome, info);
}

void Radio::update_cca() {
  const bool energy = std::visit([this](const auto& s) { return s.energy_busy(*this); }, strategy_);
  const bool busy = locked_ != nullptr || energy;
  if (busy == cca_busy_) return;
  cca_busy_ = busy;
  if (busy) {
    busy_since_ = scheduler_.now();
    if (listener_ != nullptr) listener_->on_cca_busy();
  } else {
    stats_.busy_time += scheduler_.now() - busy_since_;
    if (listener_ != nullptr) listener_->on_cca_idle();
  }
}

}  // namespace wmnsim::phy
