// The two readings of 004's renewal rule (control/congestion_notification_params.hpp:
// renewal_check_at, renewal_checks), at exact times on 004's Fig. 2 scenario
// (scenarios/fu2009/congestion_control_collision.json: B and C congest and notify
// each other). Sec. 3.1 checks the buffer "shortly before the last used congestion
// notification expiration timer expires"; Sec. 4.1 "after the expiration of the
// timer". Each run records the controllers' decisions (notify, blocked, duration)
// with the simulated time, and the checks below replay them:
//  - when: every increase of D happens exactly at the check time of an earlier
//    notification (lead before its expiry, at it, or lead after it);
//  - how often: one check per period for the last used notification (D grows at
//    most once per period), or one per notified neighbour (D can grow several
//    times per period);
//  - who is unblocked when: the renewal reaches a neighbour still blocked (before,
//    at expiry) or one whose block has lapsed (after expiry).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "control/congestion_notification_params.hpp"
#include "core/decision_observer.hpp"
#include "core/input_error.hpp"
#include "core/simulation.hpp"
#include "runner/network.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {

const std::filesystem::path kFolder = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios" / "fu2009";
const Time kLead = Time::ms(10);  // expiry_check_lead_s's default

struct Decision {
  Time at;
  ControllerDecision d;
};

class Recorder final : public DecisionObserver {
 public:
  explicit Recorder(const Simulation& sim) : sim_(sim) {}
  void on_route(std::uint32_t, std::uint32_t, std::uint32_t) override {}
  void on_controller(const ControllerDecision& d) override { decisions.push_back({sim_.now(), d}); }
  std::vector<Decision> decisions;

 private:
  const Simulation& sim_;
};

struct Recorded {
  std::vector<Decision> decisions;
  std::map<std::string, std::uint32_t> radio;  // node id -> its radio's address
};

// Fig. 2 under `scheme` with the two renewal keys, for `seconds`.
Recorded run(const std::string& scheme, const std::string& check_at, const std::string& checks, double seconds = 4.0,
        std::uint64_t seed = 1) {
  nlohmann::json doc = read_json_file(kFolder / "congestion_control_collision.json");
  doc["simulation"]["seed"] = seed;
  doc["simulation"]["duration_s"] = seconds;
  doc["controllers"] = {{{"type", scheme}, {"renewal_check_at", check_at}, {"renewal_checks", checks}}};
  const Scenario s = parse_scenario(doc);
  Simulation sim(s.simulation.seed, "renewal", spdlog::level::off);
  Network net(sim, s);
  Recorder rec(sim);
  net.observe_decisions(&rec);
  sim.run_until(s.simulation.duration);
  net.observe_decisions(nullptr);
  Recorded out;
  out.decisions = std::move(rec.decisions);
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    out.radio[s.nodes[i].id] = net.macs().node_macs.at(i).at(0)->address();
  }
  return out;
}

Time ps(std::int64_t v) { return Time::ps(v); }

// One radio's view: the notifications it sent and the times its D grew.
struct Sent {
  Time at;
  std::uint32_t peer;
  Time timer;
};
struct Increase {
  Time at;
  Time d;  // the new D
};
struct History {
  std::vector<Sent> sent;
  std::vector<Increase> increases;
};

History history_of(const Recorded& r, std::uint32_t radio) {
  History h;
  Time d = Time::ms(100);  // initial_duration_s
  for (const Decision& x : r.decisions) {
    if (x.d.radio != radio) continue;
    if (x.d.action == ControllerAction::notify) h.sent.push_back({x.at, x.d.peer_radio, ps(x.d.value)});
    if (x.d.action == ControllerAction::duration) {
      if (ps(x.d.value) > d) h.increases.push_back({x.at, ps(x.d.value)});
      d = ps(x.d.value);
    }
  }
  return h;
}

Time check_time(const std::string& check_at, const Sent& s) {
  if (check_at == "before_expiry") return s.at + s.timer - std::min(kLead, s.timer / 2);
  if (check_at == "at_expiry") return s.at + s.timer;
  return s.at + s.timer + kLead;
}

// The peers notified at exactly `t`.
std::set<std::uint32_t> notified_at(const History& h, Time t) {
  std::set<std::uint32_t> out;
  for (const Sent& s : h.sent) {
    if (s.at == t) out.insert(s.peer);
  }
  return out;
}

// The last notification to `peer` sent strictly before `t` (null: none).
const Sent* last_to(const History& h, std::uint32_t peer, Time t) {
  const Sent* last = nullptr;
  for (const Sent& s : h.sent) {
    if (s.peer == peer && s.at < t) last = &s;
  }
  return last;
}

