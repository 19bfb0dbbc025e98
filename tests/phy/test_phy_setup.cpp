// Building the PHY of a scenario: profiles, reception, radios, path gains,
// shadowing and per-link rates.

#include "scenario/phy_builder.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "core/not_supported.hpp"
#include "phy/rate_selection.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

Scenario load(const char* relative) {
  return load_scenario_file(std::string(WMNSIM_SOURCE_DIR) + "/scenarios/" + relative);
}

TEST(PhySetup, ChannelFrequencies) {
  EXPECT_DOUBLE_EQ(channel_frequency_hz(1), 2412e6);
  EXPECT_DOUBLE_EQ(channel_frequency_hz(6), 2437e6);
  EXPECT_DOUBLE_EQ(channel_frequency_hz(14), 2484e6);
  EXPECT_DOUBLE_EQ(channel_frequency_hz(36), 5180e6);
  EXPECT_DOUBLE_EQ(channel_frequency_hz(165), 5825e6);
}

TEST(PhySetup, MoreLinksThanTheCapIsAnInputErrorAtTheNodesThatMadeThem) {
  // The cap (Medium::kMaxLinks) lowered to what each network needs, and to one less:
  // the SINR mesh of 004 (connect) and the flagship under the range model
  // (connect_by_range).
  for (const char* file : {"fu2009/mesh40_4gw.json", "two_hop_chain_tcp.json"}) {
    const Scenario s = load(file);
    Simulation sim(1);
    const PhyNetwork net = build_phy(sim, s);
    std::size_t links = 0;
    for (RadioId r = 0; r < net.medium->radio_count(); ++r) links += net.medium->neighbours(r).size();
    ASSERT_GT(links, 2u) << file;
    Simulation at_cap(1);
    EXPECT_NO_THROW(build_phy(at_cap, s, links)) << file;
    Simulation above(1);
    try {
      build_phy(above, s, links - 1);
      ADD_FAILURE() << file << ": no error";
    } catch (const ScenarioError& e) {
      ASSERT_EQ(e.issues().size(), 1u);
      EXPECT_EQ(e.issues()[0].path, s.nodes.back().defined_at()) << file;
      EXPECT_NE(e.issues()[0].message.find("more than " + std::to_string(links - 1) + " links"), std::string::npos)
          << e.issues()[0].message;
      // What decides a link: the signal floor (sinr), the ranges (range propagation).
      const std::string knob = s.propagation.model == wmnsim::PropagationModel::range ? "/propagation/cs_range_m"
                                                                                     : "/phy/reception/signal_floor_dbm";
      EXPECT_NE(e.issues()[0].message.find(knob), std::string::npos) << e.issues()[0].message;
    }
  }
}

TEST(PhySetup, FlagshipChainIsHiddenUnderTheRangeModel) {
  const Scenario s = load("two_hop_chain_tcp.json");
  Simulation sim(1);
  const PhyNetwork net = build_phy(sim, s);
  ASSERT_EQ(net.medium->radio_count(), 3u);
  EXPECT_EQ(net.medium->reception().kind, ReceptionKind::range);
  EXPECT_EQ(net.fixed_data_rate->rate_bps, 11'000'000);
  EXPECT_EQ(net.basic_rate->rate_bps, 2'000'000);
  EXPECT_EQ(net.profile.slot, Time::us(20));
  const RadioId a = net.node_radios[*s.find_node("A")][0];
  const RadioId b = net.node_radios[*s.find_node("B")][0];
  const RadioId gw = net.node_radios[*s.find_node("GW")][0];
  ASSERT_NE(net.medium->link(a, b), nullptr);
  EXPECT_TRUE(net.medium->link(a, b)->reach.decodable);
  EXPECT_TRUE(net.medium->link(b, gw)->reach.decodable);
  EXPECT_EQ(net.medium->link(a, gw), nullptr);  // neither decoded nor sensed
  EXPECT_EQ(link_data_rate(net, a, b), net.fixed_data_rate);
  EXPECT_EQ(link_data_rate(net, a, gw), nullptr);
}

