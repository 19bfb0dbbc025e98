#pragma once
// What the layers log (frames, backoffs, drops, controller actions) and the cheap
// test that decides, before anything is formatted, whether a line is wanted.
//
// Every layer reaches it through its Scheduler (Scheduler::log()), as it reaches
// the fingerprint, so no constructor had to change. A line carries the simulated
// time and event context (the Simulation's logger pattern) and the node it is
// about, by scenario id: "[debug] [flagship 0.001250000s #3] n3 mac: DATA sent ...".
//
// Cost when off: WMNSIM_LOG tests one cached level (a load and a compare) and, only
// when the level passes, the node filter; the arguments are not evaluated and no
// format string is parsed. The level is cached here rather than asked of spdlog
// (whose should_log reads an atomic) so the test stays a plain load on the event
// path.

#include <spdlog/logger.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wmnsim {

class SimLog {
 public:
  using Level = spdlog::level::level_enum;

  // Lines at `level` and above go to `logger`; nullptr or level off: nothing.
  void configure(spdlog::logger* logger, Level level) {
    logger_ = logger;
    level_ = logger == nullptr ? spdlog::level::off : level;
  }
  // Names the nodes (by index) and radios (by radio id, the MAC address) in lines.
  void set_node_labels(std::vector<std::string> nodes) { node_labels_ = std::move(nodes); }
  void set_radio_labels(std::vector<std::string> radios) { radio_labels_ = std::move(radios); }
  // Only lines about these node indices; an empty list: every node.
  void set_node_filter(const std::vector<std::uint32_t>& nodes) {
    node_enabled_.clear();
    for (std::uint32_t n : nodes) {
      if (n >= node_enabled_.size()) node_enabled_.resize(n + 1, false);
      node_enabled_[n] = true;
    }
    filtered_ = !nodes.empty();
  }

  Level level() const { return level_; }
  // The level test alone: what WMNSIM_LOG checks before anything else.
  bool level_on(Level level) const { return level >= level_; }  // off is above every line's level
  bool node_on(std::uint32_t node) const {
    return !filtered_ || (node < node_enabled_.size() && node_enabled_[node]);
  }
  bool enabled(Level level, std::uint32_t node) const { return level_on(level) && node_on(node); }

  std::string node_label(std::uint32_t node) const {
    return node < node_labels_.size() ? node_labels_[node] : "node" + std::to_string(node);
  }
  std::string radio_label(std::uint32_t radio) const {
    return radio < radio_labels_.size() ? radio_labels_[radio] : "radio" + std::to_string(radio);
  }

  // Formats and writes one line about `node`; call through WMNSIM_LOG. The
  // format string is checked at compile time; the formatting itself is vwrite's,
  // compiled once (sim_log.cpp), not instantiated at every log site.
  template <typename... Args>
  void write(Level level, std::uint32_t node, fmt::format_string<Args...> format, Args&&... args) const {
    vwrite(level, node, format, fmt::make_format_args(args...));
  }
  void vwrite(Level level, std::uint32_t node, fmt::string_view format, fmt::format_args args) const;

 private:
  spdlog::logger* logger_ = nullptr;
  Level level_ = spdlog::level::off;
  bool filtered_ = false;
  std::vector<bool> node_enabled_;
  std::vector<std::string> node_labels_;
  std::vector<std::string> radio_labels_;
};

}  // namespace wmnsim

// Logs a line about `node` at `level` (spdlog::level::debug, trace) if wanted; the
// arguments are evaluated only then. `log` is a SimLog (e.g. scheduler_.log()).
// The formatting (and the arguments' temporaries) sit in a cold lambda that is
// never inlined, so that a log site adds a test and a call to its function, not
// the formatting code, which would change what the compiler inlines on the event
// path.
#define WMNSIM_LOG(log, level, node, ...)                                         \
  do {                                                                            \
    const ::wmnsim::SimLog& wmnsim_log_ = (log);                                  \
    if (wmnsim_log_.level_on(level) && wmnsim_log_.node_on(node)) [[unlikely]] {   \
      [&]() __attribute__((cold, noinline)) { wmnsim_log_.write(level, node, __VA_ARGS__); }(); \
    }                                                                             \
  } while (false)
