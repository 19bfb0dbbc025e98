#include "model_command.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "control/starvation_model.hpp"
#include "analysis/capacity_report.hpp"
#include "analysis/starvation_report.hpp"
#include "core/input_error.hpp"
#include "core/not_supported.hpp"
#include "cli/command_line.hpp"  // kExitInvalidInput
#include "runner/one_hop_capacity.hpp"

namespace wmnsim::cli {

namespace {


// "16,32,64" -> {16, 32, 64}; throws std::invalid_argument naming the bad item.
std::vector<int> parse_list(const std::string& text) {
  std::vector<int> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size()) {
      throw std::invalid_argument("starvation model: --cwmin-b: '" + item + "' is not an integer");
    }
    values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

int run_capacity_command(const CapacityArgs& args) {
  const std::string& file = args.scenario;
  nlohmann::ordered_json report;
  try {
    if (args.at_s && !(std::isfinite(*args.at_s) && *args.at_s >= 0.0)) {
      throw std::invalid_argument("capacity model: --at must be a time in seconds >= 0, got " +
                                  std::to_string(*args.at_s));
    }
    Scenario scenario = parse_scenario(apply_overrides(read_json_file(file), args.sets));
    if (scenario.name.empty()) {
      const std::string stem = std::filesystem::path(file).stem().string();
      scenario.name = valid_utf8(stem) ? stem : "scenario";  // the name goes into JSON
    }
    if (args.one_hop_scenario) {
      std::cout << one_hop_scenario(scenario).dump(2) << '\n';
      return 0;
    }
    CapacityReportOptions options;
    if (args.at_s) options.at = Time::from_seconds(*args.at_s);
    options.capacity.mac_capacity_bps = args.mac_capacity_bps;
    if (args.measure_mac_capacity) {
      MeasuredBCounts counts = MeasuredBCounts::data;  // the name is one of the table's (CLI::IsMember)
      for (const auto& e : kMeasuredBCounts) {
        if (e.name == args.measured_b_counts) counts = e.value;
      }
      options.capacity.measured_mac_capacity_bps = [&scenario, counts](std::optional<double> data_rate_bps) {
        return measure_one_hop(scenario, Registries{}, data_rate_bps).b(counts);
      };
    }
    report = capacity_report(scenario, options);
  } catch (const ScenarioError& e) {
    for (const auto& issue : e.issues()) std::cerr << issue_line(file, issue) << '\n';
    return kExitInvalidInput;
  } catch (const NotSupportedError& e) {
    std::cerr << file << ": " << e.what() << '\n';
    return kExitInvalidInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << file << ": " << e.what() << '\n';
    return kExitInvalidInput;
  }
  if (args.json) {
    std::cout << report.dump(2) << '\n';
  } else {
    std::cout << format_capacity_table(report);
  }
  return 0;
}

}  // namespace

CLI::App* add_model_command(CLI::App& app, ModelArgs& args, CapacityArgs& capacity) {
  CLI::App* model = app.add_subcommand("model", "Analytical models");
  model->require_subcommand(1);
  CLI::App* s = model->add_subcommand("starvation", "Markov model of TCP starvation in a two-hop chain (paper 000 Sec. 5)");
  s->add_option("--cwmin-a", args.cw_min_a, "CWmin of the two-hop node A (default 32)");
  s->add_option("--cwmin-b", args.cw_min_b, "CWmin of the middle node B, or a sweep: 16,32,64 (default 32)");
  s->add_option("--cwmin-g", args.cw_min_g, "CWmin of the gateway GW (default 32)");
  s->add_option("--window", args.window, "Fixed TCP window of both flows, packets (default 3)");
  s->add_option("--window-a", args.window_a, "Window of flow A -> GW (overrides --window)");
  s->add_option("--window-b", args.window_b, "Window of flow B -> GW (overrides --window)");
  s->add_option("--retry-limit", args.retry_limit, "Short retry limit RL (default 7)");
  s->add_option("--rts", args.rts, "RTS/CTS: on or off (default off)")->check(CLI::IsMember({"on", "off"}));
  s->add_option("--payload-bytes", args.payload_bytes, "TCP payload of a data packet (default 1460)");
  s->add_flag("--json", args.json, "Print JSON (a list, one object per CWmin_B) instead of the table");
  CLI::App* c = model->add_subcommand(
      "capacity", "Max-min fair share per flow under the collision-domain and clique models (paper 001 App. A)");
  c->add_option("scenario", capacity.scenario, "Scenario JSON file")->required();
  c->add_option("--set", capacity.sets, "Override a scenario value: /json/pointer=value (repeatable), as run does");
  c->add_option("--at", capacity.at_s, "Only the flows sending at this time, s (start <= t < stop); default: all");
  CLI::Option* given = c->add_option("--mac-capacity-bps", capacity.mac_capacity_bps,
                                      "B, bit/s, instead of Bianchi's one-station saturation throughput");
  c->add_flag("--measure-mac-capacity", capacity.measure_mac_capacity,
              "B measured: one saturated flow in a one-hop run on the scenario's PHY and MAC")
      ->excludes(given);
  const std::vector<std::string> counts = enum_names(names(kMeasuredBCounts));
  c->add_option("--measured-b-counts", capacity.measured_b_counts,
                "With --measure-mac-capacity, what B counts: the flow's goodput (data, the default) or the MAC's "
                "throughput both ways, the TCP ACKs' bytes too (data_and_tcp_acks)")
      ->check(CLI::IsMember(counts))
      ->needs("--measure-mac-capacity");
  c->add_flag("--one-hop-scenario", capacity.one_hop_scenario,
              "Print the scenario of that one-hop run (JSON) instead of the model");
  c->add_flag("--json", capacity.json, "Print the JSON document instead of the table");
  return model;
}

int run_model_command(const CLI::App& model, const ModelArgs& args, const CapacityArgs& capacity) {
  if (model.got_subcommand("capacity")) return run_capacity_command(capacity);
  std::vector<nlohmann::ordered_json> rows;
  try {
    control::StarvationModelParams p;
    p.cw_min_a = args.cw_min_a;
    p.cw_min_g = args.cw_min_g;
    p.window_a = args.window_a.value_or(args.window.value_or(p.window_a));
    p.window_b = args.window_b.value_or(args.window.value_or(p.window_b));
    p.retry_limit = args.retry_limit;
    p.rts_cts = args.rts == "on";
    p.payload_bytes = args.payload_bytes;
    for (int cw : parse_list(args.cw_min_b)) {
      p.cw_min_b = cw;
      rows.push_back(starvation_to_json(p, control::solve_starvation_model(p)));
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << e.what() << '\n';
    return kExitInvalidInput;
  }
  if (args.json) {
    std::cout << nlohmann::ordered_json(rows).dump(2) << '\n';
  } else {
    std::cout << format_starvation_table(rows);
  }
  return 0;
}

}  // namespace wmnsim::cli