// Counts the links of `a` whose received power differs in `b` (or that b lacks).
int links_that_differ(const PhyNetwork& a, const PhyNetwork& b, int* links = nullptr) {
  int n = 0, differ = 0;
  for (RadioId x = 0; x < a.medium->radio_count(); ++x) {
    for (const Link& l : a.medium->neighbours(x)) {
      ++n;
      const Link* other = b.medium->link(x, l.to);
      differ += other == nullptr || b.medium->power_dbm(x, *other).dbm() != a.medium->power_dbm(x, l).dbm();
    }
  }
  if (links != nullptr) *links = n;
  return differ;
}

TEST(PhySetup, ShadowingIsSymmetricAndFixedByTheTopologyNotTheRunSeed) {
  // 004 runs one snapshot three times: the simulation seed changes the run's
  // randomness, never the path gains (docs/random.md).
  Scenario s = load("fu2009/mesh40_4gw.json");
  EXPECT_EQ(s.propagation.shadowing.seed, 1u);  // the placement seed of /node_groups/0
  Simulation sim1(7), sim2(8);
  const PhyNetwork n1 = build_phy(sim1, s), n2 = build_phy(sim2, s);
  ASSERT_EQ(n1.medium->radio_count(), 44u);
  for (RadioId a = 0; a < n1.medium->radio_count(); ++a) {
    for (const Link& l : n1.medium->neighbours(a)) {
      const Link* back = n1.medium->link(l.to, a);
      ASSERT_NE(back, nullptr);
      EXPECT_DOUBLE_EQ(n1.medium->power_dbm(l.to, *back).dbm(), n1.medium->power_dbm(a, l).dbm());  // the path gain is symmetric
    }
  }
  int links = 0;
  EXPECT_EQ(links_that_differ(n1, n2, &links), 0);  // another run seed: the same gains
  EXPECT_GT(links, 100);

  // Another shadowing seed at the same positions: other gains on most links.
  s.propagation.shadowing.seed = 2;
  Simulation sim3(7);
  const PhyNetwork n3 = build_phy(sim3, s);
  EXPECT_GT(links_that_differ(n1, n3), links / 2);
}

TEST(PhySetup, ShadowingSpreadMatchesSigma) {
  // With sigma = 3.65 dB (004, read as the standard deviation), the deviation of
  // received power from the deterministic Eq. (1) value has that spread.
  Scenario s = load("fu2009/mesh40_4gw.json");
  s.propagation.shadowing.sigma_db = 3.65;
  Simulation sim(3);
  const PhyNetwork net = build_phy(sim, s);
  const LogDistance model{};
  double sum = 0, sum2 = 0;
  int n = 0;
  for (RadioId a = 0; a < net.medium->radio_count(); ++a) {
    for (RadioId b = a + 1; b < net.medium->radio_count(); ++b) {
      const double d = distance_m(net.medium->spec(a).position, net.medium->spec(b).position);
      if (d > 150) continue;  // far pairs are cut off when shadowing is negative: biased sample
      const Link* l = net.medium->link(a, b);
      ASSERT_NE(l, nullptr);
      const double psi = (20.0 + model.gain(d).db()) - net.medium->power_dbm(a, *l).dbm();
      sum += psi;
      sum2 += psi * psi;
      ++n;
    }
  }
  ASSERT_GT(n, 100);
  const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.8);
  EXPECT_NEAR(sd, 3.65, 0.6);
}

TEST(PhySetup, ShadowingOfDifferentPairsIsUncorrelated) {
  // Each pair draws from its own stream: the values of pairs that share a node
  // (consecutive pairs (a, b), (a, b + 1)) show no correlation.
  Scenario s = load("fu2009/mesh40_4gw.json");
  s.propagation.shadowing.sigma_db = 3.65;
  Simulation sim(1);
  const PhyNetwork net = build_phy(sim, s);
  const LogDistance model{};
  std::vector<double> psi;
  for (RadioId a = 0; a < net.medium->radio_count(); ++a) {
    for (RadioId b = a + 1; b < net.medium->radio_count(); ++b) {
      const double d = distance_m(net.medium->spec(a).position, net.medium->spec(b).position);
      if (d > 150) continue;  // as above: every such pair has a link
      psi.push_back((20.0 + model.gain(d).db()) - net.medium->power_dbm(a, *net.medium->link(a, b)).dbm());
    }
  }
  ASSERT_GT(psi.size(), 100u);
  double mean = 0;
  for (double v : psi) mean += v / static_cast<double>(psi.size());
  double cov = 0, var = 0;
  for (std::size_t i = 0; i + 1 < psi.size(); ++i) cov += (psi[i] - mean) * (psi[i + 1] - mean);
  for (double v : psi) var += (v - mean) * (v - mean);
  EXPECT_LT(std::abs(cov / var), 0.3);  // about 3 standard errors at n > 100
}

