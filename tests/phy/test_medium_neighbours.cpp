// How the medium finds neighbours: through a uniform grid over the positions, only
// pairs within a reach distance (reach_distance_m, built on the largest possible
// shadowing draw). The lists must be exactly those of the all-pairs loop: the same
// links, powers, delays, flags and order (docs/phy.md, "Finding neighbours").

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/simulation.hpp"
#include "phy/medium.hpp"
#include "phy/propagation.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// The all-pairs loop the medium used before it had a grid, kept as the reference.
// Each link with its power in dBm (Medium::power_dbm).
using LinkAndPower = std::pair<Link, PowerDbm>;

std::vector<std::vector<LinkAndPower>> all_pairs(const Medium& m, const PathGainFn& gain) {
  const std::size_t n = m.radio_count();
  std::vector<std::vector<LinkAndPower>> links(n);
  const ReceptionConfig& rc = m.reception();
  const bool cs_floor = rc.kind == ReceptionKind::threshold || rc.kind == ReceptionKind::ns2;
  const PowerDbm cutoff = cs_floor ? std::max(rc.signal_floor, rc.cca_threshold) : rc.signal_floor;
  for (RadioId a = 0; a < n; ++a) {
    for (RadioId b = a + 1; b < n; ++b) {
      if (m.spec(a).channel != m.spec(b).channel) continue;
      const double d = distance_m(m.spec(a).position, m.spec(b).position);
      const Db g = gain(a, b, d);
      const Time delay = Time::ps(std::llround(d / kSpeedOfLight * 1e12));
      for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        const PowerDbm p = m.spec(from).tx_power + g;
        if (p < cutoff) continue;
        links[from].push_back({Link{to, SignalReach{p >= rc.sensitivity, cs_floor, true}, p.to_mw(), nullptr, delay}, p});
      }
    }
  }
  return links;
}

// Every neighbour list equal to the reference, entry by entry and bit for bit.
void expect_same_links(const Medium& m, const std::vector<std::vector<LinkAndPower>>& expected, std::size_t* total = nullptr) {
  ASSERT_EQ(expected.size(), m.radio_count());
  std::size_t count = 0;
  for (RadioId r = 0; r < m.radio_count(); ++r) {
    const auto got = m.neighbours(r);
    ASSERT_EQ(got.size(), expected[r].size()) << "radio " << r;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const Link& g = got[i];
      const Link& e = expected[r][i].first;
      ASSERT_EQ(g.to, e.to) << "radio " << r << " entry " << i;
      EXPECT_EQ(g.power.mw(), e.power.mw());
      EXPECT_EQ(m.power_dbm(r, g).dbm(), expected[r][i].second.dbm());
      EXPECT_EQ(g.delay, e.delay);
      EXPECT_EQ(g.radio, &m.radio(g.to));  // the radio `to` itself
      EXPECT_EQ(g.reach.decodable, e.reach.decodable);
      EXPECT_EQ(g.reach.sensed, e.reach.sensed);
      EXPECT_EQ(g.reach.interferes, e.reach.interferes);
      EXPECT_EQ(m.link(r, g.to), &g);
    }
    count += got.size();
  }
  if (total != nullptr) *total = count;
}

struct Layout {
  std::vector<RadioSpec> specs;
  std::vector<double> antenna_dbi;
};

// n radios at 004's density (40 per 500 m x 500 m), some raised, on `channels`
// channels, with different transmit powers and antenna gains.
Layout random_layout(std::size_t n, int channels, std::uint64_t seed) {
  RandomStream rng(seed);
  const double side = 500.0 * std::sqrt(static_cast<double>(n) / 40.0);
  Layout l;
  for (std::size_t i = 0; i < n; ++i) {
    const Point p{rng.uniform(0, side), rng.uniform(0, side), rng.bernoulli(0.2) ? rng.uniform(0, 30) : 0.0};
    const int channel = 1 + 5 * static_cast<int>(rng.uniform_int(static_cast<std::uint64_t>(channels)));
    l.specs.push_back(RadioSpec{static_cast<ContextId>(i), p, channel, PowerDbm(rng.uniform(10, 20)), profile_80211g()});
    l.antenna_dbi.push_back(rng.uniform(-2, 3));
  }
  return l;
}

struct Built {
  Simulation sim{1};
  std::unique_ptr<Medium> medium;
};

void add_radios(Built& b, const Layout& l, ReceptionConfig rc) {
  b.medium = std::make_unique<Medium>(b.sim, rc);
  for (std::size_t i = 0; i < l.specs.size(); ++i) b.medium->add_radio(l.specs[i], b.sim.random().stream("node", i, "rx_error"));
}

// Log-distance gain with antenna gains and a per-pair shadowing draw named by the pair.
PathGainFn shadowed_gain(const Layout& l, double sigma) {
  return [&l, sigma](RadioId a, RadioId b, double d) {
    const Db g = LogDistance{}.gain(std::max(d, 1e-3)) + Db(l.antenna_dbi[a] + l.antenna_dbi[b]);
    if (sigma <= 0) return g;
    const RandomStreams streams(9);
    return g - Db(streams.stream("link", std::to_string(a) + "|" + std::to_string(b), "shadowing").normal(0.0, sigma));
  };
}

