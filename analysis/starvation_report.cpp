#include "analysis/starvation_report.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace wmnsim {

namespace {

using StarvationModelParams = control::StarvationModelParams;
using StarvationModelResult = control::StarvationModelResult;
using Json = nlohmann::ordered_json;

// The channel states of Eq. (3) in the order of ChannelState.
constexpr const char* kStateKeys[control::kChannelStates] = {"1", "2", "3", "4", "5", "6", "c", "delta"};

template <class T>
void read(const Json& object, const char* key, T& field) {
  const auto it = object.find(key);
  if (it == object.end()) return;
  const bool ok = [&] {
    if constexpr (std::is_same_v<T, bool>) return it->is_boolean();
    else if constexpr (std::is_integral_v<T>) return it->is_number_integer();
    else return it->is_number();
  }();
  if (!ok) {
    throw std::invalid_argument(std::string("starvation model: ") + key + " must be " +
                                (std::is_same_v<T, bool> ? "true or false" : std::is_integral_v<T> ? "an integer" : "a number") +
                                ", got " + it->dump());
  }
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const auto v = it->get<std::int64_t>();
    if (v < -1'000'000'000 || v > 1'000'000'000) {
      throw std::invalid_argument(std::string("starvation model: ") + key + " is out of range: " + it->dump());
    }
    field = static_cast<T>(v);
  } else {
    field = it->get<T>();
  }
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

StarvationModelParams starvation_params_from_json(const Json& object) {
  if (!object.is_object()) throw std::invalid_argument("starvation model: parameters must be a JSON object");
  static const char* const known[] = {"cw_min_a",       "cw_min_b",       "cw_min_g",      "cw_max",
                                      "window_a",       "window_b",       "retry_limit",   "rts_cts",
                                      "payload_bytes",  "data_rate_bps",  "basic_rate_bps", "short_preamble",
                                      "tolerance",      "max_iterations"};
  for (const auto& [key, value] : object.items()) {
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (!found) throw std::invalid_argument("starvation model: unknown parameter '" + key + "'");
  }
  StarvationModelParams p;
  read(object, "cw_min_a", p.cw_min_a);
  read(object, "cw_min_b", p.cw_min_b);
  read(object, "cw_min_g", p.cw_min_g);
  read(object, "cw_max", p.cw_max);
  read(object, "window_a", p.window_a);
  read(object, "window_b", p.window_b);
  read(object, "retry_limit", p.retry_limit);
  read(object, "rts_cts", p.rts_cts);
  read(object, "payload_bytes", p.payload_bytes);
  read(object, "data_rate_bps", p.data_rate_bps);
  read(object, "basic_rate_bps", p.basic_rate_bps);
  read(object, "short_preamble", p.short_preamble);
  read(object, "tolerance", p.tolerance);
  read(object, "max_iterations", p.max_iterations);
  return p;
}

Json starvation_to_json(const StarvationModelParams& p, const StarvationModelResult& r) {
  Json params = {{"cw_min_a", p.cw_min_a},         {"cw_min_b", p.cw_min_b},
                 {"cw_min_g", p.cw_min_g},         {"cw_max", p.cw_max},
                 {"window_a", p.window_a},         {"window_b", p.window_b},
                 {"retry_limit", p.retry_limit},   {"rts_cts", p.rts_cts},
                 {"payload_bytes", p.payload_bytes}, {"data_rate_bps", p.data_rate_bps},
                 {"basic_rate_bps", p.basic_rate_bps}, {"short_preamble", p.short_preamble},
                 {"tolerance", p.tolerance},       {"max_iterations", p.max_iterations}};
  Json probs = Json::object(), durations = Json::object();
  for (int k = 0; k < control::kChannelStates; ++k) {
    probs[kStateKeys[k]] = r.p[static_cast<std::size_t>(k)];
    durations[kStateKeys[k]] = r.duration_s[static_cast<std::size_t>(k)] * 1e6;
  }
  return Json{{"params", params},
              {"lambda_a_pps", r.lambda_a_pps},
              {"lambda_b_pps", r.lambda_b_pps},
              {"lambda_a_bps", r.lambda_a_bps},
              {"lambda_b_bps", r.lambda_b_bps},
              {"share_a", r.share_a},
              {"jain_index", r.jain_index},
              {"p_q1_empty", r.p_q1_empty},
              {"p_qg_empty", r.p_qg_empty},
              {"p_q1_and_qg_empty", r.p_q1_and_qg_empty},
              {"p", probs},
              {"duration_us", durations},
              {"mean_state_duration_us", r.mean_state_duration_s * 1e6},
              {"first_packet_slots_a", r.first_packet_slots_a},
              {"first_packet_slots_g", r.first_packet_slots_g},
              {"feasible_states", r.feasible_states},
              {"reachable_states", r.reachable_states},
              {"bound_h", r.bound_h},
              {"max_row_sum_error", r.max_row_sum_error},
              {"iterations", r.iterations},
              {"residual", r.residual}};
}

std::string format_starvation_table(const std::vector<Json>& rows) {
  if (rows.empty()) return "";
  const Json& p0 = rows.front().at("params");
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "Starvation model (paper 000 Sec. 5): W_a %d, W_b %d, CWmin A/GW %d/%d, CWmax %d, retry limit %d, "
                "RTS/CTS %s, payload %d B\n\n",
                p0.at("window_a").get<int>(), p0.at("window_b").get<int>(), p0.at("cw_min_a").get<int>(),
                p0.at("cw_min_g").get<int>(), p0.at("cw_max").get<int>(), p0.at("retry_limit").get<int>(),
                p0.at("rts_cts").get<bool>() ? "on" : "off", p0.at("payload_bytes").get<int>());
  out += line;
  std::snprintf(line, sizeof line, "%8s %10s %10s %10s %10s %8s %6s %8s %8s %12s %8s %6s %9s\n", "CWmin_B",
                "lambda_a", "lambda_b", "lambda_a", "lambda_b", "share_a", "Jain", "P(Q1=0)", "P(Qg=0)",
                "P(Q1=Qg=0)", "states", "iter", "residual");
  out += line;
  std::snprintf(line, sizeof line, "%8s %10s %10s %10s %10s\n", "", "pkt/s", "pkt/s", "Mbit/s", "Mbit/s");
  out += line;
  for (const Json& r : rows) {
    std::snprintf(line, sizeof line, "%8d %10.2f %10.2f %10.4f %10.4f %8.3f %6.3f %8.4f %8.4f %12.4f %8lld %6d %9.1e\n",
                  r.at("params").at("cw_min_b").get<int>(), r.at("lambda_a_pps").get<double>(),
                  r.at("lambda_b_pps").get<double>(), r.at("lambda_a_bps").get<double>() / 1e6,
                  r.at("lambda_b_bps").get<double>() / 1e6, r.at("share_a").get<double>(),
                  r.at("jain_index").get<double>(), r.at("p_q1_empty").get<double>(),
                  r.at("p_qg_empty").get<double>(), r.at("p_q1_and_qg_empty").get<double>(),
                  static_cast<long long>(r.at("reachable_states").get<std::int64_t>()), r.at("iterations").get<int>(),
                  r.at("residual").get<double>());
    out += line;
  }
  out += "\nChannel-state probabilities p_i (Eq. 3), mean state duration Delta (us):\n";
  std::snprintf(line, sizeof line, "%8s", "CWmin_B");
  out += line;
  for (const char* k : kStateKeys) {
    std::snprintf(line, sizeof line, "%9s", (std::string("p_") + k).c_str());
    out += line;
  }
  out += "      Delta\n";
  for (const Json& r : rows) {
    std::snprintf(line, sizeof line, "%8d", r.at("params").at("cw_min_b").get<int>());
    out += line;
    for (const char* k : kStateKeys) out += fmt("%9.5f", r.at("p").at(k).get<double>());
    out += fmt("%11.2f", r.at("mean_state_duration_us").get<double>()) + "\n";
  }
  // T_c is the mean over the collision kinds, so it differs slightly between rows.
  std::snprintf(line, sizeof line, "%8s", "T_i(us)");
  out += line;
  for (const char* k : kStateKeys) out += fmt("%9.1f", rows.front().at("duration_us").at(k).get<double>());
  out += "  (first row)\n";
  return out;
}

}  // namespace wmnsim
