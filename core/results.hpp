#pragma once
// The results of one run, and the versioned results file (docs/results.md).
//
// Everything that depends on the wall clock sits under the one "wall_clock" key,
// so comparing two results files for bit-identical simulation output means
// comparing them with that key removed.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fingerprint.hpp"
#include "core/time.hpp"

namespace wmnsim {

inline constexpr int kResultsFormatVersion = 1;

// The wmnsim version and build type compiled into this library.
std::string_view wmnsim_version();
std::string_view wmnsim_build_type();

// One requested time series, long form: (time_s, id, value) rows.
struct TimeSeries {
  std::string unit;
  Time interval;
  struct Sample {
    double time_s;
    std::string id;
    double value;
  };
  std::vector<Sample> samples;
};

// Appends `samples` to the series `kind` of `out` (created with `unit` and
// `interval` if absent): several samplers may contribute to one kind.
struct Results;
void append_timeseries(Results& out, const std::string& kind, const std::string& unit, Time interval,
                       const std::vector<TimeSeries::Sample>& samples);

struct RunStats {
  Time simulated;                  // simulated time reached
  std::uint64_t events_executed = 0;
  // The event-trace fingerprint, when the run was asked for it (RunOptions).
  std::optional<Fingerprint> fingerprint;
  double wall_time_s = 0.0;        // wall clock: excluded from reproducibility comparisons
  bool interrupted = false;        // stopped early by the user
};

// Something about a finished run a user should not miss (a flow that delivered
// nothing), at the JSON path of the scenario entry concerned (docs/results.md).
struct RunWarning {
  std::string path;
  std::string message;
};

struct Results {
  nlohmann::ordered_json scenario;  // the scenario as run, after overrides
  std::uint64_t seed = 0;
  RunStats stats;
  // One object per flow / node, all with the same keys in the same order (the
  // metric columns are defined by the layers that produce them).
  std::vector<nlohmann::ordered_json> flows;
  std::vector<nlohmann::ordered_json> nodes;
  // One object per controller: id, type and the controller's own statistics.
  std::vector<nlohmann::ordered_json> controllers;
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  std::vector<RunWarning> warnings;
  std::map<std::string, TimeSeries> timeseries;

  nlohmann::ordered_json to_json() const;
  // The per-flow table as CSV: a header of the flow keys, one line per flow.
  std::string flows_csv() const;
};

// Writes `content` to `path` atomically: to a temporary file in the same folder,
// flushed, then renamed over `path`. Readers see the old file or the new one,
// never a partial one; on failure no temporary file is left behind. Throws
// std::runtime_error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace wmnsim