double reach_for(const Layout& l, const Medium& m, double sigma) {
  double max_antenna = -1e9;
  PowerDbm max_tx(-1e9);
  for (std::size_t i = 0; i < l.specs.size(); ++i) {
    max_antenna = std::max(max_antenna, l.antenna_dbi[i]);
    max_tx = std::max(max_tx, l.specs[i].tx_power);
  }
  return reach_distance_m(
      [&](double d) {
        return LogDistance{}.gain(std::max(d, 1e-3)) + Db(2 * max_antenna + sigma * RandomStream::kNormalMaxAbs);
      },
      max_tx, m.delivery_cutoff());
}

TEST(MediumNeighbours, GridFindsExactlyTheAllPairsLinks) {
  for (const double sigma : {0.0, 1.0, 3.65, 8.0}) {  // 0 and 1: several cells; more: one
    for (const int channels : {1, 3}) {
      for (const ReceptionKind kind : {ReceptionKind::sinr, ReceptionKind::threshold}) {
        SCOPED_TRACE("sigma " + std::to_string(sigma) + ", channels " + std::to_string(channels));
        const Layout l = random_layout(600, channels, 17 + static_cast<std::uint64_t>(sigma) + channels);
        ReceptionConfig rc;
        rc.kind = kind;
        if (kind == ReceptionKind::threshold) {
          rc.sensitivity = PowerDbm(-80);
          rc.cca_threshold = PowerDbm(-90);
        }
        Built grid, brute;
        add_radios(grid, l, rc);
        add_radios(brute, l, rc);
        const PathGainFn gain = shadowed_gain(l, sigma);
        const double reach = reach_for(l, *grid.medium, sigma);
        // Without shadowing the reach is a small part of the area; with it, most or all.
        ASSERT_TRUE(std::isfinite(reach));
        ASSERT_LT(reach, sigma == 0 ? 600.0 : 1e6);
        grid.medium->connect(gain, reach);
        const auto expected = all_pairs(*grid.medium, gain);
        std::size_t links = 0;
        expect_same_links(*grid.medium, expected, &links);
        EXPECT_GT(links, 600u * 10 / static_cast<std::size_t>(channels));
        brute.medium->connect(gain);  // infinite reach: every pair looked at
        expect_same_links(*brute.medium, expected);
      }
    }
  }
}

TEST(MediumNeighbours, PairsExactlyAtTheReachAreLookedAtAndFartherOnesNot) {
  // Radios on a lattice of pitch R (axis neighbours exactly R apart), and a second one
  // whose pitch is one ulp longer: pairs at exactly R are within reach, pairs just
  // beyond are not.
  const double reach = 125.0;  // multiples exact: lattice neighbours exactly R apart
  const double longer = std::nextafter(reach, 1e9);
  Layout l;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      l.specs.push_back(RadioSpec{0, Point{i * reach, 20 * reach + j * reach, 0}, 6, PowerDbm(20), profile_80211g()});
    }
  }
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      l.specs.push_back(RadioSpec{0, Point{i * longer, j * longer, 0}, 6, PowerDbm(20), profile_80211g()});
    }
  }
  l.antenna_dbi.assign(l.specs.size(), 0.0);
  // A gain that reaches the cutoff at any distance: only the reach decides.
  const PathGainFn flat = [](RadioId, RadioId, double) { return Db(-50); };
  Built grid;
  add_radios(grid, l, ReceptionConfig{});
  grid.medium->connect(flat, reach);
  const auto everything = all_pairs(*grid.medium, flat);
  for (RadioId r = 0; r < grid.medium->radio_count(); ++r) {
    std::vector<RadioId> expected;
    for (const auto& [e, power] : everything[r]) {
      if (distance_m(l.specs[r].position, l.specs[e.to].position) <= reach) expected.push_back(e.to);
    }
    std::vector<RadioId> got;
    for (const Link& g : grid.medium->neighbours(r)) got.push_back(g.to);
    EXPECT_EQ(got, expected) << "radio " << r;
    if (r < 25) {
      EXPECT_GE(got.size(), 2u);  // the first lattice's axis neighbours
    }
  }
  // The first lattice's axis neighbours are exactly R apart, the second's farther.
  EXPECT_EQ(distance_m(l.specs[0].position, l.specs[1].position), reach);
  EXPECT_NE(grid.medium->link(0, 1), nullptr);
  EXPECT_GT(distance_m(l.specs[25].position, l.specs[26].position), reach);
  EXPECT_EQ(grid.medium->link(25, 26), nullptr);
}

