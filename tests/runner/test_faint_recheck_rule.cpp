// Issue 43 §5, docs/performance.md "Sensed-only signals": since e151b56 an ambiguous
// radio re-assesses its energy detection only at the first faint start or end that
// would change it (Radio::first_faint_flip), not at every one. The re-assessment
// that does change it is then scheduled at another moment, so it takes another
// sequence number. These runs keep the former rule behind a test hook
// (phy::test_hooks::set_faint_recheck_at_every_edge) and compare, in order, every
// callback every MAC gets, with its time and arguments, and the results.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "phy/radio.hpp"
#include "runner/run_scenario.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// One callback as the MAC got it; doubles as their bits, so equal means identical.
struct Callback {
  enum Kind : std::uint8_t { cca_busy, cca_idle, tx_start, tx_end, rx_start, rx_end, rx_ignored } kind;
  std::int64_t at_ps = 0;
  phy::RadioId radio = 0;
  std::uint8_t outcome = 0;
  std::uint32_t psdu_bytes = 0;
  std::int64_t duration_ps = 0;
  std::uint64_t power_bits = 0, min_sinr_bits = 0;
  std::int64_t first_bit_ps = 0;
  bool operator==(const Callback&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Callback& c) {
  return os << "radio " << c.radio << " kind " << int(c.kind) << " at " << c.at_ps << " ps, outcome "
            << int(c.outcome) << ", " << c.psdu_bytes << " bytes, " << c.duration_ps << " ps";
}

// Records every callback of every radio in the order they happen, and forwards it.
class CallbackLog : public phy::test_hooks::ListenerTap {
 public:
  phy::PhyListener* wrap(phy::RadioId radio, const Scheduler& scheduler, phy::PhyListener* mac) override {
    return &taps_.emplace_back(std::make_unique<Tap>(*this, radio, scheduler, *mac))->self();
  }
  std::vector<Callback> callbacks;

 private:
  class Tap : public phy::PhyListener {
   public:
    Tap(CallbackLog& log, phy::RadioId radio, const Scheduler& scheduler, phy::PhyListener& mac)
        : log_(log), radio_(radio), scheduler_(scheduler), mac_(mac) {}
    PhyListener& self() { return *this; }
    void on_cca_busy() override { note(Callback::cca_busy), mac_.on_cca_busy(); }
    void on_cca_idle() override { note(Callback::cca_idle), mac_.on_cca_idle(); }
    void on_tx_start(const phy::PhyFrame& f) override { note(Callback::tx_start, &f), mac_.on_tx_start(f); }
    void on_tx_end() override { note(Callback::tx_end), mac_.on_tx_end(); }
    void on_rx_start(const phy::PhyFrame& f) override { note(Callback::rx_start, &f), mac_.on_rx_start(f); }
    bool wants_min_sinr() const override { return mac_.wants_min_sinr(); }
    void on_rx_end(const phy::PhyFrame& f, phy::RxOutcome o, const phy::RxInfo& info) override {
      Callback& c = note(Callback::rx_end, &f);
      c.outcome = static_cast<std::uint8_t>(o);
      c.power_bits = std::bit_cast<std::uint64_t>(info.power.mw());
      c.min_sinr_bits = std::bit_cast<std::uint64_t>(info.min_sinr);
      c.first_bit_ps = info.start.picoseconds();
      mac_.on_rx_end(f, o, info);
    }
    void on_rx_ignored(const phy::PhyFrame& f) override { note(Callback::rx_ignored, &f), mac_.on_rx_ignored(f); }

