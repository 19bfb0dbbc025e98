#pragma once
// A token bucket in exact integer arithmetic: the shaper of 001 Sec. 4.3 (Fig. 2).
//
// Tokens accrue at `rate` bit/s up to `depth` bytes' worth and a packet of s bytes
// takes 8 s bits' worth. Tokens are counted in picobits (1e-12 bit): at R bit/s
// exactly R of them accrue per picosecond, so with whole-bit/s rates and Time's
// picoseconds there is no rounding anywhere, and ready_at() is the exact instant a
// packet's tokens are there (the MAC is woken then, not later). Rates are kept to
// the nearest whole bit/s.
//
// A packet larger than the bucket could never gather its tokens; it goes once the
// bucket is full and leaves it in debt, so the long-run rate still holds (the
// depth should be at least the largest packet: kDefaultDepthBytes is one full-size one).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/time.hpp"

namespace wmnsim::link {

class TokenBucket {
 public:
  static constexpr std::int64_t kPicobitsPerByte = 8'000'000'000'000;  // 8 bits x 1e12
  // The largest depth whose picobit count, with a full bucket's debt, still fits
  // int64 twice over (ready_at subtracts a debt from a cost).
  static constexpr std::int64_t kMaxDepthBytes = 500'000;
  // The shapers' default depth (token_bucket, per_class_token_bucket, the gateway's
  // shapers): one full-size packet, 1500 bytes (ours: 001 gives no depth).
  static constexpr std::int64_t kDefaultDepthBytes = 1500;
  // The fastest rate: far beyond any link, and rate x elapsed stays in int64.
  static constexpr double kMaxRateBps = 1e15;

  // Starts full at `now`. Throws std::invalid_argument for a depth outside
  // [1, kMaxDepthBytes] or a negative or non-finite rate.
  TokenBucket(double rate_bps, std::int64_t depth_bytes, Time now)
      : depth_(checked_depth(depth_bytes) * kPicobitsPerByte), tokens_(depth_), updated_(now) {
    rate_ = checked_rate(rate_bps);
  }

  std::int64_t rate_bps() const { return rate_; }
  std::int64_t depth_bytes() const { return depth_ / kPicobitsPerByte; }
  // Tokens now, in bytes (fractional).
  double tokens_bytes(Time now) const { return static_cast<double>(tokens_at(now)) / kPicobitsPerByte; }

  // When a packet of `bytes` may go: `now` if its tokens are there, Time::max() at
  // rate 0.
  Time ready_at(Time now, std::uint32_t bytes) const {
    const std::int64_t missing = cost(bytes) - tokens_at(now);
    if (missing <= 0) return now;
    if (rate_ == 0) return Time::max();
    const std::int64_t wait_ps = (missing + rate_ - 1) / rate_;  // round up: tokens complete then
    return now + Time::ps(wait_ps);
  }
  // The first instant, not before the bucket's last change, at which a packet of
  // `bytes` has its tokens (Time::max() at rate 0 when they are not there).
  Time complete_at(std::uint32_t bytes) const { return ready_at(updated_, bytes); }
  // Takes the tokens of a packet of `bytes` now (call when ready_at(now) == now;
  // `now` not before the last change).
  void take(Time now, std::uint32_t bytes) {
    tokens_ = tokens_at(now) - static_cast<std::int64_t>(bytes) * kPicobitsPerByte;
    updated_ = now;
  }
  // From `now` on tokens accrue at the new rate; those gathered so far stay.
  void set_rate(Time now, double rate_bps) {
    tokens_ = tokens_at(now);
    updated_ = now;
    rate_ = checked_rate(rate_bps);
  }

 private:
  static std::int64_t checked_depth(std::int64_t bytes) {
    if (bytes < 1 || bytes > kMaxDepthBytes) {
      throw std::invalid_argument("token bucket depth must be 1 to 500000 bytes, got " + std::to_string(bytes));
    }
    return bytes;
  }
  static std::int64_t checked_rate(double bps) {
    if (!std::isfinite(bps) || bps < 0 || bps > kMaxRateBps) {
      throw std::invalid_argument("token bucket rate must be 0 to 1e15 bit/s, got " + std::to_string(bps));
    }
    return std::llround(bps);
  }
  // A packet never needs more than a full bucket (see the header comment).
  std::int64_t cost(std::uint32_t bytes) const {
    return std::min(static_cast<std::int64_t>(bytes) * kPicobitsPerByte, depth_);
  }
  std::int64_t tokens_at(Time now) const {
    if (tokens_ >= depth_ || rate_ == 0) return tokens_;
    const std::int64_t elapsed = (now - updated_).picoseconds();
    // Full before `now`? Compared by division, so that rate x elapsed cannot overflow.
    if (elapsed >= (depth_ - tokens_) / rate_ + 1) return depth_;
    return std::min(depth_, tokens_ + rate_ * elapsed);
  }

  std::int64_t depth_;   // picobits
  std::int64_t tokens_;  // picobits at updated_; negative: in debt
  std::int64_t rate_ = 0;  // bit/s = picobits per picosecond
  Time updated_;
};

}  // namespace wmnsim::link
