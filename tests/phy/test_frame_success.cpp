#include "phy/frame_success.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "phy/error_model.hpp"
#include "phy/mcs.hpp"

namespace wmnsim::phy {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

std::vector<const Mcs*> every_mcs() {
  std::vector<const Mcs*> all;
  for (const Mcs& m : kDsssMcs) all.push_back(&m);
  for (const Mcs& m : kOfdmMcs) all.push_back(&m);
  return all;
}

double from_db(double db) { return std::pow(10.0, db / 10.0); }

TEST(UnitLogSuccessBounds, HoldAcrossTheWholeSinrRange) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> db(-70.0, 70.0);
  for (const Mcs* mcs : every_mcs()) {
    std::vector<double> sinrs{0.0, 1e-300, std::ldexp(1.0, -20), std::ldexp(1.0, 20), std::ldexp(1.0, 25),
                              std::ldexp(1.0 + 5.0 / 64, 3), std::nextafter(std::ldexp(1.0, 3), 0.0)};
    for (int i = 0; i < 400; ++i) sinrs.push_back(from_db(db(rng)));
    for (const double s : sinrs) {
      const LogSuccessBounds b = unit_log_success_bounds(*mcs, s);
      const double exact = unit_log_success(*mcs, s);
      ASSERT_TRUE(b.tabulated);
      EXPECT_LE(b.lower, exact) << mcs->name << " at SINR " << s;
      EXPECT_GE(b.upper, exact) << mcs->name << " at SINR " << s;
      EXPECT_LE(b.upper, 0.0);
    }
  }
}

TEST(UnitLogSuccessBounds, TheClosedFormsAreMonotoneOnAFinerGrid) {
  // The bounds rest on unit_log_success being non-decreasing in the SINR. Check it
  // at four points per table interval over the range where frames are decided
  // (-10 dB .. 40 dB), within the margin the table allows for rounding.
  for (const Mcs* mcs : every_mcs()) {
    double previous = -std::numeric_limits<double>::infinity();
    for (double db = -10.0; db <= 40.0; db += 0.0117) {
      const double f = unit_log_success(*mcs, from_db(db));
      if (f > -30.0) {
        EXPECT_GE(f, previous - 1e-9 * std::fabs(f) - 1e-12 * std::exp(-f)) << mcs->name << " at " << db << " dB";
      }
      previous = std::max(previous, f);
    }
  }
}

TEST(UnitLogSuccessBounds, AreTightWhereFramesAreDecided) {
  // 64 points an octave: around the SINRs where a 1500-byte frame is neither sure
  // to fail nor sure to survive, the bracket is narrow, so the draw rarely falls
  // inside it.
  for (const Mcs* mcs : every_mcs()) {
    for (double db = -5.0; db <= 30.0; db += 0.25) {
      const LogSuccessBounds b = unit_log_success_bounds(*mcs, from_db(db));
      const double units = decoding_units(*mcs, 12000.0);
      const double p_lower = std::exp(units * b.lower), p_upper = std::exp(units * b.upper);
      if (p_upper > 1e-6 && p_lower < 1.0 - 1e-6) {
        EXPECT_LT(p_upper - p_lower, 0.25) << mcs->name << " at " << db << " dB";
      }
    }
  }
}

TEST(UnitLogSuccessBounds, AnMcsOutsideTheTablesHasNone) {
  const Mcs own = kOfdmMcs[0];  // a copy: not one of the static tables
  EXPECT_FALSE(unit_log_success_bounds(own, 10.0).tabulated);
  EXPECT_THROW(unit_log_success_bounds(kOfdmMcs[0], -1.0), std::invalid_argument);
  // -0.0 is a zero SINR, not (by its sign bit) a huge one.
  for (const Mcs* mcs : every_mcs()) {
    EXPECT_EQ(unit_log_success_bounds(*mcs, -0.0).lower, -std::numeric_limits<double>::infinity()) << mcs->name;
    EXPECT_LE(unit_log_success_bounds(*mcs, -0.0).upper, unit_log_success_bounds(*mcs, 1e-3).upper) << mcs->name;
  }
  EXPECT_THROW(unit_log_success_bounds(kOfdmMcs[0], std::nan("")), std::invalid_argument);
}