// The last notification with a timer sent strictly before `t`.
const Sent* last_used(const History& h, Time t) {
  const Sent* last = nullptr;
  for (const Sent& s : h.sent) {
    if (s.at < t && s.timer > Time::zero()) last = &s;
  }
  return last;
}

// The blocks `receiver` got from `notifier`: (arrival, until).
std::vector<std::pair<Time, Time>> blocks(const Recorded& r, std::uint32_t receiver, std::uint32_t notifier) {
  std::vector<std::pair<Time, Time>> out;
  for (const Decision& x : r.decisions) {
    if (x.d.action == ControllerAction::blocked && x.d.radio == receiver && x.d.peer_radio == notifier) {
      out.emplace_back(x.at, ps(x.d.value));
    }
  }
  return out;
}

const char* const kCheckAts[] = {"before_expiry", "at_expiry", "after_expiry"};

TEST(MeshCongestionRenewal, EachIncreaseOfDIsAtACheckTimeAndRenewsTheCheckedNeighbours) {
  for (const char* scheme : {"lscc", "tcc"}) {
    for (const char* check_at : kCheckAts) {
      for (const char* checks : {"per_neighbour", "last_used"}) {
        SCOPED_TRACE(std::string(scheme) + " " + check_at + " " + checks);
        const Recorded r = run(scheme, check_at, checks);
        std::size_t increases = 0;
        for (const char* station : {"B", "C"}) {
          SCOPED_TRACE(station);
          const History h = history_of(r, r.radio.at(station));
          increases += h.increases.size();
          for (const Increase& inc : h.increases) {
            SCOPED_TRACE(inc.at.to_seconds());
            // A renewal goes out with the new D at the instant D grows.
            const std::set<std::uint32_t> renewed = notified_at(h, inc.at);
            ASSERT_FALSE(renewed.empty());
            if (std::string(checks) == "per_neighbour") {
              // Each renewed neighbour's last notification is checked now, on its own
              // timer, and no other neighbour's is.
              for (const std::uint32_t peer : renewed) {
                const Sent* last = last_to(h, peer, inc.at);
                ASSERT_NE(last, nullptr);
                EXPECT_EQ(check_time(check_at, *last), inc.at);
              }
              for (const Sent& s : h.sent) {
                if (s.at >= inc.at || s.timer == Time::zero() || last_to(h, s.peer, inc.at) != &s) continue;
                if (check_time(check_at, s) == inc.at) {
                  EXPECT_TRUE(renewed.count(s.peer)) << s.peer;
                }
              }
            } else {
              // Only the last used notification's check runs (004 Sec. 3.1), and its
              // renewal reaches its neighbour and every one whose timer still runs.
              const Sent* last = last_used(h, inc.at);
              ASSERT_NE(last, nullptr);
              EXPECT_EQ(check_time(check_at, *last), inc.at);
              EXPECT_TRUE(renewed.count(last->peer));
              for (const Sent& s : h.sent) {
                if (s.at < inc.at && last_to(h, s.peer, inc.at) == &s && s.timer > Time::zero() &&
                    s.at + s.timer > inc.at) {
                  EXPECT_TRUE(renewed.count(s.peer)) << s.peer;
                }
              }
            }
          }
        }
        // The collision keeps both buffers full: the checks find them so and renew.
        EXPECT_GT(increases, 4u);
      }
    }
  }
}

TEST(MeshCongestionRenewal, LastUsedGrowsDAtMostOncePerPeriodPerNeighbourMoreOften) {
  // B notifies its tree neighbours (A, C, E2) at different instants (congestion,
  // then look-ahead): with a check per neighbour D grows at each of their checks,
  // several times within one period of D; with one check for the last used
  // notification, at most once per period.
  for (const char* check_at : kCheckAts) {
    SCOPED_TRACE(check_at);
    std::size_t within_a_period = 0;
    for (const char* checks : {"per_neighbour", "last_used"}) {
      SCOPED_TRACE(checks);
      const Recorded r = run("lscc", check_at, checks);
      std::size_t here = 0;
      for (const char* station : {"B", "C"}) {
        const History h = history_of(r, r.radio.at(station));
        for (std::size_t i = 1; i < h.increases.size(); ++i) {
          // The previous increase renewed with D = increases[i-1].d; its check is the
          // earliest the next one may come under last_used.
          const Sent renewal{h.increases[i - 1].at, 0, h.increases[i - 1].d};
          if (h.increases[i].at < check_time(check_at, renewal)) ++here;
        }
      }
      if (std::string(checks) == "last_used") {
        EXPECT_EQ(here, 0u);
      } else {
        within_a_period = here;
      }
    }
    EXPECT_GT(within_a_period, 0u);
  }
}

