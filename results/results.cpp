#include "results/results.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "results/provenance.hpp"

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
  out["wmnsim"] = {{"version", wmnsim_version()}, {"commit", wmnsim_commit()}, {"build_type", wmnsim_build_type()}};
  out["seed"] = seed;
  out["run"] = {{"simulated_time_s", stats.simulated.to_seconds()},
                {"events_executed", stats.events_executed},
                {"event_fingerprint", nullptr},
                {"fingerprint_records", nullptr},
                {"interrupted", stats.interrupted},
                {"partial", stats.partial}};
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
  out["radios"] = J::array();
  for (const auto& r : radios) out["radios"].push_back(r);
  out["flow_delay_histograms"] = J::array();
  for (const auto& h : flow_delay_histograms) out["flow_delay_histograms"].push_back(h);
  out["controllers"] = J::array();
  for (const auto& c : controllers) out["controllers"].push_back(c);
  if (routing) out["routing"] = *routing;
  if (hops) {
    out["hops"] = J::array();
    for (const auto& h : *hops) out["hops"].push_back(h);
  }
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
  out["scenario_hash"] = scenario_hash(scenario);
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

std::string timeseries_csv(const nlohmann::ordered_json& results) {
  std::string out = "kind,unit,time_s,id,value\n";
  const auto it = results.find("timeseries");
  if (it == results.end() || !it->is_object()) return out;
  for (const auto& [kind, series] : it->items()) {
    const std::string unit = series.value("unit", "");
    const auto rows = series.find("rows");
    if (rows == series.end() || !rows->is_array()) continue;
    for (const auto& row : *rows) {
      if (!row.is_array() || row.size() != 3) continue;
      out += csv_field(kind) + "," + csv_field(unit) + "," + csv_field(row[0]) + "," + csv_field(row[1]) + "," +
             csv_field(row[2]) + "\n";
    }
  }
  return out;
}

namespace {

namespace fs = std::filesystem;

fs::path folder_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

// An unnamed file in `dir` (O_TMPFILE): the kernel discards it if the process dies
// before it is linked. -1 with errno when the file system cannot make one.
int open_unnamed(const fs::path& dir) {
#ifdef O_TMPFILE
  return ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#else
  (void)dir;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

bool unnamed_unsupported(int error) { return error == EOPNOTSUPP || error == EISDIR || error == EINVAL; }

std::string temp_name(const fs::path& path) {
  std::random_device rd;
  return "." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
}

// The file a path writes to: a symbolic link is followed to its target (which may
// not exist yet), so that `-o link.json` writes through the link, as the shell's
// `>` does, instead of replacing the link with a regular file. At most 40 links
// (Linux's own bound, ELOOP); a longer chain is left as it is and the write then fails.
fs::path written_path(const fs::path& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(p, ec)) return p;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) return p;
    p = target.is_absolute() || !p.has_parent_path() ? target : p.parent_path() / target;
  }
  return p;
}

// The first ancestor folder of `dir` that exists ("" if none does), so that a
// missing folder is told apart from a path through a regular file.
fs::path existing_ancestor(const fs::path& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec);
  while (!p.empty()) {
    if (fs::exists(p, ec)) return p;
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  return {};
}

bool write_all(int fd, std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void write_file_atomically(const fs::path& given, std::string_view content) {
  const fs::path path = written_path(given);
  const fs::path dir = folder_of(path);
  const fs::path tmp = dir / temp_name(path);
  bool named = false;  // whether `tmp` exists and must be removed on failure
  int fd = -1;
  auto fail = [&](int error) {
    if (fd >= 0) ::close(fd);
    if (named) ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(error != 0 ? error : EIO));
  };
  fd = open_unnamed(dir);
  bool unnamed = fd >= 0;
  if (!unnamed && !unnamed_unsupported(errno)) fail(errno);
  if (unnamed) {
    if (!write_all(fd, content) || ::fsync(fd) != 0) fail(errno);
    // Give the complete file a name (linkat through /proc, as open(2) describes).
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      named = true;
    } else if (errno == ENOENT) {  // no /proc mounted: write a named file instead
      ::close(fd);
      fd = -1;
      unnamed = false;
    } else {
      fail(errno);
    }
  }
  if (!unnamed) {
    // A file system without O_TMPFILE, or no /proc: a named temporary file for the whole write.
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail(errno);
    named = true;
    if (!write_all(fd, content) || ::fsync(fd) != 0) fail(errno);
  }
  if (::close(fd) != 0) {
    fd = -1;
    fail(errno);
  }
  fd = -1;
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail(errno);
}

std::vector<std::string> check_output_files(const fs::path& input, const std::vector<OutputFile>& outputs) {
  std::vector<std::string> problems;
  // The file a path names, for comparisons: links, "." and ".." resolved.
  const auto same_file = [](const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    return fs::weakly_canonical(fs::absolute(a, ec), ec) == fs::weakly_canonical(fs::absolute(b, ec), ec);
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& o = outputs[i];
    const std::string name = o.path.string();
    std::error_code ec;
    if (!input.empty() && same_file(o.path, input)) {
      problems.push_back("cannot write " + name + " (" + o.what + "): it is the scenario file; choose another path");
      continue;
    }
    bool clash = false;
    for (std::size_t j = 0; j < i && !clash; ++j) {
      if (same_file(o.path, outputs[j].path)) {
        problems.push_back("cannot write " + name + " (" + o.what + "): " + outputs[j].what +
                           " writes the same file; give each output its own path");
        clash = true;
      }
    }
    if (clash) continue;
    if (fs::is_directory(o.path, ec)) {
      problems.push_back("cannot write " + name + " (" + o.what + "): it is a folder; give a file name");
      continue;
    }
    // Where the write goes: through a symbolic link, its target's folder.
    const fs::path dir = folder_of(written_path(o.path));
    if (!fs::is_directory(dir, ec)) {
      const fs::path found = existing_ancestor(dir);
      if (!found.empty() && !fs::is_directory(found, ec)) {
        problems.push_back("cannot write " + name + " (" + o.what + "): " + found.string() +
                           " is a file, not a folder; choose another output path");
      } else {
        problems.push_back("cannot write " + name + " (" + o.what + "): the folder " + dir.string() +
                           " does not exist; create it or choose another output path");
      }
      continue;
    }
    // Probe: the folder takes a new file now (permissions, a read-only file system).
    int fd = open_unnamed(dir);
    if (fd < 0 && unnamed_unsupported(errno)) {
      const fs::path probe = dir / temp_name(o.path);
      fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd >= 0) ::unlink(probe.c_str());
    }
    if (fd < 0) {
      problems.push_back("cannot write " + name + " (" + o.what + "): the folder " + dir.string() +
                         " does not take a new file (" +
                         std::strerror(errno) + ")");
      continue;
    }
    ::close(fd);
  }
  return problems;
}

void append_timeseries(Results& out, const std::string& kind, const std::string& unit, Time interval,
                       const std::vector<TimeSeries::Sample>& samples) {
  TimeSeries& ts = out.timeseries[kind];
  ts.unit = unit;
  ts.interval = interval;
  ts.samples.insert(ts.samples.end(), samples.begin(), samples.end());
}

}  // namespace wmnsim

#undef WMNSIM_VERSION  // not beyond this file (a unity build batches files)
#undef WMNSIM_BUILD_TYPE
