#pragma once
// The wireless medium: every radio, the path gains between them (computed once:
// nodes are static), each radio's neighbour list, and the signals in flight.
//
// A transmission reaches only the radios on its channel that receive it above
// the delivery cutoff (noise - margin), from a neighbour list built once, so a
// frame costs O(neighbours), not O(radios). Radios on different channels never
// interact (non-overlapping channels).

#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/block_pool.hpp"
#include "core/flat_lists.hpp"
#include "core/simulation.hpp"
#include "phy/air_observer.hpp"
#include "phy/propagation.hpp"
#include "phy/radio.hpp"

namespace wmnsim::phy {

struct Point {
  double x_m = 0, y_m = 0, z_m = 0;
};
double distance_m(const Point& a, const Point& b);

struct RadioSpec {
  ContextId node;
  Point position;
  int channel;
  PowerDbm tx_power;
  PhyProfile profile;
};

// One directed link as the receiver sees it, what delivering a signal reads: 32
// bytes, two to a cache line, the reach's three flags in the padding after `to`
// (issue 43 §2: every transmission reads all of its sender's links, about 78 at
// 004's density). The receiving radio is held as a pointer beside its id, so that
// delivering reads no array indexed by id: at 100,000 radios such an array is
// 800 kB, and a frame's receivers, near each other in memory (built along space),
// have ids scattered over it. The received power in dBm, read only at set-up and
// when a rate is chosen, is kept apart (Medium::power_dbm).
struct Link {
  RadioId to;
  SignalReach reach;
  PowerMw power;  // received power (threshold and range models: nominal)
  Radio* radio;   // the radio `to`
  Time delay;     // propagation delay
};
static_assert(sizeof(Link) == 32);

// Path gain in dB between two radios, symmetric (gain(a,b) == gain(b,a)),
// shadowing included; the caller owns any randomness. connect() calls it once per
// same-channel pair (a < b) within its reach, in no promised order: it must be a
// function of its arguments (draw per-pair randomness from a stream named by the
// pair, as build_phy does, not from one shared stream). For a pair it knows falls
// below delivery_cutoff() in both directions it may return -infinity.
using PathGainFn = std::function<Db(RadioId a, RadioId b, double distance_m)>;

// The largest distance at which a transmission can still arrive above `cutoff`:
// the smallest R found with tx_power + max_gain(d) < cutoff for every d >= R, where
// max_gain(d) bounds from above the path gain at distance d (mean gain, antenna
// gains and the largest shadowing draw) and does not increase with d. A margin of
// 1e-6 dB absorbs rounding in how the caller sums the same terms. Infinity when
// the gain stays above the cutoff out to 1e12 m.
double reach_distance_m(const std::function<Db(double distance_m)>& max_gain, PowerDbm tx_power, PowerDbm cutoff);

// Thrown by Medium::connect when the radios hear each other over more links than
// the medium's cap: what a scenario would need cannot be held.
class TooManyLinks : public std::length_error {
 public:
  using std::length_error::length_error;
};

class Medium {
 public:
  // At most this many links (pairs of radios that hear each other, one per
  // direction) by default: 32 bytes each kept, 40 more while they are found; with
  // the rest of the set-up a link costs about 180 bytes, 5.5 GB resident at the cap
  // (measured with 40-byte links: docs/scenario.md, "Limits", "sizes"). 004's density with its
  // shadowing gives 78 per radio, 7.8 million for 100,000 radios; the cap stops a
  // dense crowd (every one of 10^5 radios within reach of every other would be
  // 10^10) before it fills the memory.
  static constexpr std::size_t kMaxLinks = 30'000'000;
  Medium(Simulation& sim, ReceptionConfig reception);
  Medium(const Medium&) = delete;
  Medium& operator=(const Medium&) = delete;