TEST(PhySetup, AddingANodeKeepsEveryOtherPairsShadowing) {
  Scenario s = load("fu2009/mesh40_4gw.json");
  Simulation sim1(5), sim2(5);
  const PhyNetwork before = build_phy(sim1, s);
  NodeConfig extra = s.nodes[0];
  extra.id = "extra";
  extra.position = Position{250, 250, 0};
  s.nodes.insert(s.nodes.begin(), extra);  // first, so every radio id shifts by one
  const PhyNetwork after = build_phy(sim2, s);
  for (RadioId a = 0; a < before.medium->radio_count(); ++a) {
    for (const Link& l : before.medium->neighbours(a)) {
      const Link* same = after.medium->link(a + 1, l.to + 1);
      ASSERT_NE(same, nullptr);
      EXPECT_DOUBLE_EQ(after.medium->power_dbm(a + 1, *same).dbm(), before.medium->power_dbm(a, l).dbm());
    }
  }
}

// The path gain build_phy gave every pair before its medium had a reach: the model's
// mean gain, antenna gains and the pair's shadowing draw, named by the node ids.
Db reference_gain(const Scenario& s, double channel_hz, double d, double antennas, const std::string& ia,
                  const std::string& ib) {
  const PropagationSection& prop = s.propagation;
  const double f = prop.frequency_hz.value_or(channel_hz);
  d = std::max(d, 1e-3);
  Db g;
  switch (prop.model) {
    case wmnsim::PropagationModel::log_distance: {
      LogDistance m;
      m.gamma = prop.exponent;
      m.d0_m = prop.reference_distance_m;
      m.k = prop.reference_gain_db ? Db(*prop.reference_gain_db) : Friis{f}.gain(prop.reference_distance_m);
      g = m.gain(d);
      break;
    }
    case wmnsim::PropagationModel::friis: g = Friis{f}.gain(d); break;
    default: {
      TwoRayGround m;
      m.frequency_hz = f;
      m.tx_height_m = m.rx_height_m = prop.antenna_height_m;
      g = m.gain(d);
    }
  }
  g = g - Db(prop.system_loss_db) + Db(antennas);
  if (prop.shadowing.sigma_db > 0) {
    const std::string pair = std::min(ia, ib) + "|" + std::max(ia, ib);
    g = g - Db(RandomStreams(prop.shadowing.seed).stream("link", pair, "shadowing").normal(0.0, prop.shadowing.sigma_db));
  }
  return g;
}

