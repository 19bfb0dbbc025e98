#include "scenario/phy_builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/hilbert_order.hpp"
#include "core/input_error.hpp"
#include "core/not_supported.hpp"
#include "core/random.hpp"
#include "phy/propagation.hpp"
#include "phy/rate_selection.hpp"

namespace wmnsim::phy {

PhyProfile profile_for(const PhySection& phy) {
  PhyProfile p;
  switch (phy.standard) {
    case PhyStandard::dot11b:
      p = profile_80211b(phy.preamble);
      break;
    case PhyStandard::dot11a: p = profile_80211a(); break;
    case PhyStandard::dot11g: p = profile_80211g(ErpSlot::Short); break;
  }
  p.slot = phy.slot;  // the scenario's slot and SIFS (defaults are the standard's)
  p.sifs = phy.sifs;
  return p;
}

ReceptionConfig reception_for(const Scenario& scenario) {
  const PhySection& phy = scenario.phy;
  ReceptionConfig rc;
  rc.noise = PowerDbm(phy.noise_dbm);
  rc.capture_threshold = Db(phy.reception.capture_threshold_db);
  rc.frame_capture = phy.reception.frame_capture;
  rc.exact_error_evaluation = phy.reception.error_evaluation == ErrorEvaluation::exact;
  rc.faint_signal_events = phy.reception.faint_signals == FaintSignals::events;
  // Below noise - 10 dB a signal could not change a decision measurably.
  rc.signal_floor = PowerDbm(phy.reception.signal_floor_dbm.value_or(phy.noise_dbm - 10.0));
  if (scenario.propagation.model == wmnsim::PropagationModel::range) {
    rc.kind = ReceptionKind::range;
    return rc;
  }
  if (phy.reception.model == ReceptionModel::threshold || phy.reception.model == ReceptionModel::ns2) {
    // ns-2 WirelessPhy defaults (tcl/lib/ns-default.tcl): RXThresh 3.652e-10 W
    // (-64.37 dBm, 250 m) and CSThresh 1.559e-11 W (-78.07 dBm, 550 m) under two-ray
    // ground with Pt 0.2818 W and 1.5 m antennas; CPThresh 10 dB.
    rc.kind = phy.reception.model == ReceptionModel::ns2 ? ReceptionKind::ns2 : ReceptionKind::threshold;
    rc.sensitivity = PowerDbm(phy.reception.rx_sensitivity_dbm.value_or(10.0 * std::log10(3.652e-10 * 1e3)));
    rc.cca_threshold = PowerDbm(phy.reception.cs_threshold_dbm.value_or(10.0 * std::log10(1.559e-11 * 1e3)));
    return rc;
  }
  rc.kind = ReceptionKind::sinr;
  // A preamble below the noise floor goes undetected; the error model judges the
  // rest. CCA by energy detection at -62 dBm (IEEE 802.11-2012 18.3.10.6).
  rc.sensitivity = PowerDbm(phy.reception.rx_sensitivity_dbm.value_or(phy.noise_dbm));
  rc.cca_threshold = PowerDbm(phy.reception.cs_threshold_dbm.value_or(-62.0));
  if (phy.reception.preamble_detection_snr_db) rc.preamble_detection_snr = Db(*phy.reception.preamble_detection_snr_db);
  rc.preamble_detection = phy.reception.preamble_detection;
  rc.preamble_detection_window = phy.reception.preamble_detection_window;
  rc.dsss_sinr_gain = phy.reception.dsss_processing_gain == DsssProcessingGain::ns3 ? 2.0 : 1.0;
  return rc;
}

namespace {

const Mcs* rate_of(const PhyProfile& profile, double rate_bps, const char* path) {
  const Mcs* m = find_mcs(profile.family, static_cast<std::int64_t>(std::llround(rate_bps)));
  if (m == nullptr) {
    throw NotSupportedError(std::string(path) + ": " + std::to_string(rate_bps) + " bit/s is not a rate of " +
                            std::string(profile.name));
  }
  return m;
}

// Path gain without shadowing for one propagation model, antenna gains excluded.
// `channel_hz` is the channel's centre frequency, used unless the scenario sets
// propagation.frequency_hz (ns-2 studies: 914 MHz whatever the channel).
Db model_gain(const PropagationSection& prop, double channel_hz, double d) {
  const double frequency_hz = prop.frequency_hz.value_or(channel_hz);
  const Db loss(prop.system_loss_db);
  switch (prop.model) {
    case wmnsim::PropagationModel::log_distance: {
      LogDistance m;
      m.gamma = prop.exponent;
      m.d0_m = prop.reference_distance_m;
      // K defaults to the free-space gain at d0 for the channel's frequency.
      m.k = prop.reference_gain_db ? Db(*prop.reference_gain_db)
                                   : Friis{frequency_hz}.gain(prop.reference_distance_m);
      return m.gain(std::max(d, 1e-3)) - loss;
    }
    case wmnsim::PropagationModel::friis:
      return Friis{frequency_hz}.gain(std::max(d, 1e-3)) - loss;
    case wmnsim::PropagationModel::two_ray: {
      TwoRayGround m;
      m.frequency_hz = frequency_hz;
      m.tx_height_m = m.rx_height_m = prop.antenna_height_m;
      return m.gain(std::max(d, 1e-3)) - loss;
    }
    case wmnsim::PropagationModel::range: break;
  }
  throw std::logic_error("model_gain: range model has no gains");
}

}  // namespace

namespace {

// Medium::connect's cap as an input error: the scenario's nodes are too many for how
// densely they hear each other. Named at the entry that placed the last node.
template <typename F>
void connect_within_cap(const Scenario& scenario, F&& connect) {
  try {
    connect();
  } catch (const TooManyLinks& e) {
    const std::string at = scenario.nodes.empty() ? std::string("/nodes") : scenario.nodes.back().defined_at();
    // What decides that two radios are linked, per model (Medium::delivery_cutoff).
    const char* knob = "raise /phy/reception/signal_floor_dbm";
    if (scenario.propagation.model == wmnsim::PropagationModel::range) {
      knob = "shorten /propagation/cs_range_m and /propagation/interference_range_m";
    } else if (scenario.phy.reception.model == ReceptionModel::threshold ||
               scenario.phy.reception.model == ReceptionModel::ns2) {
      knob = "raise /phy/reception/cs_threshold_dbm and /phy/reception/signal_floor_dbm";
    }
    throw ScenarioError({{at, std::string(e.what()) + ": too dense for this many nodes; place them farther apart, " +
                                  "use fewer, or " + knob}});
  }
}

}  // namespace

namespace {
test_hooks::BuildOrder build_order_hook = test_hooks::BuildOrder::along_space;
}  // namespace

void test_hooks::set_node_build_order(BuildOrder order) { build_order_hook = order; }

std::vector<std::uint32_t> node_build_order(const Scenario& scenario) {
  if (build_order_hook != test_hooks::BuildOrder::along_space) {
    std::vector<std::uint32_t> order(scenario.nodes.size());
    std::iota(order.begin(), order.end(), 0u);
    if (build_order_hook == test_hooks::BuildOrder::reversed) std::reverse(order.begin(), order.end());
    return order;
  }
  std::vector<PlanePoint> points;
  std::vector<std::uint32_t> placed, order;
  for (std::uint32_t n = 0; n < scenario.nodes.size(); ++n) {
    const MaybePosition& p = scenario.nodes[n].position;
    if (p) placed.push_back(n), points.push_back({p->x_m, p->y_m});
  }
  for (const std::uint32_t k : hilbert_order(points)) order.push_back(placed[k]);
  for (std::uint32_t n = 0; n < scenario.nodes.size(); ++n) {
    if (!scenario.nodes[n].position) order.push_back(n);  // hosts: wired only, no place
  }
  return order;
}

PhyNetwork build_phy(Simulation& sim, const Scenario& scenario, std::size_t max_links) {
  const PropagationSection& prop = scenario.propagation;
  if (prop.shadowing.sigma_db > 0 && prop.shadowing.mode == ShadowingMode::per_frame) {
    throw NotSupportedError(
        "/propagation/shadowing/mode: per-frame shadowing is not modelled yet; use \"per_link\" (004)");
  }
  PhyNetwork net;
  net.profile = profile_for(scenario.phy);
  net.basic_rate = rate_of(net.profile, scenario.phy.basic_rate_bps, "/phy/basic_rate_bps");
  if (scenario.phy.data_rate_bps) net.fixed_data_rate = rate_of(net.profile, *scenario.phy.data_rate_bps, "/phy/data_rate_bps");
  net.auto_rate = scenario.phy.auto_rate;
  net.medium = std::make_unique<Medium>(sim, reception_for(scenario));

  net.node_build_order = node_build_order(scenario);
  // Radio -> (node index, antenna gain), for the gain function below.
  std::vector<std::size_t> radio_node;
  std::vector<double> antenna_gain;
  {  // the specs and streams live only until the radios are built (set-up's peak)
    std::vector<RadioSpec> specs;
    std::vector<RandomStream> error_draws;
    for (std::size_t n = 0; n < scenario.nodes.size(); ++n) {
      const NodeConfig& node = scenario.nodes[n];
      net.node_radios.add_list();
      if (!node.position) continue;  // hosts are wired only
      for (std::size_t r = 0; r < node.radios.size(); ++r) {
        const RadioConfig& rc = node.radios[r];
        const Point at{node.position->x_m, node.position->y_m, node.position->z_m};
        specs.push_back(RadioSpec{static_cast<ContextId>(n), at, rc.channel, PowerDbm(rc.tx_power_dbm), net.profile});
        // Streams are named by the node's id, so adding a node changes no one else's draws.
        error_draws.push_back(sim.random().stream("node", node.id, "rx_error/" + std::to_string(r)));
        net.node_radios.push_back(static_cast<RadioId>(specs.size() - 1));
        radio_node.push_back(n);
        antenna_gain.push_back(rc.antenna_gain_dbi);
      }
  }
  net.node_radios.shrink_to_fit();
  // Radios keep their ids (node by node, in the scenario's order); their memory is
  // allocated in the nodes' build order.
  std::vector<std::uint32_t> radio_build_order;
  radio_build_order.reserve(specs.size());
  for (const std::uint32_t n : net.node_build_order) {
    for (const RadioId id : net.node_radios[n]) radio_build_order.push_back(id);
  }
  net.medium->add_radios(specs, error_draws, radio_build_order);
  }

  if (prop.model == wmnsim::PropagationModel::range) {
    connect_within_cap(scenario, [&] {
      net.medium->connect_by_range(RangeModel{prop.rx_range_m, prop.cs_range_m}, prop.interference_range_m, max_links);
    });
    return net;
  }
  const double sigma = prop.shadowing.sigma_db;
  // Only pairs within reach can arrive above the medium's cutoff: the farthest
  // distance at which the strongest transmitter, the two largest antenna gains and
  // the largest shadowing draw (RandomStream::kNormalMaxAbs sigma) still reach it.
  // Every model's mean gain falls with distance (log-distance: exponent > 0; Friis;
  // two-ray: Friis up to the crossover, then d^-4), so pairs farther apart need not
  // be looked at; their gains are never computed or stored.
  const Medium& medium = *net.medium;
  const PowerDbm cutoff = medium.delivery_cutoff();
  PowerDbm max_tx(-std::numeric_limits<double>::infinity());
  double max_antenna = -std::numeric_limits<double>::infinity();
  std::vector<double> frequencies;
  for (RadioId r = 0; r < medium.radio_count(); ++r) {
    max_tx = std::max(max_tx, medium.tx_power_of(r));
    max_antenna = std::max(max_antenna, antenna_gain[r]);
    const double f = channel_frequency_hz(medium.channel_of(r));
    if (std::find(frequencies.begin(), frequencies.end(), f) == frequencies.end()) frequencies.push_back(f);
  }
  // The largest mean gain, antenna gains included, of any pair at distance d.
  const auto max_mean_gain = [&](double d) {
    Db best(-std::numeric_limits<double>::infinity());
    for (const double f : frequencies) best = std::max(best, model_gain(prop, f, d));
    return best + Db(2.0 * max_antenna);
  };
  const double max_shadowing_db = sigma > 0 ? sigma * RandomStream::kNormalMaxAbs : 0.0;
  const bool decreasing = prop.model != wmnsim::PropagationModel::log_distance || prop.exponent > 0;
  double reach_m = std::numeric_limits<double>::infinity();
  if (medium.radio_count() > 1 && decreasing && std::isfinite(max_shadowing_db) && std::isfinite(max_antenna)) {
    reach_m = reach_distance_m([&](double d) { return max_mean_gain(d) + Db(max_shadowing_db); }, max_tx, cutoff);
  }
  // Shadowing belongs to the topology, not to the run: its streams derive from the
  // topology's seed (Scenario: shadowing.seed, else the placement seed), so runs of
  // one snapshot with different simulation seeds share every path gain, rate and
  // route, as 004's three runs per snapshot do (docs/random.md).
  const RandomStreams streams(prop.shadowing.seed);
  // 004 Eq. (1): psi ~ N(0, sigma), drawn once per node pair and identical in both
  // directions, from the stream streams.stream("link", pair, "shadowing") with pair =
  // min(ia, ib) + "|" + max(ia, ib) of the node ids. Its name is hashed in pieces:
  // "link/<id>|" once per radio, "<id>/shadowing" per pair.
  // Per radio, compact and in one place (the gain function runs once per pair within
  // reach, for radios scattered over the scenario's node list): its channel's
  // frequency, and for shadowing its node id's rank in sorted order, the hash of
  // "link/<id>|" and the id itself.
  struct PairName {
    std::uint64_t prefix_hash = 0;
    std::uint32_t rank = 0;
    std::uint32_t id_begin = 0, id_size = 0;  // in `names`
  };
  std::vector<double> frequency(medium.radio_count());
  for (RadioId r = 0; r < medium.radio_count(); ++r) frequency[r] = channel_frequency_hz(medium.channel_of(r));
  std::vector<PairName> pair_names;
  std::string names;
  // A pair whose mean power is below the cutoff arrives only through a fade in its
  // favour: z <= -need / sigma for need = cutoff - tx - mean gain. Squared distances up
  // to reach^2 in kTailBins bins, each with the smallest such |z| of any pair in it
  // (at the bin's near edge, strongest transmitter and antennas; need grows with d):
  // a draw that cannot be that deep is not finished (normal_beyond), and the pair is
  // out of reach without its mean gain being computed.
  constexpr std::size_t kTailBins = 1024;
  std::vector<RandomStream::NormalTail> tails;
  double bin_width_m2 = 0.0;
  if (sigma > 0) {
    std::vector<std::size_t> order(scenario.nodes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return scenario.nodes[x].id < scenario.nodes[y].id; });
    std::vector<std::uint32_t> id_rank(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) id_rank[order[k]] = static_cast<std::uint32_t>(k);
    const std::uint64_t link_hash = RandomStreams::extend_path_hash(RandomStreams::kEmptyPathHash, "link/");
    for (const std::size_t n : radio_node) {
      const std::string& id = scenario.nodes[n].id;
      pair_names.push_back(PairName{
          RandomStreams::extend_path_hash(RandomStreams::extend_path_hash(link_hash, id), "|"), id_rank[n],
          static_cast<std::uint32_t>(names.size()), static_cast<std::uint32_t>(id.size())});
      names += id;
    }
    if (std::isfinite(reach_m) && reach_m > 0) {
      bin_width_m2 = reach_m * reach_m / static_cast<double>(kTailBins);
      for (std::size_t k = 0; k <= kTailBins; ++k) {  // one spare bin for rounding at reach
        const double near_m = std::sqrt(static_cast<double>(k) * bin_width_m2);
        const double need = (cutoff - max_tx - max_mean_gain(near_m)).db() - 1e-6;
        tails.emplace_back(need > 0 ? need / sigma : 0.0);
      }
    }
  }
  connect_within_cap(scenario, [&] {
    net.medium->connect(
        [&](RadioId a, RadioId b, double d) {
          if (sigma <= 0) return model_gain(prop, frequency[a], d) + Db(antenna_gain[a] + antenna_gain[b]);
          const PairName& na = pair_names[a];
          const PairName& nb = pair_names[b];
          const bool a_first = na.rank <= nb.rank;
          const PairName& second = a_first ? nb : na;
          const std::uint64_t h = RandomStreams::extend_path_hash(
              RandomStreams::extend_path_hash((a_first ? na : nb).prefix_hash,
                                              std::string_view(names).substr(second.id_begin, second.id_size)),
              "/shadowing");
          RandomStream draws(streams.key_for_path_hash(h));
          const RandomStream::NormalTail tail =
              tails.empty() ? RandomStream::NormalTail(0.0)
                            : tails[std::min(tails.size() - 1, static_cast<std::size_t>(d * d / bin_width_m2))];
          const std::optional<double> psi = draws.normal_beyond(0.0, sigma, tail);
          if (!psi) return Db(-std::numeric_limits<double>::infinity());
          return model_gain(prop, frequency[a], d) + Db(antenna_gain[a] + antenna_gain[b]) - Db(*psi);
        },
        reach_m, max_links);
  });
  return net;
}