  // Adds a radio; `error_draws` is its own stream for reception error draws.
  RadioId add_radio(const RadioSpec& spec, RandomStream error_draws);
  // Adds radios with ids radio_count() onwards in the order of `specs` (each with its
  // stream), but constructs them, and so allocates their memory, in `build_order`
  // (a permutation of the specs' places): radios near each other in space then lie
  // near each other in memory whatever their ids (core/hilbert_order.hpp, issue 43
  // §2). A radio's construction reads nothing of the others, so the order changes
  // no result.
  void add_radios(std::span<const RadioSpec> specs, std::span<const RandomStream> error_draws,
                  std::span<const std::uint32_t> build_order);

  // Builds every radio's neighbour list from the path gains (sinr, threshold, ns2
  // reception). Call once, after the last add_radio. `reach_m` promises that no pair
  // farther apart arrives above delivery_cutoff() (reach_distance_m computes it):
  // only pairs within it are looked at, found through a uniform grid of cells
  // `reach_m` wide, so set-up costs O(N x pairs within reach), not O(N^2). The
  // default, infinity, looks at every pair. Each neighbour list is sorted by `to`.
  // Throws TooManyLinks as soon as more than `max_links` links are found.
  void connect(const PathGainFn& gain, double reach_m = std::numeric_limits<double>::infinity(),
               std::size_t max_links = kMaxLinks);
  // The same for the range reception model: reach decided by distance alone.
  void connect_by_range(const RangeModel& ranges, double interference_range_m, std::size_t max_links = kMaxLinks);
  // The power below which nothing arrives: the signal floor, and for threshold and
  // ns2 reception also the carrier-sense threshold (as ns-2 drops below CSThresh).
  PowerDbm delivery_cutoff() const;

  Radio& radio(RadioId id) { return *radios_[id]; }
  const Radio& radio(RadioId id) const { return *radios_[id]; }
  std::size_t radio_count() const { return radios_.size(); }
  // Each part of a radio's placement, without building its RadioSpec (which copies
  // the profile): for callers that look up one field per link or per record.
  ContextId node_of(RadioId id) const { return placements_[id].node; }
  int channel_of(RadioId id) const { return placements_[id].channel; }
  const Point& position_of(RadioId id) const { return placements_[id].position; }
  PowerDbm tx_power_of(RadioId id) const { return placements_[id].tx_power; }
  // The radio's spec as add_radio was given it (its profile the medium's copy).
  RadioSpec spec(RadioId id) const {
    const Placement& p = placements_[id];
    return RadioSpec{p.node, p.position, p.channel, p.tx_power, radios_[id]->profile()};
  }
  const ReceptionConfig& reception() const { return reception_; }
  Simulation& simulation() { return sim_; }
  // Storage for the payloads (MAC frames) of this medium's radios: the medium holds
  // a payload until the last receiver is done with it, so the storage lives here.
  BlockPool& payload_pool() { return payload_pool_; }
  // The records of the receptions under way, one per receiving radio
  // (phy/locked_reception.hpp), rather than one in every radio (issue 43 §3).
  ReceptionRecords& reception_records() { return reception_records_; }

  std::span<const Link> neighbours(RadioId from) const { return links_[from]; }
  // The link from `from` to `to`, or nullptr when `to` does not hear `from`
  // (a binary search: neighbour lists are sorted by `to`).
  const Link* link(RadioId from, RadioId to) const;
  // The received power in dBm of `link`, one of neighbours(from), as computed from
  // the path gain (PowerMw's conversion back would round).
  PowerDbm power_dbm(RadioId from, const Link& link) const;

  // Called by Radio::transmit: delivers the signal's start and end to each neighbour.
  void transmit(RadioId from, const PhyFrame& frame);
  std::uint64_t signals_delivered() const { return signals_delivered_; }
  // The radio that sent the signal in flight `signal` (the id radios get in
  // Radio::signal_start): valid until the signal's last end is delivered.
  RadioId sender(std::uint32_t signal) const { return in_flight_[signal].from; }

  // A frame trace's view of the air (phy/air_observer.hpp); nullptr (the default)
  // for none. The observer must outlive its registration.
  void set_air_observer(AirObserver* observer) { air_observer_ = observer; }
  AirObserver* air_observer() const { return air_observer_; }