TEST(MeshCongestionRenewal, AfterExpiryUnblocksTheNeighboursBeforeTheRenewal) {
  // Before or at expiry a renewal is sent while the neighbour's block still stands
  // (its block ends when the first notification's timer, started at its arrival,
  // runs out); after expiry (Sec. 4.1) the block has lapsed when the renewal is
  // sent, whenever the notification it renews arrived within the lag, so a
  // mutually blocked pair may drain in between.
  for (const char* check_at : kCheckAts) {
    SCOPED_TRACE(check_at);
    const Recorded r = run("lscc", check_at, "per_neighbour");
    std::size_t renewals = 0, unblocked = 0;
    for (const auto& [notifier, receiver] : {std::pair{"B", "C"}, std::pair{"C", "B"}}) {
      const History h = history_of(r, r.radio.at(notifier));
      const auto got = blocks(r, r.radio.at(receiver), r.radio.at(notifier));
      for (const Increase& inc : h.increases) {
        if (!notified_at(h, inc.at).count(r.radio.at(receiver))) continue;
        const Sent* renewed = last_to(h, r.radio.at(receiver), inc.at);
        ASSERT_NE(renewed, nullptr);
        // The block the renewed notification set up at the receiver.
        const auto arrival = std::find_if(got.begin(), got.end(), [&](const auto& b) { return b.first >= renewed->at; });
        if (arrival == got.end() || arrival->first >= inc.at) continue;  // lost or late: not the case examined
        ++renewals;
        const Time delay = arrival->first - renewed->at;
        EXPECT_EQ(arrival->second, arrival->first + renewed->timer);
        const bool lapsed = arrival->second <= inc.at;
        if (lapsed) ++unblocked;
        if (std::string(check_at) == "after_expiry") {
          if (delay < kLead) {
            EXPECT_TRUE(lapsed) << "sent " << inc.at.to_seconds();
          }
        } else {
          EXPECT_FALSE(lapsed) << "sent " << inc.at.to_seconds();
        }
      }
    }
    EXPECT_GT(renewals, 2u);
    if (std::string(check_at) == "after_expiry") {
      EXPECT_GT(unblocked, 0u);
    }
  }
}

TEST(MeshCongestionRenewal, AfterExpiryLeavesTheLagToTheCheck) {
  // In the lag between a notification's expiry and its check the neighbour is
  // unblocked, but the station does not notify it anew for congestion: the check
  // decides. The next notification to a neighbour comes at the check or later,
  // unless a timer-0 notification lifted the block before its expiry.
  const Recorded r = run("lscc", "after_expiry", "per_neighbour");
  std::size_t examined = 0;
  for (const char* station : {"B", "C"}) {
    const History h = history_of(r, r.radio.at(station));
    for (std::size_t i = 0; i < h.sent.size(); ++i) {
      const Sent& s = h.sent[i];
      if (s.timer == Time::zero()) continue;
      for (std::size_t j = i + 1; j < h.sent.size(); ++j) {
        if (h.sent[j].peer != s.peer) continue;
        ++examined;
        if (h.sent[j].timer == Time::zero()) {
          EXPECT_LT(h.sent[j].at, s.at + s.timer);
        } else {
          EXPECT_GE(h.sent[j].at, check_time("after_expiry", s));
        }
        break;
      }
    }
  }
  EXPECT_GT(examined, 10u);
}

TEST(MeshCongestionRenewal, TheDefaultsAreTheEarlierBehaviour) {
  // Without the keys: before expiry, per neighbour (the readings wmnsim used before
  // the keys existed; every stored fingerprint and reference keeps them).
  nlohmann::json doc = read_json_file(kFolder / "congestion_control_collision.json");
  doc["simulation"]["duration_s"] = 2.0;
  doc["controllers"] = {{{"type", "lscc"}}};
  const Scenario s = parse_scenario(doc);
  const auto& p = s.controllers.at(0).params_as<CongestionNotificationParams>();
  EXPECT_EQ(p.renewal_check_at, RenewalCheckAt::before_expiry);
  EXPECT_EQ(p.renewal_checks, RenewalChecks::per_neighbour);
}

TEST(MeshCongestionRenewal, AnUnknownReadingIsRefusedAtItsPath) {
  nlohmann::json doc = read_json_file(kFolder / "congestion_control_collision.json");
  for (const auto& [key, value] : {std::pair{"renewal_check_at", "shortly_before"}, std::pair{"renewal_checks", "each"}}) {
    SCOPED_TRACE(key);
    doc["controllers"] = {{{"type", "tcc"}, {key, value}}};
    try {
      (void)parse_scenario(doc);
      ADD_FAILURE() << "accepted";
    } catch (const ScenarioError& e) {
      const auto at = [&](const ValidationIssue& i) { return i.path == std::string("/controllers/0/") + key; };
      EXPECT_TRUE(std::any_of(e.issues().begin(), e.issues().end(), at)) << e.what();
    }
  }
}

}  // namespace
}  // namespace wmnsim