namespace {

// A link's SNR as the error models read it at the profile's rates (ReceptionConfig::dsss_sinr_gain),
// so that "auto" rates and the usable-link rule judge links as the receptions will.
double error_model_snr(const PhyNetwork& net, Db snr) {
  return (net.profile.family == PhyFamily::Dsss ? net.medium->reception().dsss_sinr_gain : 1.0) * snr.linear();
}

}  // namespace

const Mcs* link_data_rate(const PhyNetwork& net, RadioId from, RadioId to) {
  const Link* l = net.medium->link(from, to);
  if (l == nullptr || !l->reach.decodable) return nullptr;
  if (net.fixed_data_rate != nullptr) return net.fixed_data_rate;
  const Db snr = net.medium->power_dbm(from, *l) - net.medium->reception().noise;
  const auto best = select_mcs(net.profile.rates, error_model_snr(net, snr), static_cast<std::uint32_t>(net.auto_rate.reference_bytes),
                               net.auto_rate.max_fer);
  if (!best) return nullptr;
  return find_mcs(net.profile.family, best->rate_bps);
}

const Mcs* usable_link_rate(const PhyNetwork& net, RadioId from, RadioId to) {
  const Mcs* rate = link_data_rate(net, from, to);
  // "auto" rates already meet the target; without frame errors decoding suffices.
  if (rate == nullptr || net.fixed_data_rate == nullptr || net.medium->reception().kind != ReceptionKind::sinr) {
    return rate;
  }
  const Db snr = net.medium->power_dbm(from, *net.medium->link(from, to)) - net.medium->reception().noise;
  return meets_per_target(*rate, error_model_snr(net, snr), static_cast<std::uint32_t>(net.auto_rate.reference_bytes),
                          net.auto_rate.max_fer)
             ? rate
             : nullptr;
}

}  // namespace wmnsim::phy