   private:
    Callback& note(Callback::Kind kind, const phy::PhyFrame* f = nullptr) {
      Callback& c = log_.callbacks.emplace_back(Callback{kind, scheduler_.now().picoseconds(), radio_});
      if (f != nullptr) c.psdu_bytes = f->psdu_bytes, c.duration_ps = f->duration.picoseconds();
      return c;
    }
    CallbackLog& log_;
    phy::RadioId radio_;
    const Scheduler& scheduler_;
    phy::PhyListener& mac_;
  };
  std::vector<std::unique_ptr<Tap>> taps_;
};

struct Run {
  std::vector<Callback> callbacks;
  nlohmann::ordered_json results;  // but the events executed and the event fingerprint
  std::uint64_t events = 0;
};

// One run under the rule of e151b56 (former false) or the one before it.
Run run_under(const nlohmann::json& doc, bool former) {
  CallbackLog log;
  phy::test_hooks::set_listener_tap(&log);
  phy::test_hooks::set_faint_recheck_at_every_edge(former);
  struct Reset {
    ~Reset() {
      phy::test_hooks::set_listener_tap(nullptr);
      phy::test_hooks::set_faint_recheck_at_every_edge(false);
    }
  } reset;
  const Results r = run_scenario(parse_scenario(doc));
  Run out{std::move(log.callbacks), r.to_json(), r.stats.events_executed};
  for (const char* key : {"wall_clock", "wmnsim"}) out.results.erase(key);
  out.results["run"].erase("events_executed");
  out.results["run"].erase("event_fingerprint");
  return out;
}

// Each radio's callbacks, in the order its MAC got them.
std::vector<std::vector<Callback>> by_radio(const std::vector<Callback>& all) {
  std::vector<std::vector<Callback>> out;
  for (const Callback& c : all) {
    if (c.radio >= out.size()) out.resize(c.radio + 1);
    out[c.radio].push_back(c);
  }
  return out;
}

// Both rules: every MAC gets the same callbacks in the same order, and the results
// are the same; the former rule only runs more events (when some radio is
// ambiguous). Callbacks of different radios at one picosecond may come in another
// order: in these single-radio scenarios they go to the MACs of different nodes,
// which meet only through the medium, a propagation delay later, and draw from
// their own random streams (radios of one node share its queues at once: not
// covered here).
void expect_same_under_both_rules(const nlohmann::json& doc, const std::string& what, bool ambiguous = true) {
  const Run now = run_under(doc, false), former = run_under(doc, true);
  const auto mine = by_radio(now.callbacks), theirs = by_radio(former.callbacks);
  ASSERT_EQ(mine.size(), theirs.size()) << what;
  int radios_apart = 0;
  for (std::size_t r = 0; r < mine.size() && radios_apart < 5; ++r) {  // the first five that differ
    const std::size_t n = std::min(mine[r].size(), theirs[r].size());
    std::size_t i = 0;
    while (i < n && mine[r][i] == theirs[r][i]) ++i;
    if (i < n) {
      ADD_FAILURE() << what << ": callback " << i << " of radio " << r << " differs: " << mine[r][i] << " now, "
                    << theirs[r][i] << " under the former rule";
    }
    EXPECT_EQ(mine[r].size(), theirs[r].size()) << what << ", radio " << r;
    radios_apart += mine[r] != theirs[r];
  }
  EXPECT_EQ(now.results.dump(), former.results.dump()) << what;
  if (ambiguous) EXPECT_LT(now.events, former.events) << what;  // the switch switched something
  else EXPECT_EQ(now.events, former.events) << what;
  std::size_t cca = 0;
  for (const Callback& c : now.callbacks) cca += c.kind == Callback::cca_busy || c.kind == Callback::cca_idle;
  EXPECT_GT(cca, 10000u) << what;
}

nlohmann::json shipped(const char* file, double seconds) {
  nlohmann::json doc = read_json_file(std::filesystem::path(WMNSIM_SOURCE_DIR) / file);
  doc["simulation"]["duration_s"] = seconds;
  doc["simulation"]["warmup_s"] = 0;
  doc.erase("outputs");
  return doc;
}

TEST(FaintRecheckRule, TheSensingChainGivesEveryMacTheSameCallbacksUnderBothRules) {
  // Radios 400 and 500 m away only sense each other: each such signal alone tips
  // the energy detection, the case e151b56 was for.
  // Whole, with both fingerprinted seeds (tests/fingerprints).
  for (const int seed : {1, 2}) {
    nlohmann::json doc = shipped("scenarios/bench/chain100_sinr_cs550.json", 31);
    doc["simulation"]["seed"] = seed;
    expect_same_under_both_rules(doc, "chain100_sinr_cs550, seed " + std::to_string(seed));
  }
}

TEST(FaintRecheckRule, TheMeshGivesEveryMacTheSameCallbacksUnderBothRules) {
  // 004's mesh (60 % of deliveries faint), with the CCA threshold low enough
  // (-90 dBm) that faint signals often tip it, as in PhyMedium's variant 1.
  nlohmann::json doc = shipped("scenarios/fu2009/mesh40_4gw.json", 3);
  expect_same_under_both_rules(doc, "mesh40_4gw", false);  // in 3 s no radio is ambiguous: the same events
  doc["phy"]["reception"]["cs_threshold_dbm"] = -90.0;
  expect_same_under_both_rules(doc, "mesh40_4gw, CCA at -90 dBm");
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
