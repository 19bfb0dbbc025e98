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
//    at expiry) or one whose block has lapsed (after expiry), and that neighbour's
//    data gets through in the lag;
//  - the "too long" rule under each reading (D decreases while a neighbour is under
//    control; the timer-0 frame reaches those whose timer runs), and a check due
//    at the very instant another notification is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "control/congestion_notification_params.hpp"
#include "control/mesh_congestion_control.hpp"
#include "core/decision_observer.hpp"
#include "core/input_error.hpp"
#include "core/node_signals.hpp"
#include "core/simulation.hpp"
#include "runner/network.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

const std::filesystem::path kFolder = std::filesystem::path(WMNSIM_SOURCE_DIR) / "scenarios" / "fu2009";
const Time kLead = Time::ms(10);  // expiry_check_lead_s's default

struct Decision {
  Time at;
  ControllerDecision d;
};

class Recorder final : public DecisionObserver {
 public:
  explicit Recorder(const Simulation& sim) : sim_(sim) {}
  void on_route(std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t) override {}
  void on_controller(const ControllerDecision& d) override {
    decisions.push_back({sim_.now(), d});
    if (also) also(d);
  }
  std::vector<Decision> decisions;
  std::function<void(const ControllerDecision&)> also;  // told of each decision too

 private:
  const Simulation& sim_;
};

struct Recorded {
  std::vector<Decision> decisions;
  std::map<std::string, std::uint32_t> radio;  // node id -> its radio's address
};

// The controller of a run (the scenario's first).
const control::MeshCongestionControl& controller_of(const Network& net) {
  return dynamic_cast<const control::MeshCongestionControl&>(net.controller(0));
}

std::size_t node_index(const Network& net, const std::string& id) {
  const auto& nodes = net.scenario().nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].id == id) return i;
  }
  throw std::runtime_error("no node " + id);
}
std::uint32_t radio_of_node(const Network& net, const std::string& id) {
  return net.macs().node_macs.at(node_index(net, id), 0)->address();
}

// The controller's state of `radio` (tests reach into it only to stage an instant).
control::MeshCongestionControl::RadioState& state_of(const Network& net, std::uint32_t radio) {
  for (const auto& s : controller_of(net).radios()) {
    if (s->mac->address() == radio) return *s;
  }
  throw std::runtime_error("no controlled radio " + std::to_string(radio));
}

// The share of the radio's buffer held now.
double held_share(const control::MeshCongestionControl::RadioState& s) {
  std::int64_t held = 0, cap = 0;
  for (const link::MeshBuffer* b : s.buffers) {
    held += b->length_bytes();
    cap += b->params().capacity_bytes;
  }
  return static_cast<double>(held) / static_cast<double>(cap);
}

// When a node receives data from the radio `from` (to forward or to deliver).
class Arrivals final : public NodeSubscriber {
 public:
  Arrivals(const Simulation& sim, std::uint32_t from) : sim_(sim), from_(from) {}
  void on_forwarded(std::uint32_t, Packet&, const PrevHop& prev, const NextHop&) override { note(prev); }
  void on_delivered(std::uint32_t, Packet&, const PrevHop& prev) override { note(prev); }
  std::vector<Time> at;

 private:
  void note(const PrevHop& prev) {
    if (prev.address == from_) at.push_back(sim_.now());
  }
  const Simulation& sim_;
  std::uint32_t from_;
};

// `file` (Fig. 2 by default) under a controller with `keys` (its "type" among them),
// for `seconds`. `before` runs once the network is built, before the first event:
// it may schedule events, subscribe to nodes and hook the recorder.
Recorded run_with(const nlohmann::json& keys, double seconds = 4.0, std::uint64_t seed = 1,
                  const std::string& file = "congestion_control_collision.json",
                  const std::function<void(Simulation&, Network&, Recorder&)>& before = nullptr) {
  nlohmann::json doc = read_json_file(kFolder / file);
  doc["simulation"]["seed"] = seed;
  doc["simulation"]["duration_s"] = seconds;
  doc["controllers"] = {keys};
  const Scenario s = parse_scenario(doc);
  Simulation sim(s.simulation.seed, "renewal", spdlog::level::off);
  Network net(sim, s);
  Recorder rec(sim);
  net.observe_decisions(&rec);
  if (before) before(sim, net, rec);
  sim.run_until(s.simulation.duration);
  net.observe_decisions(nullptr);
  Recorded out;
  out.decisions = std::move(rec.decisions);
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    out.radio[s.nodes[i].id] = net.macs().node_macs.at(i, 0)->address();
  }
  return out;
}