// The exact decision, as the radio made it before bounds: the chunks' log success
// summed in order, then u < exp(sum).
bool exact_decision(const std::vector<std::tuple<const Mcs*, double, Time>>& chunks, double u) {
  double sum = 0.0;
  for (const auto& [mcs, sinr, d] : chunks) sum += chunk_log_success(*mcs, sinr, d);
  return u < std::exp(sum);
}

TEST(FrameSuccess, DecidesEveryDrawAsTheExactPath) {
  std::mt19937_64 rng(11);
  const std::vector<const Mcs*> all = every_mcs();
  std::uniform_int_distribution<std::size_t> pick(0, all.size() - 1);
  std::uniform_int_distribution<int> count(1, 40);
  std::uniform_real_distribution<double> db(-8.0, 35.0), unit(0.0, 1.0);
  std::uniform_int_distribution<std::int64_t> ns(0, 3000);
  int decided_by_bounds = 0, frames = 0;
  // One of each, reused frame after frame as a radio does (reset between frames).
  FrameSuccess bounded_success(false), exact_success(true);
  for (int f = 0; f < 4000; ++f) {
    std::vector<std::tuple<const Mcs*, double, Time>> chunks;
    const int n = count(rng);
    for (int c = 0; c < n; ++c) chunks.emplace_back(all[pick(rng)], from_db(db(rng)), Time::ns(ns(rng)));
    double sum = 0.0;
    for (const auto& [mcs, sinr, d] : chunks) sum += chunk_log_success(*mcs, sinr, d);
    const double p = std::exp(sum);
    // Random draws, and draws on either side of the exact probability.
    for (const double u : {unit(rng), unit(rng), p, std::nextafter(p, 0.0), std::nextafter(p, 1.0)}) {
      if (!(u >= 0.0 && u < 1.0)) continue;
      for (const bool exact : {false, true}) {
        FrameSuccess& success = exact ? exact_success : bounded_success;
        success.reset();
        for (const auto& [mcs, sinr, d] : chunks) success.add(*mcs, sinr, d);
        EXPECT_EQ(success.survives(u), exact_decision(chunks, u)) << "frame " << f << " u " << u;
        if (!exact) {
          ++frames;
          if (!success.evaluated_exactly()) ++decided_by_bounds;
        }
      }
    }
  }
  // Random draws are nearly always decided by the bounds alone.
  EXPECT_GT(decided_by_bounds, frames / 3);
  EXPECT_LT(decided_by_bounds, frames);  // and the draws at the probability are not
}

