#pragma once
// Simulated time: a strong type over a signed 64-bit count of picoseconds.
//
// Picoseconds keep propagation delays of a few nanoseconds exact and give a range
// of about +-106 days. Time never becomes floating point inside the engine; the
// only conversions to and from seconds are at the edges (JSON input, results).

#include <compare>
#include <cstdint>
#include <limits>
#include <string>

namespace wmnsim {

class Time {
 public:
  constexpr Time() = default;

  static constexpr Time ps(std::int64_t v) { return Time(v); }
  static constexpr Time ns(std::int64_t v) { return Time(v * 1'000); }
  static constexpr Time us(std::int64_t v) { return Time(v * 1'000'000); }
  static constexpr Time ms(std::int64_t v) { return Time(v * 1'000'000'000); }
  static constexpr Time s(std::int64_t v) { return Time(v * 1'000'000'000'000); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<std::int64_t>::max()); }

  // Edge conversion: seconds (e.g. from JSON) to the nearest picosecond.
  // Throws std::out_of_range when the value does not fit (about 106 days).
  static Time from_seconds(double seconds);

  constexpr std::int64_t picoseconds() const { return ps_; }
  // Edge conversion for output only.
  constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }
  constexpr double to_microseconds() const { return static_cast<double>(ps_) * 1e-6; }

  constexpr auto operator<=>(const Time&) const = default;

  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time operator-() const { return Time(-ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time& operator-=(Time o) { ps_ -= o.ps_; return *this; }
  constexpr Time operator*(std::int64_t k) const { return Time(ps_ * k); }
  constexpr Time operator/(std::int64_t k) const { return Time(ps_ / k); }
  // How many whole `o` fit into this time (e.g. slots in an interval).
  constexpr std::int64_t operator/(Time o) const { return ps_ / o.ps_; }
  constexpr Time operator%(Time o) const { return Time(ps_ % o.ps_); }

  // "12.5us", "1.000000s": for logs and messages.
  std::string to_string() const;

 private:
  constexpr explicit Time(std::int64_t ps) : ps_(ps) {}
  std::int64_t ps_ = 0;
};

constexpr Time operator*(std::int64_t k, Time t) { return t * k; }

namespace time_literals {
constexpr Time operator""_ps(unsigned long long v) { return Time::ps(static_cast<std::int64_t>(v)); }
constexpr Time operator""_ns(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v)); }
constexpr Time operator""_us(unsigned long long v) { return Time::us(static_cast<std::int64_t>(v)); }
constexpr Time operator""_ms(unsigned long long v) { return Time::ms(static_cast<std::int64_t>(v)); }
constexpr Time operator""_s(unsigned long long v) { return Time::s(static_cast<std::int64_t>(v)); }
}  // namespace time_literals

}  // namespace wmnsim
