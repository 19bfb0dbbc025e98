#pragma once
// The PHY's and the propagation's settings, as a scenario's `phy` and
// `propagation` sections give them (docs/scenario.md), with their name tables.
// The scenario layer fills them; scenario/phy_builder.cpp turns them into a Medium.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "phy/profile.hpp"    // Preamble
#include "phy/reception.hpp"  // PreambleDetection

namespace wmnsim {

enum class PhyStandard { dot11b, dot11a, dot11g };
enum class ReceptionModel { sinr, threshold, ns2 };

enum class ErrorEvaluation { bounded, exact };
enum class FaintSignals { intervals, events };
enum class DsssProcessingGain { chip_rate, ns3 };

struct ReceptionSection {
  ReceptionModel model = ReceptionModel::sinr;
  // threshold, ns2: a frame survives an overlapping one if its power exceeds the other's
  // by this much (ns-2's CPThresh). sinr: margin a later, stronger frame needs to capture the receiver
  // (only with frame_capture).
  double capture_threshold_db = 10.0;
  bool frame_capture = false;
  // Power needed to detect and decode a preamble, and the energy that makes the
  // medium busy. Empty: scenario/phy_builder.cpp's defaults (docs/phy.md: the noise floor and
  // -62 dBm for sinr, ns-2's RXThresh and CSThresh for threshold and ns2).
  std::optional<double> rx_sensitivity_dbm;
  std::optional<double> cs_threshold_dbm;
  // sinr: SINR a preamble needs at arrival to be detected; empty: no SINR condition.
  std::optional<double> preamble_detection_snr_db;
  // sinr: when a preamble is judged: at arrival (default) or at the end of a window
  // after it (ns-3's rule; phy/reception.hpp PreambleDetection).
  phy::PreambleDetection preamble_detection = phy::PreambleDetection::at_arrival;
  Time preamble_detection_window = Time::us(4);
  // Signals weaker than this are not delivered at all: neither sensed nor counted as
  // interference. Empty: noise_dbm - 10 dB.
  std::optional<double> signal_floor_dbm;
  // sinr: "exact" evaluates the error model for every chunk; "bounded" (default)
  // decides from tabulated bounds where they suffice, with the same outcomes.
  ErrorEvaluation error_evaluation = ErrorEvaluation::bounded;
  // sinr: signals below the sensitivity as time intervals the radio sums when it
  // needs them ("intervals", default) or as events ("events"); same outcomes.
  FaintSignals faint_signals = FaintSignals::intervals;
  // sinr: the bandwidth the DSSS/CCK error models read the SINR over: "chip_rate"
  // (default, 11 MHz) or "ns3" (22 MHz, ns-3's DsssErrorRateModel; docs/phy.md).
  DsssProcessingGain dsss_processing_gain = DsssProcessingGain::chip_rate;
};

struct AutoRateSection {
  double max_fer = 0.01;                // highest frame error rate a link may run at
  std::int64_t reference_bytes = 1500;  // frame size the FER target refers to
};

struct PhySection {
  PhyStandard standard = PhyStandard::dot11b;
  // Empty: "auto", the fastest rate per link whose FER at the link's SINR stays
  // below auto_rate.max_fer (paper 004).
  std::optional<double> data_rate_bps;
  double basic_rate_bps = 1e6;  // control frames and broadcasts
  phy::Preamble preamble = phy::Preamble::Long;  // 802.11b/g DSSS only
  Time slot = Time::us(20);  // standard default: b 20 us, a/g 9 us
  Time sifs = Time::us(10);  // standard default: b/g 10 us, a 16 us
  double noise_dbm = -93.5;
  // Defaults for every radio that does not say otherwise.
  int channel = 6;
  double tx_power_dbm = 20.0;
  double antenna_gain_dbi = 0.0;
  ReceptionSection reception;
  AutoRateSection auto_rate;
};

// Legal rates of a standard, in bit/s, slowest first: the rates of phy/mcs.hpp's
// tables (802.11g: the DSSS rates and the OFDM ones).
std::span<const double> rates_of(PhyStandard standard);
// Whether `channel` exists in the standard's band (2.4 GHz: 1..14, 5 GHz: 36..165).
bool channel_valid(PhyStandard standard, int channel);
// 802.11b and g use the 2.4 GHz band, a the 5 GHz band.
constexpr bool is_2ghz(PhyStandard s) { return s != PhyStandard::dot11a; }

inline constexpr std::array<EnumName<PhyStandard>, 3> kPhyStandards{
    {{"802.11b", PhyStandard::dot11b},
     {"802.11a", PhyStandard::dot11a},
     {"802.11g", PhyStandard::dot11g}}};
inline constexpr std::array<EnumName<phy::Preamble>, 2> kPreambles{
    {{"long", phy::Preamble::Long}, {"short", phy::Preamble::Short}}};
inline constexpr std::array<EnumName<ReceptionModel>, 3> kReceptionModels{
    {{"sinr", ReceptionModel::sinr}, {"threshold", ReceptionModel::threshold}, {"ns2", ReceptionModel::ns2}}};
inline constexpr std::array<EnumName<ErrorEvaluation>, 2> kErrorEvaluations{
    {{"bounded", ErrorEvaluation::bounded}, {"exact", ErrorEvaluation::exact}}};
inline constexpr std::array<EnumName<phy::PreambleDetection>, 2> kPreambleDetections{
    {{"arrival", phy::PreambleDetection::at_arrival}, {"window", phy::PreambleDetection::window}}};
inline constexpr std::array<EnumName<FaintSignals>, 2> kFaintSignals{
    {{"intervals", FaintSignals::intervals}, {"events", FaintSignals::events}}};
inline constexpr std::array<EnumName<DsssProcessingGain>, 2> kDsssProcessingGains{
    {{"chip_rate", DsssProcessingGain::chip_rate}, {"ns3", DsssProcessingGain::ns3}}};
constexpr std::string_view to_string(PhyStandard v) { return enum_name(names(kPhyStandards), v); }

enum class PropagationModel { log_distance, two_ray, friis, range };
enum class ShadowingMode { per_link, per_frame };

struct ShadowingSection {
  double sigma_db = 0.0;                         // 0: no shadowing
  ShadowingMode mode = ShadowingMode::per_link;  // per_link: constant, symmetric per pair (004)
  // Master seed of the shadowing streams: part of the topology, not of the run
  // (docs/random.md). The loader resolves it: `shadowing.seed` if given, else the
  // placement seed of the random node groups (folded when several), else 1.
  std::uint64_t seed = 1;
};

struct PropagationSection {
  PropagationModel model = PropagationModel::log_distance;
  // log_distance (004 Eq. 1): Pr = Pt + K - 10 exponent log10(d / d0) - shadowing
  double exponent = 3.0;
  double reference_distance_m = 1.0;
  std::optional<double> reference_gain_db;  // K; empty: free-space gain at d0 and the channel
  // two_ray
  double antenna_height_m = 1.5;
  // friis, two_ray, and log_distance's default K; empty: the channel's centre frequency
  std::optional<double> frequency_hz;
  // friis, two_ray, log_distance
  double system_loss_db = 0.0;
  ShadowingSection shadowing;
  // range: decodable within rx_range_m, sensed within cs_range_m, and a concurrent
  // frame within interference_range_m of a receiver corrupts a reception.
  double rx_range_m = 250.0;
  double cs_range_m = 550.0;
  double interference_range_m = 550.0;  // default: cs_range_m
};

inline constexpr std::array<EnumName<PropagationModel>, 4> kPropagationModels{
    {{"log_distance", PropagationModel::log_distance},
     {"two_ray", PropagationModel::two_ray},
     {"friis", PropagationModel::friis},
     {"range", PropagationModel::range}}};
inline constexpr std::array<EnumName<ShadowingMode>, 2> kShadowingModes{
    {{"per_link", ShadowingMode::per_link}, {"per_frame", ShadowingMode::per_frame}}};
constexpr std::string_view to_string(PropagationModel v) { return enum_name(names(kPropagationModels), v); }

}  // namespace wmnsim
