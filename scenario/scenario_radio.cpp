// The radio sections of a scenario: phy, propagation, mac. Validated now;
// simulated once phy/ and mac/ land (docs/scenario.md).

#include <cmath>
#include <limits>

#include "config/limits.hpp"
#include "mac/edca_params.hpp"
#include "scenario/phy_builder.hpp"  // profile_for
#include "scenario/scenario_parse.hpp"

namespace wmnsim {

namespace {

// DSSS timing and windows for 802.11b; OFDM for a and g (g assumed OFDM-only:
// short slot, CWmin 15, as the 004 mesh that uses it).
bool is_dsss(PhyStandard s) { return s == PhyStandard::dot11b; }

std::string rate_list(std::span<const double> rates) {
  std::vector<std::string> items;
  for (const double r : rates) items.push_back(describe_value(nlohmann::json(r)));
  return join_list(items, false, items.size());
}

// A rate must be one the standard defines; compare with a tolerance so 5.5e6 and
// 5500000 both match.
std::optional<double> check_rate(const nlohmann::json& v, const std::string& path,
                                 IssueSink& issues, PhyStandard standard, bool allow_auto) {
  const auto rates = rates_of(standard);
  const std::string expected = "one of the " + std::string(to_string(standard)) + " rates " +
                               rate_list(rates) + (allow_auto ? " or \"auto\"" : "");
  if (!v.is_number()) {
    issues.add(path, "expected " + expected + ", got " + describe_value(v));
    return std::nullopt;
  }
  const double r = v.get<double>();
  for (const double legal : rates) {
    if (std::fabs(r - legal) < 1.0) return legal;
  }
  issues.add(path, "expected " + expected + ", got " + describe_value(v));
  return std::nullopt;
}

std::optional<int> window(JsonReader& r, std::string_view key) {
  const nlohmann::json* v = r.get(key);
  if (v == nullptr) return std::nullopt;
  return scenario_detail::check_window(*v, r.path_of(key), r.issues());
}

// txop_limit_us or txop_limit_frames; setting either replaces the inherited limit.
void parse_txop(JsonReader& r, TxopLimit& txop) {
  const auto us = r.microseconds("txop_limit_us", NumberRange::closed(0, 8160));
  const auto frames = r.integer("txop_limit_frames", 1, 1000);
  if (r.has("txop_limit_us") && r.has("txop_limit_frames")) {
    r.issues().add(r.path_of("txop_limit_frames"),
                   "give either txop_limit_us or txop_limit_frames, not both");
    return;
  }
  if (us) txop = {*us, 0};
  if (frames) txop = {Time::zero(), *frames};
}

void check_window_order(JsonReader& r, int cw_min, int cw_max) {
  if (cw_min > cw_max) {
    const std::string key = r.has("cw_min") ? "cw_min" : "cw_max";
    r.issues().add(r.path_of(key), "cw_min (" + std::to_string(cw_min) + ") exceeds cw_max (" +
                                       std::to_string(cw_max) +
                                       "); cw_max must be at least cw_min");
  }
}

void parse_access_categories(JsonReader r, std::array<EdcaParams, 4>& acs) {
  for (const auto& [name, ac] : kAccessCategories) {
    if (!r.has(name)) {
      r.get(name);  // known, just not given
      continue;
    }
    JsonReader a = r.object(name);
    EdcaParams& p = acs[static_cast<std::size_t>(ac)];
    p.aifsn = static_cast<int>(a.integer_or("aifsn", p.aifsn, 1, 15));
    p.cw_min = window(a, "cw_min").value_or(p.cw_min);
    p.cw_max = window(a, "cw_max").value_or(p.cw_max);
    check_window_order(a, p.cw_min, p.cw_max);
    parse_txop(a, p.txop);
    a.finish();
  }
  r.finish();
}

// `deferral: "ns2"` emulates ns-2's Mac802_11 (docs/mac.md), which has no TXOP: a
// frame sent SIFS after the previous one's ACK inside a TXOP (9.19.2.2) would pass
// none of its response rules, so the combination is refused rather than half
// emulated. EDCA's other parts (AIFS, per-category windows, internal collisions)
// compose with ns-2's rules per access function. Reported where this MAC object sets
// the deferral or the categories; an object inheriting both was reported where they
// were set. Every offending category is named, and a limit that is the standard's
// default (AC_VI, AC_VO: Table 8-105), which the user may never have written, is
// said to be so. (The edca_txop controller, which sets limits during the run, is
// checked with the controllers: scenario_controllers.cpp.)
void check_ns2_without_txop(JsonReader& r, const MacParams& p, MacType type, const scenario_detail::ParseContext& ctx) {
  if (type != MacType::edca || p.deferral != Deferral::ns2) return;
  const char* key = r.has("deferral") ? "deferral" : r.has("access_categories") ? "access_categories" : nullptr;
  if (key == nullptr) return;
  PhySection family_only;
  family_only.standard = ctx.scenario.phy.standard;
  const auto standard_acs = mac::default_edca_params(phy::profile_for(family_only));
  std::string offending;
  std::string clear;
  for (const auto& [name, ac] : kAccessCategories) {
    const std::size_t i = static_cast<std::size_t>(ac);
    const TxopLimit& txop = p.access_categories[i].txop;
    if (txop.frames <= 1 && txop.time <= Time::zero()) continue;
    const TxopLimit& standard = standard_acs[i].txop;
    const bool is_default = txop.frames == standard.frames && txop.time == standard.time;
    offending += std::string(offending.empty() ? "" : ", ") + "\"" + std::string(name) + "\" (" +
                 (txop.frames > 1 ? std::to_string(txop.frames) + " frames"
                                  : std::to_string(std::llround(txop.time.to_microseconds())) + " us") +
                 (is_default ? ", the standard's default (IEEE 802.11-2012 Table 8-105)" : "") + ")";
    clear += std::string(clear.empty() ? "" : ", ") + "\"" + std::string(name) + "\": {\"txop_limit_us\": 0}";
  }
  if (offending.empty()) return;
  r.issues().add(r.path_of(key),
                 "\"deferral\": \"ns2\" emulates ns-2's Mac802_11, which has no TXOP, and these access categories "
                 "have a TXOP limit of more than one frame: " +
                     offending + "; with \"ns2\" clear them (\"access_categories\": {" + clear +
                     "}), or use \"deferral\": \"standard\" (docs/mac.md)");
}

void parse_rts_threshold(JsonReader& r, MacParams& p) {
  const nlohmann::json* v = r.get("rts_threshold_bytes");
  if (v == nullptr) return;
  if (v->is_string() && v->get<std::string>() == "off") {
    p.rts_threshold_bytes.reset();
    return;
  }
  IssueSink local;
  if (const auto n = check_integer(*v, r.path_of("rts_threshold_bytes"), local, 0, 65535)) {
    p.rts_threshold_bytes = *n;
    return;
  }
  r.issues().add(r.path_of("rts_threshold_bytes"),
                 "expected \"off\" or an integer 0..65535 (RTS/CTS before frames longer than this; "
                 "0 = always), got " +
                     describe_value(*v));
}

void parse_queue_lifetime(JsonReader& r, MacParams& p) {
  const nlohmann::json* v = r.get("queue_lifetime_s");
  if (v == nullptr) return;
  if (v->is_string() && v->get<std::string>() == "none") {
    p.queue_lifetime.reset();  // an override may lift /mac's lifetime
    return;
  }
  if (v->is_string()) {
    r.issues().add(r.path_of("queue_lifetime_s"),
                   "expected \"none\" or a number of seconds > 0, got " + describe_value(*v));
    return;
  }
  if (const auto t = r.seconds("queue_lifetime_s", NumberRange::positive())) p.queue_lifetime = *t;
}

std::optional<double> power_dbm(JsonReader& r, std::string_view key) {
  return r.number(key, NumberRange::closed(-200, 60));
}

// Keys that belong to other propagation models, with the models they belong to.
struct ModelKey {
  std::string_view key;
  std::string_view models;
};
constexpr std::array<ModelKey, 10> kModelKeys{{
    {"exponent", "model \"log_distance\""},
    {"reference_distance_m", "model \"log_distance\""},
    {"reference_gain_db", "model \"log_distance\""},
    {"antenna_height_m", "model \"two_ray\""},
    {"frequency_hz", "models \"log_distance\", \"two_ray\" and \"friis\""},
    {"system_loss_db", "models \"log_distance\", \"two_ray\" and \"friis\""},
    {"shadowing", "models \"log_distance\", \"two_ray\" and \"friis\""},
    {"rx_range_m", "model \"range\""},
    {"cs_range_m", "model \"range\""},
    {"interference_range_m", "model \"range\""},
}};

// A value at a path of plain keys, or nullptr (never throws on odd shapes).
const nlohmann::json* find_key_path(const nlohmann::json& doc,
                                    std::initializer_list<const char*> keys) {
  const nlohmann::json* v = &doc;
  for (const char* k : keys) {
    if (!v->is_object()) return nullptr;
    const auto it = v->find(k);
    if (it == v->end()) return nullptr;
    v = &*it;
  }
  return v;
}

}  // namespace

namespace scenario_detail {

// Contention windows are sizes in slots and powers of two (backoff in 0..cw-1).
std::optional<int> check_window(const nlohmann::json& v, const std::string& path,
                                IssueSink& issues) {
  IssueSink local;
  const auto n = check_integer(v, path, local, 1, 32768);
  const auto is_pow2 = [](std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (n && is_pow2(*n)) return static_cast<int>(*n);
  std::string msg = "expected a window size in slots, a power of two 1..32768 (e.g. 32), got " +
                    describe_value(v);
  if (n && is_pow2(*n + 1)) {
    msg += "; " + std::to_string(*n) +
           " looks like the standard's CW value, write the window size " + std::to_string(*n + 1);
  }
  issues.add(path, std::move(msg));
  return std::nullopt;
}

std::optional<int> check_channel(const nlohmann::json& v, const std::string& path,
                                 IssueSink& issues, PhyStandard standard) {
  const auto ch = check_integer(v, path, issues, 1, 165);
  if (!ch) return std::nullopt;
  if (channel_valid(standard, static_cast<int>(*ch))) return static_cast<int>(*ch);
  issues.add(path,
             "channel " + std::to_string(*ch) + " is not a " +
                 std::string(is_2ghz(standard)
                                 ? "2.4 GHz channel (1..14)"
                                 : "5 GHz channel (36..64, 100..144, 149..165 in steps of 4)") +
                 " and " + std::string(to_string(standard)) + " (/phy/standard) cannot use it");
  return std::nullopt;
}

void parse_phy(JsonReader r, ParseContext& ctx) {
  PhySection& phy = ctx.scenario.phy;
  phy.standard = r.choice_or("standard", PhyStandard::dot11b, names(kPhyStandards));
  const auto rates = rates_of(phy.standard);
  const bool dsss = is_dsss(phy.standard);

  phy.data_rate_bps = rates.back();
  if (const nlohmann::json* v = r.get("data_rate_bps")) {
    if (v->is_string() && v->get<std::string>() == "auto") {
      phy.data_rate_bps.reset();
    } else if (const auto rate =
                   check_rate(*v, r.path_of("data_rate_bps"), ctx.issues, phy.standard, true)) {
      phy.data_rate_bps = *rate;
    }
  }
  phy.basic_rate_bps = phy.standard == PhyStandard::dot11b ? 1e6 : 6e6;
  if (const nlohmann::json* v = r.get("basic_rate_bps")) {
    if (const auto rate =
            check_rate(*v, r.path_of("basic_rate_bps"), ctx.issues, phy.standard, false)) {
      phy.basic_rate_bps = *rate;
    }
  }
  if (is_2ghz(phy.standard)) {
    phy.preamble = r.choice_or("preamble", phy::Preamble::Long, names(kPreambles));
  } else {
    r.forbid("preamble", "applies only to the DSSS rates of 802.11b and 802.11g");
  }
  phy.slot = r.microseconds("slot_us", NumberRange::positive()).value_or(Time::us(dsss ? 20 : 9));
  phy.sifs = r.microseconds("sifs_us", NumberRange::positive())
                 .value_or(Time::us(phy.standard == PhyStandard::dot11a ? 16 : 10));
  phy.noise_dbm = power_dbm(r, "noise_dbm").value_or(-93.5);

  phy.channel = is_2ghz(phy.standard) ? 6 : 36;
  if (const nlohmann::json* v = r.get("channel")) {
    phy.channel =
        check_channel(*v, r.path_of("channel"), ctx.issues, phy.standard).value_or(phy.channel);
  }
  phy.tx_power_dbm = r.number_or("tx_power_dbm", 20.0, NumberRange::closed(-50, 50));
  phy.antenna_gain_dbi = r.number_or("antenna_gain_dbi", 0.0, NumberRange::closed(-30, 50));

  {
    JsonReader rx = r.object("reception");
    ReceptionSection& rec = phy.reception;
    rec.model = rx.choice_or("model", ReceptionModel::sinr, names(kReceptionModels));
    rec.capture_threshold_db =
        rx.number_or("capture_threshold_db", 10.0, NumberRange::closed(0, 100));
    rec.frame_capture = rx.boolean_or("frame_capture", false);
    rec.rx_sensitivity_dbm = power_dbm(rx, "rx_sensitivity_dbm");
    rec.cs_threshold_dbm = power_dbm(rx, "cs_threshold_dbm");
    // An SNR in dB; -50..50 covers every detector (ns-3's default is 4 dB).
    rec.preamble_detection_snr_db = rx.number("preamble_detection_snr_db", NumberRange::closed(-50, 50));
    rec.preamble_detection =
        rx.choice_or("preamble_detection", phy::PreambleDetection::at_arrival, names(kPreambleDetections));
    // Within the shortest preamble (OFDM's 16 us of training), which carries no data
    // bits: the SINR record of a reception begins at the window's end.
    const std::optional<Time> window = rx.microseconds("preamble_detection_window_us", NumberRange::open_closed(0, 16));
    if (window) rec.preamble_detection_window = *window;
    rec.signal_floor_dbm = power_dbm(rx, "signal_floor_dbm");
    rec.error_evaluation = rx.choice_or("error_evaluation", ErrorEvaluation::bounded, names(kErrorEvaluations));
    rec.faint_signals = rx.choice_or("faint_signals", FaintSignals::intervals, names(kFaintSignals));
    rec.dsss_processing_gain =
        rx.choice_or("dsss_processing_gain", DsssProcessingGain::chip_rate, names(kDsssProcessingGains));
    if (!phy.data_rate_bps && rx.has("model") && rec.model != ReceptionModel::sinr) {
      ctx.issues.add(r.path_of("data_rate_bps"),
                     "\"auto\" picks rates from frame error rates at the link's SINR; it needs "
                     "\"reception\": {\"model\": \"sinr\"}");
    }
    if (rec.frame_capture && rec.model != ReceptionModel::sinr) {
      ctx.issues.add(
          rx.path_of("frame_capture"),
          "frame_capture applies to the \"sinr\" reception model; the \"" +
              std::string(rec.model == ReceptionModel::ns2 ? "ns2" : "threshold") +
              "\" model already keeps the stronger frame when it exceeds capture_threshold_db");
    }
    if (rec.preamble_detection_snr_db && rec.model != ReceptionModel::sinr) {
      ctx.issues.add(rx.path_of("preamble_detection_snr_db"),
                     "preamble_detection_snr_db applies to the \"sinr\" reception model, the only "
                     "one with an SINR; the threshold models detect a preamble by rx_sensitivity_dbm");
    }
    if (window && rec.model == ReceptionModel::sinr && rec.preamble_detection != phy::PreambleDetection::window) {
      ctx.issues.add(rx.path_of("preamble_detection_window_us"),
                     "preamble_detection_window_us is the window of \"preamble_detection\": \"window\"; "
                     "set that, or remove the window");
    }
    // How the sinr model evaluates errors, faint signals and preambles: the threshold
    // models have none of these, so the keys would be silently ignored.
    const std::pair<const char*, const char*> sinr_only[] = {
        {"error_evaluation", "frame error draws"},
        {"faint_signals", "signals below the sensitivity"},
        {"dsss_processing_gain", "the SINR the DSSS error models read"},
        {"preamble_detection", "when a preamble is judged by its SINR"},
        {"preamble_detection_window_us", "when a preamble is judged by its SINR"}};
    for (const auto& [key, what] : sinr_only) {
      if (rx.has(key) && rec.model != ReceptionModel::sinr) {
        ctx.issues.add(rx.path_of(key), std::string(key) + " applies to the \"sinr\" reception model only (" +
                                            what + "); remove it");
      }
    }
    rx.finish();
  }
  {
    JsonReader ar = r.object("auto_rate");
    phy.auto_rate.max_fer = ar.number_or("max_fer", 0.01, NumberRange::open(0, 1));
    phy.auto_rate.reference_bytes = ar.integer_or("reference_bytes", 1500, 1, 65535);
    // The FER rule picks "auto" rates and, at a fixed rate, decides which links
    // routing may use (scenario/phy_builder.hpp usable_link_rate); only sinr has frame errors.
    if (r.has("auto_rate") && phy.reception.model != ReceptionModel::sinr) {
      ctx.issues.add(r.path_of("auto_rate"),
                     "auto_rate applies to the \"sinr\" reception model, whose frames have errors; "
                     "remove it or use \"reception\": {\"model\": \"sinr\"}");
    }
    ar.finish();
  }
  r.finish();
}

void parse_propagation(JsonReader r, ParseContext& ctx) {
  PropagationSection& p = ctx.scenario.propagation;
  p.model = r.choice_or("model", PropagationModel::log_distance, names(kPropagationModels));
  const std::string model(to_string(p.model));
  const auto applies = [&](std::string_view key) {
    for (const auto& mk : kModelKeys) {
      if (mk.key == key) return mk.models.find("\"" + model + "\"") != std::string_view::npos;
    }
    return false;
  };

  if (p.model == PropagationModel::log_distance) {
    p.exponent = r.number_or("exponent", 3.0, NumberRange::open_closed(0, 10));
    p.reference_distance_m = r.number_or("reference_distance_m", 1.0, NumberRange::positive());
    // K above 0 dB: a fitted K may include both antennas' gains (each at most 50 dBi).
    p.reference_gain_db = r.number("reference_gain_db", NumberRange::closed(-400, 100));
  }
  if (p.model == PropagationModel::two_ray) {
    p.antenna_height_m = r.number_or("antenna_height_m", 1.5, NumberRange::positive());
  }
  if (p.model != PropagationModel::range) {
    // 1 MHz .. 100 GHz: radio frequencies a propagation law of this kind describes.
    p.frequency_hz = r.number("frequency_hz", NumberRange::closed(1e6, 1e11));
  }
  if (p.model != PropagationModel::range) {
    p.system_loss_db = r.number_or("system_loss_db", 0.0, NumberRange::closed(0, 100));
    JsonReader sh = r.object("shadowing");
    p.shadowing.sigma_db = sh.number_or("sigma_db", 0.0, NumberRange::closed(0, 50));
    p.shadowing.mode = sh.choice_or("mode", ShadowingMode::per_link, names(kShadowingModes));
    if (const auto seed = sh.integer("seed", 0, std::numeric_limits<std::int64_t>::max())) {
      p.shadowing.seed = static_cast<std::uint64_t>(*seed);
      ctx.shadowing_seed_given = true;
    }
    sh.finish();
  } else {
    p.rx_range_m = r.number_or("rx_range_m", 250.0, NumberRange::positive());
    p.cs_range_m = r.number_or("cs_range_m", 550.0, NumberRange::positive());
    p.interference_range_m =
        r.number_or("interference_range_m", p.cs_range_m, NumberRange::positive());
    for (const char* key : {"cs_range_m", "interference_range_m"}) {
      const bool interference = std::string_view(key) == "interference_range_m";
      const double v = interference ? p.interference_range_m : p.cs_range_m;
      if (v >= p.rx_range_m) continue;
      const std::string rx = describe_value(nlohmann::json(p.rx_range_m));
      if (r.has(key)) {
        ctx.issues.add(r.path_of(key), std::string(key) + " (" + describe_value(nlohmann::json(v)) +
                                           ") must be at least rx_range_m (" + rx +
                                           "): a frame that can be decoded can also be sensed");
      } else if (!interference) {
        // Only rx_range_m was raised: name the default it passed and the key to set
        // (interference_range_m follows cs_range_m unless given, so one message).
        ctx.issues.add(r.path_of("rx_range_m"),
                       "rx_range_m (" + rx + ") is beyond cs_range_m's default (" +
                           describe_value(nlohmann::json(v)) +
                           "): a frame that can be decoded can also be sensed; set " + r.path_of("cs_range_m") +
                           (r.has("interference_range_m") ? std::string(" to at least ")
                                                          : " (and interference_range_m, which follows it) to at least ") +
                           rx);
      }
      // interference_range_m not given follows cs_range_m: its message covers both.
    }
  }
  for (const auto& mk : kModelKeys) {
    if (!applies(mk.key)) {
      r.forbid(mk.key,
               "applies only to propagation " + std::string(mk.models) + ", not \"" + model + "\"");
    }
  }
  r.finish();
}

void check_phy_against_propagation(const nlohmann::json& doc, ParseContext& ctx) {
  Scenario& s = ctx.scenario;
  if (s.propagation.model != PropagationModel::range) return;
  // Ranges decide who hears whom; there are no received powers to compare.
  if (find_key_path(doc, {"phy", "reception", "model"}) == nullptr) {
    s.phy.reception.model = ReceptionModel::threshold;
  } else if (s.phy.reception.model == ReceptionModel::sinr) {
    ctx.issues.add("/phy/reception/model",
                   "the \"range\" propagation model gives no received powers, so there is no SINR; "
                   "use \"threshold\" or a power-based propagation model");
  } else if (s.phy.reception.model == ReceptionModel::ns2) {
    ctx.issues.add("/phy/reception/model",
                   "\"ns2\" compares received powers with ns-2's thresholds, and the \"range\" "
                   "propagation model gives none; use \"two_ray\" (docs/phy.md, the ns2 preset)");
  }
  for (const char* key :
       {"rx_sensitivity_dbm", "cs_threshold_dbm", "signal_floor_dbm", "preamble_detection_snr_db", "preamble_detection",
        "preamble_detection_window_us", "error_evaluation", "faint_signals", "dsss_processing_gain"}) {
    if (find_key_path(doc, {"phy", "reception", key}) != nullptr) {
      ctx.issues.add(std::string("/phy/reception/") + key,
                     std::string("\"") + key +
                         "\" does not apply with propagation model \"range\": "
                         "rx_range_m and cs_range_m decide");
    }
  }
  if (!s.phy.data_rate_bps) {
    ctx.issues.add("/phy/data_rate_bps",
                   "\"auto\" picks rates from the SINR, which the \"range\" propagation model does "
                   "not give; set a fixed rate");
  }
  if (find_key_path(doc, {"phy", "auto_rate"}) != nullptr) {
    ctx.issues.add("/phy/auto_rate",
                   "auto_rate needs frame error rates, which the \"range\" propagation model does "
                   "not give; remove it");
  }
}

MacParams parse_mac_params(JsonReader& r, const MacParams& base, const ParseContext& ctx) {
  const MacType type = ctx.scenario.mac.type;
  MacParams p = base;
  if (type == MacType::dcf) {
    p.cw_min = window(r, "cw_min").value_or(p.cw_min);
    p.cw_max = window(r, "cw_max").value_or(p.cw_max);
    check_window_order(r, p.cw_min, p.cw_max);
    r.forbid("access_categories", "applies only with \"type\": \"edca\" in /mac");
  } else {
    const std::string reason =
        "applies only to DCF; with \"type\": \"edca\" set windows per access category under "
        "\"access_categories\"";
    r.forbid("cw_min", reason);
    r.forbid("cw_max", reason);
    parse_access_categories(r.object("access_categories"), p.access_categories);
  }
  p.short_retry_limit =
      static_cast<int>(r.integer_or("short_retry_limit", p.short_retry_limit, 1, 255));
  p.long_retry_limit =
      static_cast<int>(r.integer_or("long_retry_limit", p.long_retry_limit, 1, 255));
  parse_rts_threshold(r, p);
  if (r.has("queue")) p.queue = parse_queue(r.object("queue"), p.queue, p.queue_discipline, ctx);
  r.get("queue");
  parse_queue_lifetime(r, p);
  p.deferral = r.choice_or("deferral", p.deferral, names(kDeferrals));
  p.dequeue = r.choice_or("dequeue", p.dequeue, names(kDequeues));
  p.immediate_access = r.choice_or("immediate_access", p.immediate_access, names(kImmediateAccesses));
  p.cw_after_drop = r.choice_or("cw_after_drop", p.cw_after_drop, names(kCwAfterDrops));
  p.retry_counts = r.choice_or("retry_counts", p.retry_counts, names(kRetryCounts));
  p.queue_lifetime_rule = r.choice_or("queue_lifetime_rule", p.queue_lifetime_rule, names(kQueueLifetimeRules));
  check_ns2_without_txop(r, p, type, ctx);
  if (p.dequeue == Dequeue::ns3 && p.queue_discipline.name != "drop_tail" && (r.has("dequeue") || r.has("queue"))) {
    r.issues().add(r.path_of(r.has("dequeue") ? "dequeue" : "queue"),
                   "\"ns3\" keeps the frame in service in the queue's capacity, which only the \"drop_tail\" "
                   "discipline counts, and the queue's discipline is \"" + p.queue_discipline.name +
                       "\": use \"at_access\" (or \"after_exchange\") with it, or the drop_tail discipline");
  }
  return p;
}

link::QueueLimit parse_queue(JsonReader r, const link::QueueLimit& base, link::QueueDisciplineChoice& discipline,
                       const ParseContext& ctx) {
  link::QueueLimit q = base;
  const auto packets = r.integer("capacity_packets", 1, kMaxBufferPackets);
  const auto bytes = r.integer("capacity_bytes", 1, 10'000'000'000);
  if (r.has("capacity_packets") && r.has("capacity_bytes")) {
    r.issues().add(r.path_of("capacity_bytes"),
                   "give either capacity_packets or capacity_bytes, not both");
  } else if (packets) {
    q = {link::QueueLimit::Unit::packets, *packets};
  } else if (bytes) {
    q = {link::QueueLimit::Unit::bytes, *bytes};
  }
  parse_queue_discipline(r, discipline, ctx);
  r.finish();
  return q;
}

void parse_mac(JsonReader r, ParseContext& ctx) {
  MacSection& mac = ctx.scenario.mac;
  const PhyStandard standard = ctx.scenario.phy.standard;
  mac.type = r.choice_or("type", MacType::dcf, names(kMacTypes));
  // The standard's windows and EDCA parameter set: the MAC's one table
  // (mac/edca_params.hpp), for the standard's PHY family.
  PhySection family_only;
  family_only.standard = standard;
  const phy::PhyProfile profile = phy::profile_for(family_only);
  const mac::CwBounds bounds = mac::phy_cw_bounds(profile);
  MacParams defaults;
  defaults.cw_min = bounds.cw_min;
  defaults.cw_max = bounds.cw_max;
  defaults.access_categories = mac::default_edca_params(profile);
  defaults.queue_discipline = default_queue_discipline(ctx);
  mac.params = parse_mac_params(r, defaults, ctx);
  r.finish();
}

link::QueueDisciplineChoice default_queue_discipline(const ParseContext& ctx) {
  link::QueueDisciplineChoice c;
  if (const link::QueueDisciplineEntry* e = ctx.registries.queue_disciplines.find(c.name)) c.build = e->build;
  return c;
}

void parse_queue_discipline(JsonReader& r, link::QueueDisciplineChoice& choice, const ParseContext& ctx) {
  const auto& registry = ctx.registries.queue_disciplines;
  const std::any* base = &choice.params;
  if (const nlohmann::json* v = r.get("discipline")) {
    const auto i = check_choice(*v, r.path_of("discipline"), ctx.issues, registry.names());
    if (!i) {
      // Its keys cannot be judged without it; the discipline issue speaks.
      r.ignore_unknown_keys();
      return;
    }
    const link::QueueDisciplineEntry& e = registry.entries()[*i];
    if (!e.build) {
      // Registered for parsing only: no queue could be built, and drop tail in its
      // place would be a silent substitute.
      ctx.issues.add(r.path_of("discipline"), "\"" + e.name + "\" is not simulated yet (registered without a build " +
                                                  "function); use \"drop_tail\"");
    }
    if (e.name != choice.name) base = nullptr;  // another discipline: its own defaults
    choice.name = e.name;
    choice.build = e.build;
  }
  const link::QueueDisciplineEntry* e = registry.find(choice.name);
  if (e == nullptr) return;  // a default the registry lacks: build_macs keeps its drop tail
  choice.params = e->parse ? e->parse(r, base != nullptr && base->has_value() ? base : nullptr) : std::any{};
}

}  // namespace scenario_detail

}  // namespace wmnsim