// Fig. 2 under `scheme` with the two renewal keys, for `seconds`.
Recorded run(const std::string& scheme, const std::string& check_at, const std::string& checks, double seconds = 4.0,
             std::uint64_t seed = 1) {
  return run_with({{"type", scheme}, {"renewal_check_at", check_at}, {"renewal_checks", checks}}, seconds, seed);
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
  std::vector<Increase> decreases;
};

History history_of(const Recorded& r, std::uint32_t radio) {
  History h;
  Time d = Time::ms(100);  // initial_duration_s
  for (const Decision& x : r.decisions) {
    if (x.d.radio != radio) continue;
    if (x.d.action == ControllerAction::notify) h.sent.push_back({x.at, x.d.peer_radio, ps(x.d.value)});
    if (x.d.action == ControllerAction::duration) {
      if (ps(x.d.value) > d) h.increases.push_back({x.at, ps(x.d.value)});
      if (ps(x.d.value) < d) h.decreases.push_back({x.at, ps(x.d.value)});
      d = ps(x.d.value);
    }
  }
  return h;
}

Time check_time(const std::string& check_at, const Sent& s, Time lead = kLead) {
  if (check_at == "before_expiry") return s.at + s.timer - std::min(lead, s.timer / 2);
  if (check_at == "at_expiry") return s.at + s.timer;
  return s.at + s.timer + lead;
}

