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
#include <utility>
#include <vector>

#include "core/fingerprint.hpp"
#include "core/time.hpp"

namespace wmnsim {

// 2: flow_delay_histograms hold sparse "bins" ([k, count] pairs) instead of the
// dense "counts" of version 1 (docs/results.md).
inline constexpr int kResultsFormatVersion = 2;

// The wmnsim version, build type and git commit compiled into this library (the
// commit: 12 hex digits, "+dirty" when the tree had uncommitted changes, "unknown"
// outside a git checkout).
std::string_view wmnsim_version();
std::string_view wmnsim_build_type();
std::string_view wmnsim_commit();

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
  // Wall clock of building the network before the run, per phase (phy, routing_links,
  // routing, layers); for benchmarks, not written to any output.
  std::vector<std::pair<std::string, double>> setup_s;
  bool interrupted = false;        // stopped early by the user
  // The tables cover the run up to where it stopped, not its whole duration
  // (interrupted or cancelled; the measurement window was clipped to the stop).
  bool partial = false;
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
  // One object per radio of every node with radios, in node order then radio
  // order (relays of 002 have two, on different channels), all with the same keys:
  // the node rows pool a node's radios, these keep them apart.
  std::vector<nlohmann::ordered_json> radios;
  // One object per controller: id, type and the controller's own statistics.
  std::vector<nlohmann::ordered_json> controllers;
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  std::vector<RunWarning> warnings;
  std::map<std::string, TimeSeries> timeseries;
  // Per flow, in flows order: {"flow", "bin_width_s", "bins"}: the sparse delay
  // histogram (docs/results.md). Apart from the flat rows, which CSV carries.
  std::vector<nlohmann::ordered_json> flow_delay_histograms;
  // A routing protocol's figures (runner/routing_results.hpp): only when one ran
  // during the simulation (AODV); absent from the document otherwise.
  std::optional<nlohmann::ordered_json> routing;
  // Per (flow, direction, node) statistics (runner/hop_statistics.hpp): only when
  // the scenario asks (outputs.hops); absent from the document otherwise.
  std::optional<std::vector<nlohmann::ordered_json>> hops;

  nlohmann::ordered_json to_json() const;
  // The per-flow table as CSV: a header of the flow keys, one line per flow.
  std::string flows_csv() const;
};

// The time series of a results document (Results::to_json(), or a results file) as
// CSV in long form: a header "kind,unit,time_s,id,value", then one line per sample,
// kinds in the document's order. What outputs.timeseries_file receives.
std::string timeseries_csv(const nlohmann::ordered_json& results);

// Writes `content` to `path` atomically: into an unnamed file in the same folder
// (O_TMPFILE), flushed to disk, then given a temporary name and renamed over `path`
// at once. Readers see the old file or the new one, never a partial one, and a
// write killed at any point (even by SIGKILL) leaves at most a file that exists for
// the microseconds between those two steps. A symbolic link at `path` is written
// through: its target is replaced so, in the target's folder, and the link stays.
// Throws std::runtime_error naming the path on failure, leaving nothing behind.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

// A file a run will write; `what` names it in messages ("-o", "--csv",
// "/outputs/timeseries_file").
struct OutputFile {
  std::string what;
  std::filesystem::path path;
};

// What would make writing `outputs` fail after a run, or destroy an input, checked
// before the run: two outputs naming one file, an output naming the scenario file
// `input`, a path that is a folder, a folder that does not exist (or is a regular
// file) or does not take a new file (probed by creating an unnamed file in it; for
// a symbolic link, in its target's folder). One message per problem;
// empty when all is well.
std::vector<std::string> check_output_files(const std::filesystem::path& input, const std::vector<OutputFile>& outputs);

}  // namespace wmnsim