TEST(MediumNeighbours, RangeModelGridMatchesAllPairs) {
  const Layout l = random_layout(500, 3, 5);
  ReceptionConfig rc;
  rc.kind = ReceptionKind::range;
  Built grid;
  add_radios(grid, l, rc);
  const RangeModel ranges{250, 550};
  grid.medium->connect_by_range(ranges, 400);
  std::size_t links = 0;
  for (RadioId a = 0; a < grid.medium->radio_count(); ++a) {
    std::vector<RadioId> expected;
    for (RadioId b = 0; b < grid.medium->radio_count(); ++b) {
      if (b == a || l.specs[a].channel != l.specs[b].channel) continue;
      if (distance_m(l.specs[a].position, l.specs[b].position) <= 550) expected.push_back(b);
    }
    std::vector<RadioId> got;
    for (const Link& g : grid.medium->neighbours(a)) {
      got.push_back(g.to);
      const double d = distance_m(l.specs[a].position, l.specs[g.to].position);
      EXPECT_EQ(g.reach.decodable, d <= 250);
      EXPECT_EQ(g.reach.interferes, d <= 400);
    }
    EXPECT_EQ(got, expected);
    links += got.size();
  }
  EXPECT_GT(links, 1000u);
}

TEST(MediumNeighbours, ReachDistanceBoundsTheStrongestPossibleLink) {
  // 004's model: Pt 20 dBm, cutoff -103.5 dBm. Without shadowing the reach is where
  // the mean power meets the cutoff: 1000 m x 10^(-16.546 / 40) = 386 m.
  const LogDistance model{};
  const PowerDbm tx(20), cutoff(-103.5);
  const double plain = reach_distance_m([&](double d) { return model.gain(std::max(d, 1e-3)); }, tx, cutoff);
  EXPECT_NEAR(plain, 1000.0 * std::pow(10.0, (20.0 - 140.046 + 103.5) / 40.0), 1e-3);
  EXPECT_LT((tx + model.gain(plain)).dbm(), cutoff.dbm());
  EXPECT_GE((tx + model.gain(plain * (1 - 1e-6))).dbm(), cutoff.dbm() - 1e-5);
  // With 3.65 dB shadowing, the deepest possible fade in a link's favour widens it.
  const double shadow = 3.65 * RandomStream::kNormalMaxAbs;
  const double wide = reach_distance_m([&](double d) { return model.gain(std::max(d, 1e-3)) + Db(shadow); }, tx, cutoff);
  EXPECT_NEAR(wide, plain * std::pow(10.0, shadow / 40.0), 1e-2);
  // Nothing arrives from farther away, whatever the draw.
  for (double d = wide * 1.000001; d < wide * 3; d *= 1.01) {
    EXPECT_LT((tx + model.gain(d) + Db(shadow)).dbm(), cutoff.dbm());
  }
  // A gain that never falls below the cutoff (within 1e12 m) has no reach.
  EXPECT_EQ(reach_distance_m([](double) { return Db(0); }, tx, cutoff), std::numeric_limits<double>::infinity());
}

TEST(MediumNeighbours, NormalDrawsStayWithinTheirProvenBound) {
  // The largest |z| the polar method can give: u = 2^-52, v = 0 (s = 2^-104).
  const double u = 0x1.0p-52, s = u * u;
  const double z = u * std::sqrt(-2.0 * std::log(s) / s);
  EXPECT_NEAR(z, std::sqrt(208.0 * std::log(2.0)), 1e-12);
  EXPECT_LE(z, RandomStream::kNormalMaxAbs);
  EXPECT_LT(RandomStream::kNormalMaxAbs - z, 1e-3);  // and the bound is tight
  // normal_beyond gives normal()'s value whenever it gives one, and says nothing only
  // of draws below its threshold.
  const RandomStreams streams(3);
  int skipped = 0;
  for (int i = 0; i < 20000; ++i) {
    const double t = (i % 7) * 0.6;
    RandomStream x = streams.stream("pair", static_cast<std::uint64_t>(i), "shadowing");
    RandomStream y = x;
    const double full = x.normal(0.0, 3.65);
    ASSERT_LE(std::abs(full), 3.65 * RandomStream::kNormalMaxAbs);
    const std::optional<double> tail = y.normal_beyond(0.0, 3.65, RandomStream::NormalTail(t));
    if (tail) {
      EXPECT_EQ(*tail, full);
    } else {
      EXPECT_LT(std::abs(full), 3.65 * t);
      ++skipped;
    }
  }
  EXPECT_GT(skipped, 10000);
}

TEST(MediumNeighbours, PathHashInPiecesEqualsTheWholePath) {
  const RandomStreams streams(11);
  const auto h = RandomStreams::extend_path_hash(RandomStreams::kEmptyPathHash, "link/");
  const auto whole = streams.key_for("link/GW_SW|s12/shadowing");
  EXPECT_EQ(streams.key_for_path_hash(RandomStreams::extend_path_hash(RandomStreams::extend_path_hash(h, "GW_SW|"), "s12/shadowing")),
            whole);
  RandomStream a = streams.stream("link", "GW_SW|s12", "shadowing");
  RandomStream b(whole);
  EXPECT_EQ(a.next_u64(), b.next_u64());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