TEST(FrameSuccess, TheWorstChunksDecideOnlyAsTheExactPathWould) {
  // decide_by_worst, as the radio calls it: per part of the frame (the PLCP header
  // and the PSDU, each at its MCS) the whole duration, an SINR at or below every chunk's (the exact minimum, or a
  // looser floor), and a stretch of chunks at or below a second SINR (the worst
  // chunk, or a stretch whose chunks are all below a looser ceiling). Whenever it
  // decides, the exact path decides the same.
  std::mt19937_64 rng(13);
  const std::vector<const Mcs*> all = every_mcs();
  std::uniform_int_distribution<std::size_t> pick(0, all.size() - 1);
  std::uniform_int_distribution<int> count(1, 12);
  std::uniform_real_distribution<double> db(-8.0, 35.0), unit(0.0, 1.0), slack(0.0, 3.0);
  std::uniform_int_distribution<std::int64_t> ns(1, 3000);
  const FrameSuccess success(false), exact(true);
  int decided = 0, survived = 0, lost = 0, draws = 0;
  for (int f = 0; f < 4000; ++f) {
    // The two parts of a frame: the PLCP header's MCS and the PSDU's, often the same
    // one (6 Mbit/s OFDM, 1 Mbit/s DSSS frames).
    const Mcs* header = all[pick(rng)];
    const Mcs* data = f % 4 == 0 ? header : all[pick(rng)];
    std::vector<std::tuple<const Mcs*, double, Time>> chunks;
    std::array<WorstChunk, 2> worst{};
    const bool loose = f % 2 == 1;
    for (std::size_t part = 0; part < 2; ++part) {
      const Mcs* mcs = part == 0 ? header : data;
      WorstChunk w{mcs, Time(), std::numeric_limits<double>::infinity(), Time(),
                   std::numeric_limits<double>::infinity()};
      const int n = count(rng);
      for (int c = 0; c < n; ++c) {
        const double sinr = from_db(db(rng));
        const Time d = Time::ns(ns(rng));
        chunks.emplace_back(mcs, sinr, d);
        w.duration += d;
        if (sinr < w.worst_sinr) {
          w.worst_sinr = sinr;
          w.worst_duration = d;
        }
      }
      w.sinr_floor = w.worst_sinr;
      if (loose) {  // the radio's bounds without the chunks: looser on both sides
        w.sinr_floor /= from_db(slack(rng));
        w.worst_sinr *= from_db(slack(rng));
      }
      worst[part] = w;
    }
    double sum = 0.0;
    for (const auto& [mcs, sinr, d] : chunks) sum += chunk_log_success(*mcs, sinr, d);
    const double p = std::exp(sum);
    for (const double u : {unit(rng), unit(rng), p, std::nextafter(p, 0.0), std::nextafter(p, 1.0)}) {
      if (!(u >= 0.0 && u < 1.0)) continue;
      ++draws;
      EXPECT_EQ(exact.decide_by_worst(worst, u), -1);  // the exact path lists every chunk
      const int quick = success.decide_by_worst(worst, u);
      if (quick < 0) continue;
      ++decided;
      (quick == 1 ? survived : lost) += 1;
      EXPECT_EQ(quick == 1, exact_decision(chunks, u)) << "frame " << f << " u " << u;
    }
  }
  // Most random draws are decided this way, both ways (random frames mostly fail:
  // each has a chunk somewhere in -8..35 dB at one of every rate).
  EXPECT_GT(decided, draws / 3);
  EXPECT_GT(survived, draws / 100);
  EXPECT_GT(lost, draws / 20);
}

