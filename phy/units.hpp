#pragma once
// Radio power units as strong types, so that dBm, mW and dB cannot be mixed up.
//
//   PowerDbm  an absolute power on the log scale (transmit power, received power)
//   PowerMw   the same on the linear scale; interference is summed here, never in dBm
//   Db        a dimensionless ratio on the log scale (gain, loss, SINR, shadowing)
//
// Only physically meaningful operations exist: dBm + dB = dBm, dBm - dBm = dB,
// mW + mW = mW, mW / mW = a plain ratio. Conversions are explicit and named.

#include <cmath>
#include <compare>

namespace wmnsim::phy {

class Db {
 public:
  constexpr Db() = default;
  constexpr explicit Db(double db) : db_(db) {}
  // 10 * log10(ratio); ratio must be > 0 (0 gives -inf, as the physics says).
  static Db from_linear(double ratio) { return Db(10.0 * std::log10(ratio)); }

  constexpr double db() const { return db_; }
  double linear() const { return std::pow(10.0, db_ / 10.0); }

  constexpr auto operator<=>(const Db&) const = default;
  constexpr Db operator+(Db o) const { return Db(db_ + o.db_); }
  constexpr Db operator-(Db o) const { return Db(db_ - o.db_); }
  constexpr Db operator-() const { return Db(-db_); }
  constexpr Db operator*(double k) const { return Db(db_ * k); }

 private:
  double db_ = 0.0;
};

class PowerMw;

class PowerDbm {
 public:
  constexpr PowerDbm() = default;
  constexpr explicit PowerDbm(double dbm) : dbm_(dbm) {}

  constexpr double dbm() const { return dbm_; }
  PowerMw to_mw() const;

  constexpr auto operator<=>(const PowerDbm&) const = default;
  constexpr PowerDbm operator+(Db g) const { return PowerDbm(dbm_ + g.db()); }
  constexpr PowerDbm operator-(Db l) const { return PowerDbm(dbm_ - l.db()); }
  // The ratio of two powers, e.g. signal over noise.
  constexpr Db operator-(PowerDbm o) const { return Db(dbm_ - o.dbm_); }

 private:
  double dbm_ = 0.0;
};

class PowerMw {
 public:
  constexpr PowerMw() = default;
  constexpr explicit PowerMw(double mw) : mw_(mw) {}
  static constexpr PowerMw from_watts(double w) { return PowerMw(w * 1e3); }

  constexpr double mw() const { return mw_; }
  constexpr double watts() const { return mw_ * 1e-3; }
  PowerDbm to_dbm() const { return PowerDbm(10.0 * std::log10(mw_)); }

  constexpr auto operator<=>(const PowerMw&) const = default;
  constexpr PowerMw operator+(PowerMw o) const { return PowerMw(mw_ + o.mw_); }
  constexpr PowerMw operator-(PowerMw o) const { return PowerMw(mw_ - o.mw_); }
  constexpr PowerMw& operator+=(PowerMw o) { mw_ += o.mw_; return *this; }
  constexpr PowerMw& operator-=(PowerMw o) { mw_ -= o.mw_; return *this; }
  // A linear ratio (SINR = S / (N + I)): dimensionless, so a plain double.
  constexpr double operator/(PowerMw o) const { return mw_ / o.mw_; }

 private:
  double mw_ = 0.0;
};

inline PowerMw PowerDbm::to_mw() const { return PowerMw(std::pow(10.0, dbm_ / 10.0)); }

}  // namespace wmnsim::phy