  // Scratch for a radio deciding a reception (Radio::for_each_chunk), one for all
  // its radios rather than a vector in each (issue 43 §3, memory per node): one
  // radio decides at a time, and nothing it calls meanwhile reaches another's.
  std::vector<Time>& chunk_cuts() { return chunk_cuts_; }

 private:
  struct InFlight {
    PhyFrame frame;
    std::uint32_t pending_ends = 0;
    std::uint32_t next_free = 0;
    // Batched delivery (transmit): the sender, when it started, the sequence
    // numbers reserved for its arrivals, and the next receiver (in delivery order)
    // whose start and end are due.
    RadioId from = 0;
    Time sent;
    std::uint64_t sequence = 0, epoch = 0;
    std::uint32_t next_start = 0, next_end = 0;
  };
  // Each radio's links by arrival order: delay, then link index, the order their
  // events took when each was scheduled on its own. Faint links (sinr reception,
  // below the sensitivity, unless ReceptionConfig::faint_signal_events) are not
  // in it: they are in faint_ instead, handed to their radios as intervals.
  // Each entry carries its receiver's node (the context of its events), so that
  // the walk over a frame's receivers reads it in sequence rather than from each
  // receiver's Placement, a cache line apart in a large network (issue 43 §2).
  struct Delivery {
    std::uint32_t link;  // index into the sender's links
    ContextId context;   // placements_[links[link].to].node
  };
  std::uint32_t allocate_in_flight();
  // The end of signal `slot` (f, in_flight_[slot], found once by the walk) at `to`.
  void signal_ends(InFlight& f, std::uint32_t slot, Radio* to);
  void sort_deliveries();
  // A frame from `from` sent now would end past Time::max() at one of its receivers:
  // std::logic_error (transmit calls it only when the longest delay of any link says
  // it might).
  void check_end_of_time(RadioId from, const PhyFrame& frame) const;
  void deliver_starts(std::uint32_t slot);
  void deliver_ends(std::uint32_t slot);
  Time propagation_delay(double distance) const;

  Simulation& sim_;
  ReceptionConfig reception_;
  LinkRules link_rules_;  // of reception_.kind
  // Declared before the radios and the signals in flight: destroyed after every
  // payload they hold.
  BlockPool payload_pool_;
  // After the payloads' pool and before the radios: a radio receiving when the
  // run ends gives its record (and its frame's payload) back while both exist.
  ReceptionRecords reception_records_;
  // What the medium keeps of each radio's RadioSpec: the profile is the radio's,
  // one copy per distinct profile (profiles_), not one per radio (issue 43 §3).
  struct Placement {
    ContextId node;
    int channel;  // beside the node: no padding
    Point position;
    PowerDbm tx_power;
  };
  std::vector<Placement> placements_;
  // The radios' profiles, each distinct one once (same_profile), which the radios
  // and their MACs refer to: a deque, so that references stay valid as it grows.
  std::deque<PhyProfile> profiles_;
  std::vector<std::unique_ptr<Radio>> radios_;
  // Per sender (by RadioId), each list in one array (core/flat_lists.hpp).
  FlatLists<Link> links_;
  FlatLists<PowerDbm> power_dbm_;  // parallel to links_ (cold: power_dbm())
  FlatLists<Delivery> delivery_order_;
  FlatLists<std::uint32_t> faint_;  // link indices
  std::deque<InFlight> in_flight_;  // a deque: references stay valid while listeners transmit
  std::uint32_t free_in_flight_ = kNone;
  std::uint64_t signals_delivered_ = 0;
  AirObserver* air_observer_ = nullptr;
  std::vector<Time> chunk_cuts_;  // chunk_cuts()
  // The longest propagation delay of any link: transmit's test that a frame ends
  // before the last representable instant, with no walk over the sender's links.
  Time max_link_delay_;
  bool connected_ = false;
  static constexpr std::uint32_t kNone = 0xffffffffu;
};

}  // namespace wmnsim::phy