TEST(FrameSuccess, DecideByFloorIsDecideByWorstOfTheTwoParts) {
  // decide_by_floor (the radio's decision before listing chunks) must return what
  // decide_by_worst returns for the same two parts, draw for draw: random frames
  // at every pair of MCSs, parts with and without duration or worst stretch, SINRs
  // below, on and above the grid and on grid points, and draws at each bound.
  std::mt19937_64 rng(43);
  const std::vector<const Mcs*> all = every_mcs();
  std::uniform_int_distribution<std::size_t> pick(0, all.size() - 1);
  std::uniform_real_distribution<double> db(-70.0, 70.0), unit(0.0, 1.0);
  std::uniform_int_distribution<std::int64_t> ns(0, 3000);
  std::uniform_int_distribution<int> grid(-1300, 1300);
  const FrameSuccess success(false), exact(true);
  int compared = 0, survived = 0, lost = 0, undecided = 0;
  for (int f = 0; f < 20000; ++f) {
    const Mcs* header = all[pick(rng)];
    const Mcs* data = f % 3 == 0 ? header : all[pick(rng)];
    const auto duration = [&](int zero_one_in) { return f % zero_one_in == 1 ? Time() : Time::ns(ns(rng)); };
    const Time header_time = duration(7), payload_time = duration(11);
    const Time header_worst = duration(3), payload_worst = duration(5);
    // A fifth of the SINRs exactly on a grid point (64 a factor of 2: 2^(k/64)
    // is not one, (1 + j/64) 2^k is).
    const auto sinr = [&] {
      if (f % 5 == 0) {
        // Two draws in a fixed order (not two calls in one expression, whose order is unspecified).
        const int mantissa = grid(rng) & 63;
        const int exponent = grid(rng) / 64;
        return std::ldexp(1.0 + mantissa / 64.0, exponent);
      }
      return from_db(db(rng));
    };
    double floor = sinr(), at_most = sinr();
    if (floor > at_most) std::swap(floor, at_most);
    if (f % 97 == 0) floor = 0.0;
    const FrameBounds b{header, header_time, header_worst, data, payload_time, payload_worst, floor, at_most};
    const std::array<WorstChunk, 2> parts{WorstChunk{header, header_time, floor, header_worst, at_most},
                                          WorstChunk{data, payload_time, floor, payload_worst, at_most}};
    // Draws at and next to the values the bounds are compared with (1 + lower,
    // exp(lower), exp(upper), each with its 2^-50 allowance), and random ones.
    const auto units = [](const Mcs* mcs, Time d) {
      return decoding_units(*mcs, SinrChunk::from_duration(*mcs, 0.0, d).bits);
    };
    double lower = 0.0, upper = 0.0;
    if (header_time > Time()) lower += units(header, header_time) * unit_log_success_bounds(*header, floor).lower;
    if (payload_time > Time()) lower += units(data, payload_time) * unit_log_success_bounds(*data, floor).lower;
    if (header_worst > Time()) upper += units(header, header_worst) * unit_log_success_bounds(*header, at_most).upper;
    if (payload_worst > Time()) upper += units(data, payload_worst) * unit_log_success_bounds(*data, at_most).upper;
    std::vector<double> draws{unit(rng), unit(rng), 0.0, 1e-18};
    for (const double p : {(1.0 + lower) * (1.0 - 0x1p-50), std::exp(lower) * (1.0 - 0x1p-50),
                           std::exp(upper) * (1.0 + 0x1p-50)}) {
      if (p >= 0.0 && p < 1.0) draws.insert(draws.end(), {p, std::nextafter(p, 0.0), std::nextafter(p, 1.0)});
    }
    for (const double u : draws) {
      if (!(u >= 0.0 && u < 1.0)) continue;
      const int by_floor = success.decide_by_floor(b, u);
      ASSERT_EQ(by_floor, success.decide_by_worst(parts, u)) << "frame " << f << " u " << u;
      ASSERT_EQ(exact.decide_by_floor(b, u), -1);
      ++compared;
      (by_floor == 1 ? survived : by_floor == 0 ? lost : undecided) += 1;
    }
  }
  // All three outcomes occur, so each branch was compared.
  EXPECT_GT(survived, compared / 20);
  EXPECT_GT(lost, compared / 20);
  EXPECT_GT(undecided, 100);
}

TEST(FrameSuccess, AnMcsWithoutATableIsEvaluatedExactly) {
  const Mcs own = kOfdmMcs[3];  // a copy: no table
  FrameSuccess success;
  for (const double db : {2.0, 6.0, 9.0, 12.0, 30.0}) {
    for (const double u : {0.01, 0.5, 0.99}) {
      success.reset();
      success.add(kOfdmMcs[0], from_db(25.0), Time::us(20));  // the header, tabulated
      success.add(own, from_db(db), Time::us(1000));
      const double sum = chunk_log_success(kOfdmMcs[0], from_db(25.0), Time::us(20)) +
                         chunk_log_success(own, from_db(db), Time::us(1000));
      EXPECT_EQ(success.survives(u), u < std::exp(sum)) << db << " dB, u " << u;
      EXPECT_TRUE(success.evaluated_exactly());
    }
  }
}

TEST(FrameSuccess, RejectsANegativeSinrLikeTheExactPath) {
  FrameSuccess bounded(false), exact(true);
  EXPECT_THROW(bounded.add(kOfdmMcs[0], -0.5, Time::us(4)), std::invalid_argument);
  EXPECT_THROW(exact.add(kOfdmMcs[0], -0.5, Time::us(4)), std::invalid_argument);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::phy