TEST(PhySetup, NeighboursWithinReachAreExactlyThoseOfAllPairs) {
  // build_phy looks only at pairs within reach, and finishes a far pair's shadowing
  // draw only if it could be deep enough: the links must be exactly those of the
  // all-pairs construction, for each propagation model, with and without shadowing,
  // several channels, antenna gains and powers, and nodes with two radios.
  struct Case {
    wmnsim::PropagationModel model;
    double sigma;
  };
  for (const Case c : {Case{wmnsim::PropagationModel::log_distance, 3.65}, Case{wmnsim::PropagationModel::log_distance, 0},
                       Case{wmnsim::PropagationModel::log_distance, 1.0},
                       Case{wmnsim::PropagationModel::friis, 2.0}, Case{wmnsim::PropagationModel::two_ray, 5.0}}) {
    SCOPED_TRACE(std::string(to_string(c.model)) + " sigma " + std::to_string(c.sigma));
    Scenario s = load("fu2009/mesh40_4gw.json");
    s.propagation.model = c.model;
    s.propagation.shadowing.sigma_db = c.sigma;
    if (c.model != wmnsim::PropagationModel::log_distance) s.propagation.system_loss_db = 30;  // a few hundred metres
    RandomStream rng(static_cast<std::uint64_t>(c.sigma * 100) + static_cast<std::uint64_t>(c.model));
    const NodeConfig station = s.nodes.back();
    const double side = 500.0 * std::sqrt(600.0 / 40.0);
    for (int i = 0; i < 560; ++i) {
      NodeConfig n = station;
      n.id = "x" + std::to_string(i);
      n.position = Position{rng.uniform(0, side), rng.uniform(0, side), rng.uniform(0, 10)};
      n.radios[0].channel = std::array{1, 6, 11}[rng.uniform_int(3)];
      n.radios[0].tx_power_dbm = rng.uniform(15, 20);
      n.radios[0].antenna_gain_dbi = rng.uniform(0, 4);
      if (i % 10 == 0) n.radios.push_back(n.radios[0]);  // two radios on one channel
      s.nodes.push_back(n);
    }
    Simulation sim(1), ref_sim(1);
    const PhyNetwork net = build_phy(sim, s);
    Medium ref(ref_sim, reception_for(s));
    std::vector<std::size_t> node_of;
    std::vector<double> antenna;
    for (std::size_t n = 0; n < s.nodes.size(); ++n) {
      for (std::size_t r = 0; r < net.node_radios[n].size(); ++r) {
        ref.add_radio(net.medium->spec(net.node_radios[n][r]), ref_sim.random().stream("x"));
        node_of.push_back(n);
        antenna.push_back(s.nodes[n].radios[r].antenna_gain_dbi);
      }
    }
    ref.connect([&](RadioId a, RadioId b, double d) {
      return reference_gain(s, channel_frequency_hz(ref.spec(a).channel), d, antenna[a] + antenna[b],
                            s.nodes[node_of[a]].id, s.nodes[node_of[b]].id);
    });
    std::size_t links = 0;
    ASSERT_EQ(net.medium->radio_count(), ref.radio_count());
    for (RadioId r = 0; r < ref.radio_count(); ++r) {
      const auto got = net.medium->neighbours(r), expected = ref.neighbours(r);
      ASSERT_EQ(got.size(), expected.size()) << "radio " << r;
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].to, expected[i].to);
        EXPECT_EQ(net.medium->power_dbm(r, got[i]).dbm(), ref.power_dbm(r, expected[i]).dbm());
        EXPECT_EQ(got[i].power.mw(), expected[i].power.mw());
        EXPECT_EQ(got[i].delay, expected[i].delay);
        EXPECT_EQ(got[i].reach.decodable, expected[i].reach.decodable);
      }
      links += got.size();
    }
    EXPECT_GT(links, 3000u);
  }
}

