#pragma once
// Why a radio did not decode a frame that reached it: what a frame trace reports of
// a failed reception (phy/air_observer.hpp; docs/traces.md "Failed receptions").
// Phy/ works it out from the state it keeps anyway; nothing here changes a
// reception's outcome.

#include <array>
#include <cstdint>

#include "core/enum_names.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

using RadioId = std::uint32_t;  // as in phy/radio.hpp
inline constexpr RadioId kNoRadio = 0xffffffffu;

enum class RxFailure : std::uint8_t {
  // Another signal overlapped the frame: the threshold and range models' destroying
  // interferer, ns-2's collision, under the sinr model a lost error draw while
  // another (non-faint) signal was on the air; for a frame never locked onto, the
  // frame the radio was receiving.
  collision,
  // Too weak to be locked onto (sinr: below the sensitivity, or its preamble not
  // detected with nothing else on the air; threshold, range: outside the reception
  // range), or (ns2) locked onto between CSThresh and RXThresh.
  below_sensitivity,
  // sinr with frame capture: a later frame, stronger by the capture margin, took
  // the receiver over (the interferer is that frame's transmitter).
  capture_lost,
  // sinr: the error model's draw lost the frame with nothing else on the air (noise
  // and faint signals alone).
  error_draw,
  // The radio transmitted (half duplex): it started during the reception, or was
  // transmitting when the frame arrived.
  own_transmission,
};

inline constexpr std::array<EnumName<RxFailure>, 5> kRxFailureNames{{
    {"collision", RxFailure::collision},
    {"below sensitivity", RxFailure::below_sensitivity},
    {"capture lost", RxFailure::capture_lost},
    {"error draw", RxFailure::error_draw},
    {"own transmission", RxFailure::own_transmission},
}};

struct RxFailureInfo {
  RxFailure cause = RxFailure::error_draw;
  // collision, capture_lost: the transmitter of the strongest other signal that
  // overlapped the frame (a frame never locked onto: of the frame being received),
  // kNoRadio when none is known (a collision with faint signals only).
  RadioId interferer = kNoRadio;
  PowerMw power;  // the frame's received power at this radio
};

}  // namespace wmnsim::phy
