#include "core/results.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

#ifndef WMNSIM_VERSION
#define WMNSIM_VERSION "unknown"
#endif
#ifndef WMNSIM_BUILD_TYPE
#define WMNSIM_BUILD_TYPE "unknown"
#endif

namespace wmnsim {

std::string_view wmnsim_version() { return WMNSIM_VERSION; }
std::string_view wmnsim_build_type() { return WMNSIM_BUILD_TYPE; }

namespace {
// CSV field quoting per RFC 4180: quote when the field has a comma, quote or newline.
std::string csv_field(const nlohmann::ordered_json& v) {
  std::string s;
  if (v.is_string()) {
    s = v.get<std::string>();
  } else if (v.is_null()) {
    return "";
  } else {
    s = v.dump();
  }
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}
}  // namespace

nlohmann::ordered_json Results::to_json() const {
  using J = nlohmann::ordered_json;
  J out;
  out["format"] = "wmnsim-results";
  out["format_version"] = kResultsFormatVersion;
  out["wmnsim"] = {{"version", wmnsim_version()}, {"build_type", wmnsim_build_type()}};
  out["seed"] = seed;
  out["run"] = {{"simulated_time_s", stats.simulated.to_seconds()},
                {"events_executed", stats.events_executed},
                {"event_fingerprint", nullptr},
                {"fingerprint_records", nullptr},
                {"interrupted", stats.interrupted}};
  if (const auto& fp = stats.fingerprint) {
    out["run"]["event_fingerprint"] = fp->hex();
    const Fingerprint::Counts& c = fp->counts();
    out["run"]["fingerprint_records"] = {
        {"events", c.events}, {"frames", c.frames}, {"deliveries", c.deliveries}, {"drops", c.drops}};
  }
  out["wall_clock"] = {{"wall_time_s", stats.wall_time_s},
                       {"events_per_s", stats.wall_time_s > 0 ? static_cast<double>(stats.events_executed) / stats.wall_time_s : 0.0}};
  out["warnings"] = J::array();
  for (const auto& w : warnings) out["warnings"].push_back({{"path", w.path}, {"message", w.message}});
  out["summary"] = summary;
  out["flows"] = J::array();
  for (const auto& f : flows) out["flows"].push_back(f);
  out["nodes"] = J::array();
  for (const auto& n : nodes) out["nodes"].push_back(n);
  out["controllers"] = J::array();
  for (const auto& c : controllers) out["controllers"].push_back(c);
  J series = J::object();
  for (const auto& [kind, ts] : timeseries) {
    J rows = J::array();
    for (const auto& s : ts.samples) rows.push_back(J::array({s.time_s, s.id, s.value}));
    series[kind] = {{"unit", ts.unit},
                    {"interval_s", ts.interval.to_seconds()},
                    {"columns", {"time_s", "id", "value"}},
                    {"rows", std::move(rows)}};
  }
  out["timeseries"] = std::move(series);
  out["scenario"] = scenario;
  return out;
}

std::string Results::flows_csv() const {
  std::ostringstream os;
  if (flows.empty()) return "";
  bool first = true;
  for (const auto& [key, value] : flows.front().items()) {
    os << (first ? "" : ",") << key;
    first = false;
  }
  os << '\n';
  for (const auto& f : flows) {
    first = true;
    for (const auto& [key, value] : flows.front().items()) {
      os << (first ? "" : ",") << (f.contains(key) ? csv_field(f.at(key)) : "");
      first = false;
    }
    os << '\n';
  }
  return os.str();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  namespace fs = std::filesystem;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::random_device rd;
  const fs::path tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  auto fail = [&](const std::string& what) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot write " + path.string() + ": " + what);
  };
  errno = 0;
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) fail(std::strerror(errno));
  const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool flushed = written && std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  int error = errno;
  errno = 0;
  const bool closed = std::fclose(f) == 0;
  if (error == 0) error = errno;
  if (!written || !flushed || !closed) fail(std::strerror(error != 0 ? error : EIO));
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fail(ec.message());
}

void append_timeseries(Results& out, const std::string& kind, const std::string& unit, Time interval,
                       const std::vector<TimeSeries::Sample>& samples) {
  TimeSeries& ts = out.timeseries[kind];
  ts.unit = unit;
  ts.interval = interval;
  ts.samples.insert(ts.samples.end(), samples.begin(), samples.end());
}

}  // namespace wmnsim
