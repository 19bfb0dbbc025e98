// The hold model (Jones 1986, "An empirical comparison of priority-queue and
// event-set implementations"): with n events pending, repeatedly pop the earliest
// and schedule one at now + a random delay, so the pending count stays n.
// Reports events per second (median of several repetitions) for each n.
//
// The delay distribution is exponential with mean 1 ms (the classic hold model)
// unless --distribution picks another; an event set tuned to one distribution
// can degrade badly on another (calendar queues do), so all are worth a look:
//   exp       Exp(1 ms)
//   uniform   U(0, 2 ms)
//   bimodal   90 % U(0, 20 us) (MAC slots, SIFS, frames) and 10 % U(0, 200 ms)
//             (retransmission and application timers)
//
//   bench_scheduler [--quick] [--pending N] [--distribution exp|uniform|bimodal|all] [--json FILE]

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/scheduler.hpp"

namespace {
using wmnsim::RandomStream;
using wmnsim::Scheduler;
using wmnsim::Time;

enum class Distribution { exponential, uniform, bimodal };

const char* name(Distribution d) {
  switch (d) {
    case Distribution::exponential: return "exp";
    case Distribution::uniform: return "uniform";
    case Distribution::bimodal: return "bimodal";
  }
  return "?";
}

std::int64_t draw_ps(Distribution d, RandomStream& rng) {
  switch (d) {
    case Distribution::exponential: return static_cast<std::int64_t>(rng.exponential(1e9));  // mean 1 ms
    case Distribution::uniform: return static_cast<std::int64_t>(rng.uniform(0.0, 2e9));
    case Distribution::bimodal:
      return static_cast<std::int64_t>(rng.uniform01() < 0.9 ? rng.uniform(0.0, 2e7) : rng.uniform(0.0, 2e11));
  }
  return 0;
}

// Delays are drawn once into a table and cycled, so the benchmark times the
// event set, not the logarithm in the exponential sampler.
struct DelayTable {
  DelayTable(Distribution d, RandomStream& rng) : delays(1 << 16) {
    for (auto& x : delays) x = draw_ps(d, rng);
  }
  std::int64_t next() { return delays[next_index++ & (delays.size() - 1)]; }
  std::vector<std::int64_t> delays;
  std::size_t next_index = 0;
};

// Each event checks that it runs at the time it was scheduled for, so that the
// benchmark doubles as a test of the event set (ctest bench_scheduler_smoke).
struct Hold {
  Scheduler* scheduler;
  DelayTable* table;
  std::int64_t* remaining;  // < 0: draining, schedule nothing
  std::int64_t due;
  void operator()() const {
    if (scheduler->now().picoseconds() != due) {
      std::fprintf(stderr, "bench_scheduler: event due at %lld ps ran at %lld ps\n", static_cast<long long>(due),
                   static_cast<long long>(scheduler->now().picoseconds()));
      std::abort();
    }
    if (*remaining < 0) return;
    // Stop the loop after the requested count, but keep the pending count at n.
    if (--*remaining == 0) scheduler->stop();
    const std::int64_t delay = table->next();
    scheduler->schedule_in(Time::ps(delay), Hold{scheduler, table, remaining, due + delay});
  }
};

double events_per_second(Distribution d, std::size_t pending, std::int64_t events, std::uint64_t seed) {
  Scheduler s;
  RandomStream rng(seed);
  DelayTable table(d, rng);
  std::int64_t remaining = events / 10;  // warm-up: caches, slot pool
  for (std::size_t i = 0; i < pending; ++i) {
    const std::int64_t at = draw_ps(d, rng);
    s.schedule_at(Time::ps(at), Hold{&s, &table, &remaining, at});
  }
  s.run();
  remaining = events;
  const std::uint64_t before = s.executed();
  const auto t0 = std::chrono::steady_clock::now();
  s.run();
  const auto t1 = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(t1 - t0).count();
  const double rate = static_cast<double>(s.executed() - before) / seconds;
  // Drain: exactly the n events still pending must run (none lost or doubled).
  const std::uint64_t at_drain = s.executed();
  remaining = -1;
  s.run();
  if (s.executed() - at_drain != pending || s.pending() != 0) {
    std::fprintf(stderr, "bench_scheduler: %llu events ran while draining %zu pending\n",
                 static_cast<unsigned long long>(s.executed() - at_drain), pending);
    std::abort();
  }
  return rate;
}
}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string json_path;
  std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000};
  std::vector<Distribution> distributions{Distribution::exponential};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      json_path = argv[++i];
    } else if (std::strcmp(argv[i], "--pending") == 0 && i + 1 < argc) {
      sizes = {std::strtoull(argv[++i], nullptr, 10)};
    } else if (std::strcmp(argv[i], "--distribution") == 0 && i + 1 < argc) {
      const std::string d = argv[++i];
      if (d == "all") distributions = {Distribution::exponential, Distribution::uniform, Distribution::bimodal};
      else if (d == "exp") distributions = {Distribution::exponential};
      else if (d == "uniform") distributions = {Distribution::uniform};
      else if (d == "bimodal") distributions = {Distribution::bimodal};
      else {
        std::fprintf(stderr, "--distribution: expected exp, uniform, bimodal or all, got \"%s\"\n", d.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--pending N] [--distribution exp|uniform|bimodal|all] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  const int repetitions = quick ? 3 : 7;
  std::printf("hold model: pop the earliest event, schedule one at now + a random delay\n");
  std::printf("%-8s %10s %14s %14s %14s\n", "delays", "pending", "events", "median ev/s", "min..max Mev/s");
  std::string json = "{\"benchmark\": \"scheduler_hold\", \"results\": [";
  bool first = true;
  for (const Distribution d : distributions) {
    for (const std::size_t pending : sizes) {
      const std::int64_t events = static_cast<std::int64_t>(std::max<std::size_t>(quick ? 1'000'000 : 5'000'000, 5 * pending));
      std::vector<double> rates;
      for (int r = 0; r < repetitions; ++r) rates.push_back(events_per_second(d, pending, events, 1000 + static_cast<std::uint64_t>(r)));
      std::sort(rates.begin(), rates.end());
      const double median = rates[rates.size() / 2];
      std::printf("%-8s %10zu %14lld %14.3e %7.1f..%.1f\n", name(d), pending, static_cast<long long>(events), median,
                  rates.front() / 1e6, rates.back() / 1e6);
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "%s{\"distribution\": \"%s\", \"pending\": %zu, \"events\": %lld, \"median_events_per_s\": %.6g, "
                    "\"min_events_per_s\": %.6g, \"max_events_per_s\": %.6g}",
                    first ? "" : ", ", name(d), pending, static_cast<long long>(events), median, rates.front(), rates.back());
      json += buf;
      first = false;
    }
  }
  json += "]}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json;
  return 0;
}
