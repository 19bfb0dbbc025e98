#include "scenario/phy_builder.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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

PhyNetwork build_phy(Simulation& sim, const Scenario& scenario) {
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

  // Radio -> (node index, antenna gain), for the gain function below.
  std::vector<std::size_t> radio_node;
  std::vector<double> antenna_gain;
  net.node_radios.resize(scenario.nodes.size());
  for (std::size_t n = 0; n < scenario.nodes.size(); ++n) {
    const NodeConfig& node = scenario.nodes[n];
    if (!node.position) continue;  // hosts are wired only
    for (std::size_t r = 0; r < node.radios.size(); ++r) {
      const RadioConfig& rc = node.radios[r];
      const Point at{node.position->x_m, node.position->y_m, node.position->z_m};
      // Streams are named by the node's id, so adding a node changes no one else's draws.
      const RadioId id = net.medium->add_radio(
          RadioSpec{static_cast<ContextId>(n), at, rc.channel, PowerDbm(rc.tx_power_dbm), net.profile},
          sim.random().stream("node", node.id, "rx_error/" + std::to_string(r)));
      net.node_radios[n].push_back(id);
      radio_node.push_back(n);
      antenna_gain.push_back(rc.antenna_gain_dbi);
    }
  }

  if (prop.model == wmnsim::PropagationModel::range) {
    net.medium->connect_by_range(RangeModel{prop.rx_range_m, prop.cs_range_m}, prop.interference_range_m);
    return net;
  }
  const double sigma = prop.shadowing.sigma_db;
  // Shadowing belongs to the topology, not to the run: its streams derive from the
  // topology's seed (Scenario: shadowing.seed, else the placement seed), so runs of
  // one snapshot with different simulation seeds share every path gain, rate and
  // route, as 004's three runs per snapshot do (docs/random.md).
  const RandomStreams streams(prop.shadowing.seed);
  net.medium->connect([&](RadioId a, RadioId b, double d) {
    const double f = channel_frequency_hz(net.medium->spec(a).channel);
    Db g = model_gain(prop, f, d) + Db(antenna_gain[a] + antenna_gain[b]);
    if (sigma > 0) {
      // 004 Eq. (1): psi ~ N(0, sigma), drawn once per node pair and identical in
      // both directions; named by the pair of node ids in sorted order.
      const std::string& ia = scenario.nodes[radio_node[a]].id;
      const std::string& ib = scenario.nodes[radio_node[b]].id;
      const std::string pair = std::min(ia, ib) + "|" + std::max(ia, ib);
      g = g - Db(streams.stream("link", pair, "shadowing").normal(0.0, sigma));
    }
    return g;
  });
  return net;
}

const Mcs* link_data_rate(const PhyNetwork& net, RadioId from, RadioId to) {
  const Link* l = net.medium->link(from, to);
  if (l == nullptr || !l->reach.decodable) return nullptr;
  if (net.fixed_data_rate != nullptr) return net.fixed_data_rate;
  const Db snr = l->power_dbm - net.medium->reception().noise;
  const auto best = select_mcs(net.profile.rates, snr.linear(), static_cast<std::uint32_t>(net.auto_rate.reference_bytes),
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
  const Db snr = net.medium->link(from, to)->power_dbm - net.medium->reception().noise;
  return meets_per_target(*rate, snr.linear(), static_cast<std::uint32_t>(net.auto_rate.reference_bytes),
                          net.auto_rate.max_fer)
             ? rate
             : nullptr;
}

}  // namespace wmnsim::phy