// The peers sent a timer-0 notification (a lift) at exactly `t`.
std::set<std::uint32_t> lifted_at(const History& h, Time t) {
  std::set<std::uint32_t> out;
  for (const Sent& s : h.sent) {
    if (s.at == t && s.timer == Time::zero()) out.insert(s.peer);
  }
  return out;
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

TEST(MeshCongestionRenewal, AfterExpiryLetsTheBlockedNeighbourSendBeforeTheRenewal) {
  // Before or at expiry a renewal is sent while the neighbour's block still stands
  // (its block ends when the notification's timer, started at its arrival, runs
  // out), so the neighbour never gets to send in between; after expiry (Sec. 4.1)
  // the block has lapsed when the renewal is sent, and in that lag the neighbour's
  // data reaches the notifier: a mutually blocked pair may drain in between. On
  // Fig. 2, C forwards flow 1 to B and B flow 2 to C.
  for (const char* check_at : kCheckAts) {
    SCOPED_TRACE(check_at);
    std::map<std::string, Arrivals> heard;  // notifier -> the data it receives from the other
    const Recorded r = run_with({{"type", "lscc"}, {"renewal_check_at", check_at}, {"renewal_checks", "per_neighbour"}},
                                4.0, 1, "congestion_control_collision.json",
                                [&](Simulation& sim, Network& net, Recorder&) {
                                  for (const auto& [notifier, other] : {std::pair{"B", "C"}, std::pair{"C", "B"}}) {
                                    auto [it, added] = heard.try_emplace(notifier, sim, radio_of_node(net, other));
                                    net.node(node_index(net, notifier)).subscribe(it->second);
                                  }
                                });
    std::size_t renewals = 0, lapsed = 0, sent_in_lag = 0;
    for (const auto& [notifier, receiver] : {std::pair{"B", "C"}, std::pair{"C", "B"}}) {
      const History h = history_of(r, r.radio.at(notifier));
      const auto got = blocks(r, r.radio.at(receiver), r.radio.at(notifier));
      for (const Increase& inc : h.increases) {
        if (!notified_at(h, inc.at).count(r.radio.at(receiver))) continue;
        const Sent* renewed = last_to(h, r.radio.at(receiver), inc.at);
        ASSERT_NE(renewed, nullptr);
        // The block the renewed notification set up at the receiver, and the renewal's.
        const auto block = std::find_if(got.begin(), got.end(), [&](const auto& b) { return b.first >= renewed->at; });
        const auto next = std::find_if(got.begin(), got.end(), [&](const auto& b) { return b.first >= inc.at; });
        if (block == got.end() || block->first >= inc.at || next == got.end()) continue;  // lost or late
        ++renewals;
        if (block->second > inc.at) continue;  // the block stood when the renewal was sent
        ++lapsed;
        const std::vector<Time>& at = heard.at(notifier).at;
        sent_in_lag += static_cast<std::size_t>(std::count_if(
            at.begin(), at.end(), [&](Time t) { return t >= block->second && t < next->first; }));
      }
    }
    EXPECT_GT(renewals, 2u);
    if (std::string(check_at) == "after_expiry") {
      EXPECT_GT(lapsed, renewals / 2);
      EXPECT_GT(sent_in_lag, 0u);
    } else {
      EXPECT_EQ(lapsed, 0u);
    }
  }
}

TEST(MeshCongestionRenewal, AfterExpiryLeavesTheLagToTheCheckUnlessTheTooLongRuleEndsThePeriod) {
  // In the lag between a notification's expiry and its check the neighbour is
  // unblocked, but it is still under control (the period lasts until the check), so
  // the station does not notify it anew for congestion or look-ahead: the check
  // decides. Only Sec. 3.1's "too long" rule ends the period sooner: D decreases, the
  // pending checks are dropped, and a timer-0 frame lifts the blocks whose timers
  // still run. So the next notification to a neighbour after one with a timer is
  //  - a lift (timer 0): before that timer expires, at an instant D decreases;
  //  - one with a timer: at the check or later, or sooner only after a decrease of D
  //    that came after the notification and before the check (the dropped check).
  // On Fig. 2 (B and C, whose buffers never drain: every period runs to its check)
  // and on the waste-of-bandwidth relay R with a 200-ms lag (its buffer drains often,
  // also in the lag, and R congests again before the dropped check's time; with a
  // 50-ms lag it never does so within 10 s).
  struct Case {
    const char* file;
    std::vector<const char*> stations;
    double lead_s;
    double seconds;
  };
  for (const Case& c : {Case{"congestion_control_collision.json", {"B", "C"}, 0.01, 4.0},
                        Case{"waste_of_bandwidth.json", {"R"}, 0.2, 10.0}}) {
    SCOPED_TRACE(c.file);
    const Time lead = Time::from_seconds(c.lead_s);
    const Recorded r = run_with({{"type", "lscc"}, {"renewal_check_at", "after_expiry"}, {"expiry_check_lead_s", c.lead_s}},
                                c.seconds, 1, c.file);
    std::size_t examined = 0, lifted = 0, dropped = 0;
    for (const char* station : c.stations) {
      SCOPED_TRACE(station);
      const History h = history_of(r, r.radio.at(station));
      const auto decreased_at = [&](Time t) {
        return std::any_of(h.decreases.begin(), h.decreases.end(), [&](const Increase& x) { return x.at == t; });
      };
      const auto decreased_in = [&](Time after, Time until) {  // (after, until]
        return std::any_of(h.decreases.begin(), h.decreases.end(),
                           [&](const Increase& x) { return x.at > after && x.at <= until; });
      };
      for (std::size_t i = 0; i < h.sent.size(); ++i) {
        const Sent& s = h.sent[i];
        if (s.timer == Time::zero()) continue;
        const auto next = std::find_if(h.sent.begin() + static_cast<std::ptrdiff_t>(i) + 1, h.sent.end(),
                                       [&](const Sent& x) { return x.peer == s.peer; });
        if (next == h.sent.end()) continue;
        SCOPED_TRACE(next->at.to_seconds());
        ++examined;
        const Time check = check_time("after_expiry", s, lead);
        if (next->timer == Time::zero()) {
          ++lifted;
          EXPECT_LT(next->at, s.at + s.timer);
          EXPECT_TRUE(decreased_at(next->at));
        } else if (next->at < check) {
          ++dropped;
          EXPECT_TRUE(decreased_in(s.at, next->at));
        }
      }
    }
    EXPECT_GT(examined, 10u);
    if (std::string(c.file) == "waste_of_bandwidth.json") {
      // Both exceptions happen on R: the rule is tested where it matters.
      EXPECT_GT(lifted, 0u);
      EXPECT_GT(dropped, 0u);
    }
  }
}

TEST(MeshCongestionRenewal, WithoutTheKeysTheCheckRunsBeforeExpiryPerNeighbour) {
  // Without the keys a run is the run of "before_expiry" with "per_neighbour" (the
  // readings wmnsim used before the keys existed; every stored fingerprint and
  // reference keeps them), decision for decision, and the run of each other reading
  // differs from it.
  const auto same = [](const Recorded& a, const Recorded& b) {
    if (a.decisions.size() != b.decisions.size()) return false;
    for (std::size_t i = 0; i < a.decisions.size(); ++i) {
      const ControllerDecision& x = a.decisions[i].d;
      const ControllerDecision& y = b.decisions[i].d;
      if (a.decisions[i].at != b.decisions[i].at || x.action != y.action || x.radio != y.radio ||
          x.peer_radio != y.peer_radio || x.value != y.value) {
        return false;
      }
    }
    return true;
  };
  for (const char* scheme : {"lscc", "tcc"}) {
    SCOPED_TRACE(scheme);
    const Recorded plain = run_with({{"type", scheme}});
    EXPECT_GT(plain.decisions.size(), 20u);
    for (const char* check_at : kCheckAts) {
      for (const char* checks : {"per_neighbour", "last_used"}) {
        SCOPED_TRACE(std::string(check_at) + " " + checks);
        const bool before = std::string(check_at) == "before_expiry";
        const bool per_neighbour = std::string(checks) == "per_neighbour";
        if (before && !per_neighbour && std::string(scheme) == "tcc") {
          // TCC notifies all its tree neighbours at once (004 Sec. 3.2): the last used
          // notification's check is every neighbour's, so the two counts agree here.
          EXPECT_TRUE(same(plain, run(scheme, check_at, checks)));
          continue;
        }
        EXPECT_EQ(same(plain, run(scheme, check_at, checks)), before && per_neighbour);
      }
    }
  }
}

TEST(MeshCongestionRenewal, ACheckDueAtTheInstantOfAnotherNotificationRunsThen) {
  // A notification sent at the very instant a check falls due, by an event that runs
  // before the check's own (events of one instant run in the order they were
  // scheduled), must not push the check aside: sending reschedules the station's
  // one check event. On Fig. 2 (LSCC, B, one check per neighbour): a first run finds
  // a renewal of B's D at a moment B's buffer is above the congestion level;
  // a second, identical run adds a radio to B's tree at that instant (D's, which B
  // never notifies otherwise) and runs B's congestion test, so a notification to it
  // goes out just before the check. The check still runs at that instant and renews
  // the same neighbours as in the first run.
  for (const char* check_at : kCheckAts) {
    SCOPED_TRACE(check_at);
    // Congestion at 20 %, the renewal level: B's buffer is above it at most renewals.
    const nlohmann::json keys = {{"type", "lscc"},
                                 {"renewal_check_at", check_at},
                                 {"renewal_checks", "per_neighbour"},
                                 {"congestion_threshold", 0.2}};
    std::vector<std::pair<Time, double>> renewals;  // B's increases of D, with its buffer's fill then
    const Recorded first = run_with(keys, 4.0, 1, "congestion_control_collision.json",
                                    [&](Simulation& sim, Network& net, Recorder& rec) {
                                      const std::uint32_t b = radio_of_node(net, "B");
                                      rec.also = [&sim, &net, &renewals, b, d = Time::ms(100)](
                                                     const ControllerDecision& x) mutable {
                                        if (x.action != ControllerAction::duration || x.radio != b) return;
                                        if (ps(x.value) > d) renewals.emplace_back(sim.now(), held_share(state_of(net, b)));
                                        d = ps(x.value);
                                      };
                                    });
    const auto due = std::find_if(renewals.begin(), renewals.end(), [](const auto& x) { return x.second > 0.2; });
    ASSERT_NE(due, renewals.end());
    const Time t = due->first;
    const std::uint32_t b = first.radio.at("B"), d = first.radio.at("D");
    const std::set<std::uint32_t> renewed = notified_at(history_of(first, b), t);
    ASSERT_FALSE(renewed.empty());
    ASSERT_FALSE(renewed.count(d));
    const Recorded second = run_with(keys, 4.0, 1, "congestion_control_collision.json",
                                     [&](Simulation& sim, Network& net, Recorder&) {
                                       sim.scheduler().schedule_at(t, [&sim, &net, b, d] {
                                         auto& s = state_of(net, b);
                                         s.tree_neighbours.push_back(d);
                                         s.on_queue_length(sim.now(), 0, 0);
                                       });
                                     });
    const History h = history_of(second, b);
    // The notification to D went out at t, before the check ...
    const auto to_d = std::find_if(h.sent.begin(), h.sent.end(), [&](const Sent& x) { return x.peer == d; });
    ASSERT_NE(to_d, h.sent.end());
    EXPECT_EQ(to_d->at, t);
    // ... and the check ran at t all the same: D grew and the same neighbours were renewed.
    EXPECT_TRUE(std::any_of(h.increases.begin(), h.increases.end(), [&](const Increase& x) { return x.at == t; }));
    std::set<std::uint32_t> renewed_again = notified_at(h, t);
    renewed_again.erase(d);
    EXPECT_EQ(renewed_again, renewed);
  }
}

TEST(MeshCongestionRenewal, TooLongInTheLagAfterExpiryDecreasesDWithoutALift) {
  // 004 Sec. 3.1: a buffer below the "too long" level after a transmission means
  // "the last congestion control duration has been too long": D decreases, and "if
  // the congestion control expiration timer is still active" a timer-0 notification
  // lifts the block. In after_expiry's lag the timers have run out but the period
  // lasts until its check: D decreases there too, with no timer-0 frame (nobody is
  // blocked), and the check after it does not run. On the waste-of-bandwidth relay R
  // (its buffer drains often), with a 50-ms lag.
  const Time lead = Time::ms(50);
  for (const char* scheme : {"lscc", "tcc"}) {
    SCOPED_TRACE(scheme);
    const Recorded r = run_with({{"type", scheme}, {"renewal_check_at", "after_expiry"}, {"expiry_check_lead_s", 0.05}},
                                10.0, 1, "waste_of_bandwidth.json");
    const History h = history_of(r, r.radio.at("R"));
    std::size_t in_lag = 0;
    for (const Increase& dec : h.decreases) {
      SCOPED_TRACE(dec.at.to_seconds());
      // The last notification to each peer before the decrease: is a timer running,
      // or a check pending (after the timer, before the check)?
      bool running = false, pending = false;
      std::vector<Time> checks;
      std::set<std::uint32_t> peers;
      for (const Sent& x : h.sent) peers.insert(x.peer);
      for (const std::uint32_t peer : peers) {
        const Sent* last = last_to(h, peer, dec.at);
        if (last == nullptr || last->timer == Time::zero()) continue;
        if (last->at + last->timer > dec.at) running = true;
        const Time check = check_time("after_expiry", *last, lead);
        if (last->at + last->timer <= dec.at && check > dec.at) {
          pending = true;
          checks.push_back(check);
        }
      }
      if (running || !pending) continue;
      ++in_lag;
      EXPECT_TRUE(lifted_at(h, dec.at).empty());
      for (const Time check : checks) {
        EXPECT_FALSE(std::any_of(h.increases.begin(), h.increases.end(), [&](const Increase& x) { return x.at == check; }));
      }
    }
    EXPECT_GT(in_lag, 0u);
  }
}

TEST(MeshCongestionRenewal, ALiftReachesEveryNeighbourWhoseTimerRuns) {
  // Sec. 3.1's "too long" rule under either count of checks: D decreases once and a
  // timer-0 notification goes to exactly the neighbours whose timer is still active
  // (under last_used, those notified before the last one too, while their timers
  // run); the period ends there, so the next increase of D renews a notification
  // sent after the lift. On the waste-of-bandwidth relay R.
  for (const char* checks : {"per_neighbour", "last_used"}) {
    SCOPED_TRACE(checks);
    const Recorded r = run_with({{"type", "lscc"}, {"renewal_checks", checks}}, 10.0, 1, "waste_of_bandwidth.json");
    const History h = history_of(r, r.radio.at("R"));
    std::size_t lifts = 0, several = 0;
    std::set<Time> lift_times;
    for (const Sent& x : h.sent) {
      if (x.timer == Time::zero()) lift_times.insert(x.at);
    }
    std::set<std::uint32_t> peers;
    for (const Sent& x : h.sent) peers.insert(x.peer);
    for (const Time t : lift_times) {
      SCOPED_TRACE(t.to_seconds());
      std::set<std::uint32_t> running;
      for (const std::uint32_t peer : peers) {
        const Sent* last = last_to(h, peer, t);
        if (last != nullptr && last->timer > Time::zero() && last->at + last->timer > t) running.insert(peer);
      }
      EXPECT_EQ(lifted_at(h, t), running);
      EXPECT_TRUE(std::any_of(h.decreases.begin(), h.decreases.end(), [&](const Increase& x) { return x.at == t; }));
      ++lifts;
      if (running.size() > 1) ++several;
      const auto next = std::find_if(h.increases.begin(), h.increases.end(), [&](const Increase& x) { return x.at > t; });
      if (next != h.increases.end()) {
        for (const std::uint32_t peer : notified_at(h, next->at)) {
          const Sent* renewed = last_to(h, peer, next->at);
          ASSERT_NE(renewed, nullptr);
          EXPECT_GT(renewed->at, t) << peer;
        }
      }
    }
    EXPECT_GT(lifts, 3u);
    EXPECT_GT(several, 0u);
  }
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

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