TEST(PhySetup, AutoRatePicksFasterRatesOnStrongerLinks) {
  const Scenario s = load("fu2009/mesh40_4gw.json");
  Simulation sim(1);
  const PhyNetwork net = build_phy(sim, s);
  EXPECT_EQ(net.fixed_data_rate, nullptr);
  int checked = 0;
  for (RadioId a = 0; a < net.medium->radio_count(); ++a) {
    for (const Link& l : net.medium->neighbours(a)) {
      const Mcs* m = link_data_rate(net, a, l.to);
      if (m == nullptr) continue;
      const double snr_db = net.medium->power_dbm(a, l).dbm() - (-93.5);
      // The chosen rate meets the 1 % FER target at 1500 bytes...
      EXPECT_LT(snr_db, 80.0);
      EXPECT_GE(snr_db + 1e-9, Db::from_linear(snr_threshold(*m, 1500, 0.01)).db());
      // ...and the next faster one does not.
      for (const Mcs& faster : net.profile.rates) {
        if (faster.rate_bps > m->rate_bps) {
          EXPECT_LT(snr_db, Db::from_linear(snr_threshold(faster, 1500, 0.01)).db() + 1e-9);
        }
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(PhySetup, AutoRateReadsADsssLinksSnrAsTheReceptionsWill) {
  // 004's mesh on 802.11b: under "ns3" the DSSS error models read the SNR doubled,
  // so "auto" picks each link's rate at the doubled SNR (faster on some links).
  Scenario s = load("fu2009/mesh40_4gw.json");
  s.phy.standard = PhyStandard::dot11b;
  s.phy.basic_rate_bps = 1e6;
  Simulation sim_chip(1), sim_ns3(1);
  const PhyNetwork chip = build_phy(sim_chip, s);
  s.phy.reception.dsss_processing_gain = DsssProcessingGain::ns3;
  const PhyNetwork ns3 = build_phy(sim_ns3, s);
  ASSERT_EQ(chip.profile.family, PhyFamily::Dsss);
  const auto rate = [](const Mcs* m) { return m == nullptr ? 0 : m->rate_bps; };
  const auto picked = [&](double snr_linear) { return select_mcs(chip.profile.rates, snr_linear); };
  int links = 0, faster = 0;
  for (RadioId a = 0; a < chip.medium->radio_count(); ++a) {
    for (const Link& l : chip.medium->neighbours(a)) {
      if (!l.reach.decodable) continue;
      const double snr = (chip.medium->power_dbm(a, l) - chip.medium->reception().noise).linear();
      const auto at = [&](double x) { return picked(x) ? picked(x)->rate_bps : 0; };
      EXPECT_EQ(rate(link_data_rate(chip, a, l.to)), at(snr));
      EXPECT_EQ(rate(link_data_rate(ns3, a, l.to)), at(2.0 * snr));
      faster += rate(link_data_rate(ns3, a, l.to)) > rate(link_data_rate(chip, a, l.to));
      ++links;
    }
  }
  EXPECT_GT(links, 100);
  EXPECT_GT(faster, 0);

  // At a fixed rate, the usable-link rule (routing's links) reads the SNR the same way.
  s.phy.data_rate_bps = 11e6;
  Simulation sim_fixed_chip(1), sim_fixed_ns3(1);
  s.phy.reception.dsss_processing_gain = DsssProcessingGain::chip_rate;
  const PhyNetwork fixed_chip = build_phy(sim_fixed_chip, s);
  s.phy.reception.dsss_processing_gain = DsssProcessingGain::ns3;
  const PhyNetwork fixed_ns3 = build_phy(sim_fixed_ns3, s);
  const Mcs& cck11 = *find_mcs(PhyFamily::Dsss, 11'000'000);
  int usable_chip = 0, usable_ns3 = 0;
  for (RadioId a = 0; a < fixed_chip.medium->radio_count(); ++a) {
    for (const Link& l : fixed_chip.medium->neighbours(a)) {
      if (!l.reach.decodable) continue;
      const double snr = (fixed_chip.medium->power_dbm(a, l) - fixed_chip.medium->reception().noise).linear();
      EXPECT_EQ(usable_link_rate(fixed_chip, a, l.to) != nullptr, meets_per_target(cck11, snr));
      EXPECT_EQ(usable_link_rate(fixed_ns3, a, l.to) != nullptr, meets_per_target(cck11, 2.0 * snr));
      usable_chip += usable_link_rate(fixed_chip, a, l.to) != nullptr;
      usable_ns3 += usable_link_rate(fixed_ns3, a, l.to) != nullptr;
    }
  }
  EXPECT_GT(usable_ns3, usable_chip);
}

TEST(PhySetup, AutoRateOnOfdmIgnoresTheDsssReading) {
  // 004's mesh as shipped (802.11g, OFDM rates): the same rate on every link either way.
  Scenario s = load("fu2009/mesh40_4gw.json");
  Simulation sim_chip(1), sim_ns3(1);
  const PhyNetwork chip = build_phy(sim_chip, s);
  s.phy.reception.dsss_processing_gain = DsssProcessingGain::ns3;
  const PhyNetwork ns3 = build_phy(sim_ns3, s);
  int links = 0;
  for (RadioId a = 0; a < chip.medium->radio_count(); ++a) {
    for (const Link& l : chip.medium->neighbours(a)) {
      EXPECT_EQ(link_data_rate(ns3, a, l.to), link_data_rate(chip, a, l.to));
      links += link_data_rate(chip, a, l.to) != nullptr;
    }
  }
  EXPECT_GT(links, 100);
}

TEST(PhySetup, SignalFloorSetsWhoHearsAFrame) {
  Scenario s = load("fu2009/mesh40_4gw.json");
  s.propagation.shadowing.sigma_db = 0;
  std::size_t links_at[2] = {0, 0};
  // The default floor (noise - 10 dB = -103.5 dBm), then one at the noise itself.
  const std::optional<double> floors[2] = {std::nullopt, -93.5};
  for (int i = 0; i < 2; ++i) {
    s.phy.reception.signal_floor_dbm = floors[i];
    Simulation sim(1);
    const PhyNetwork net = build_phy(sim, s);
    EXPECT_DOUBLE_EQ(net.medium->reception().signal_floor.dbm(), floors[i].value_or(-103.5));
    for (RadioId a = 0; a < net.medium->radio_count(); ++a) {
      for (const Link& l : net.medium->neighbours(a)) {
        EXPECT_GE(net.medium->power_dbm(a, l).dbm(), floors[i].value_or(-103.5));
        ++links_at[i];
      }
    }
  }
  EXPECT_GT(links_at[0], links_at[1]);  // a higher floor delivers to fewer radios
}

TEST(PhySetup, Ns2PresetOf001ChainGivesNs2Reach) {
  // scenarios/jamshaid/chain_1mbps.json: the ns-2 preset on a 200 m chain. A
  // neighbour is decoded, the node two hops away is locked onto and lost, three
  // hops away nothing arrives (250 m / 550 m).
  const Scenario s = load("jamshaid/chain_1mbps.json");
  Simulation sim(1);
  const PhyNetwork net = build_phy(sim, s);
  const ReceptionConfig& rc = net.medium->reception();
  EXPECT_EQ(rc.kind, ReceptionKind::ns2);
  EXPECT_NEAR(rc.sensitivity.dbm(), -64.37, 0.005);
  EXPECT_NEAR(rc.cca_threshold.dbm(), -78.07, 0.005);
  const auto radio = [&](const char* id) { return net.node_radios[*s.find_node(id)][0]; };
  const Link* one = net.medium->link(radio("n0"), radio("n1"));
  const Link* two = net.medium->link(radio("n0"), radio("n2"));
  ASSERT_NE(one, nullptr);
  ASSERT_NE(two, nullptr);
  EXPECT_NEAR(net.medium->power_dbm(radio("n0"), *one).dbm(), -60.50, 0.01);  // 0.2818 W x 1.5^4 / 200^4
  EXPECT_TRUE(one->reach.decodable);
  EXPECT_NEAR(net.medium->power_dbm(radio("n0"), *two).dbm(), -72.54, 0.01);
  EXPECT_FALSE(two->reach.decodable);
  EXPECT_TRUE(two->reach.sensed);
  EXPECT_EQ(net.medium->link(radio("n0"), radio("n3")), nullptr);
  EXPECT_EQ(link_data_rate(net, radio("n0"), radio("n2")), nullptr);  // not a route
}

TEST(PhySetup, FrequencyOverridesTheChannelForTwoRayGround) {
  // Two nodes 60 m apart: inside the two-ray crossover distance at both 914 MHz
  // (86 m) and channel 6 (230 m), so Friis applies, at the law's frequency.
  Scenario s = load("jamshaid/chain_1mbps.json");
  MaybePosition& n1 = s.nodes[*s.find_node("n1")].position;
  n1 = Position{60.0, n1->y_m, n1->z_m};
  const auto gain_n0_n1 = [&]() {
    Simulation sim(1);
    const PhyNetwork net = build_phy(sim, s);
    const RadioId a = net.node_radios[*s.find_node("n0")][0], b = net.node_radios[*s.find_node("n1")][0];
    return net.medium->power_dbm(a, *net.medium->link(a, b)).dbm() - 24.5;
  };
  EXPECT_NEAR(gain_n0_n1(), Friis{914e6}.gain(60.0).db(), 1e-9);
  s.propagation.frequency_hz.reset();  // back to channel 6's 2437 MHz
  EXPECT_NEAR(gain_n0_n1(), Friis{channel_frequency_hz(6)}.gain(60.0).db(), 1e-9);
  EXPECT_NEAR(Friis{914e6}.gain(60.0).db() - Friis{2437e6}.gain(60.0).db(), 20 * std::log10(2437.0 / 914.0), 1e-9);
}

TEST(PhySetup, PerFrameShadowingIsNotSupportedYet) {
  Scenario s = load("fu2009/mesh40_4gw.json");
  s.propagation.shadowing.mode = ShadowingMode::per_frame;
  Simulation sim(1);
  try {
    (void)build_phy(sim, s);
    FAIL() << "expected NotSupportedError";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("/propagation/shadowing/mode"), std::string::npos);
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
