// FRED (link/fred_queue.hpp): the paper's admission rules, RED's average with its
// idle decay, per-class statistics, drops reported once, reproducible draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/packet.hpp"
#include "core/random.hpp"
#include "link/fred_queue.hpp"
#include "runner/network.hpp"
#include "scenario/scenario.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim::link {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Dropped {
  PacketId id;
  std::uint32_t flow;
  DropCause cause;
};

class RecordingSink final : public DropSink {
 public:
  void on_drop(PacketPtr packet, DropCause cause, Time) override { drops.push_back({packet->id, packet->flow, cause}); }
  std::vector<Dropped> drops;
};

class FredTest : public ::testing::Test {
 public:
  PacketPtr packet(std::uint32_t flow, std::uint32_t bytes = 500) {
    PacketPtr p = pool.make(Time::zero());
    p->flow = flow;
    p->size_bytes = bytes;
    return p;
  }
  FredQueue make(FredParams params, QueueLimit limit = {QueueLimit::Unit::packets, 50}, std::uint64_t key = 1,
                 PacketClassifier classifier = {}) {
    return FredQueue(limit, params, std::move(classifier), RandomStream(key), sink);
  }
  // Offers a packet of `flow`; true if accepted.
  bool offer(FredQueue& q, std::uint32_t flow, Time now = Time::zero()) {
    return q.enqueue(packet(flow), now).is_accepted();
  }

  PacketPool pool;
  RecordingSink sink;
};

// avg follows the instantaneous queue (w = 1), so tests can place it exactly.
FredParams instant(int min_th, int max_th) {
  FredParams p;
  p.min_th_packets = min_th;
  p.max_th_packets = max_th;
  p.queue_weight = 1.0;
  return p;
}

TEST_F(FredTest, NoDropsWhileTheAverageIsBelowMinTh) {
  FredQueue q = make(FredParams{});  // ns-2's defaults: w = 0.002
  // 8 flows x 4 packets: each stays under maxq = min_th = 5, and avg stays far below 5.
  for (int round = 0; round < 4; ++round) {
    for (std::uint32_t f = 0; f < 8; ++f) EXPECT_TRUE(offer(q, f));
  }
  EXPECT_EQ(q.length_packets(), 32u);
  EXPECT_LT(q.average(), 5.0);
  EXPECT_EQ(q.counters().dropped_total(), 0u);
  EXPECT_TRUE(sink.drops.empty());
  EXPECT_EQ(q.active_classes(), 8u);
  EXPECT_EQ(q.class_stats().at(3).arrivals, 4u);
  EXPECT_EQ(q.class_stats().at(3).accepted, 4u);
}

TEST_F(FredTest, AverageIsRedsEwmaAtArrivalsAndDepartures) {
  FredParams p;
  p.queue_weight = 0.25;  // binary fractions: exact
  FredQueue q = make(p);
  ASSERT_TRUE(offer(q, 0));  // q = 1: 0.25
  EXPECT_EQ(q.average(), 0.25);
  ASSERT_TRUE(offer(q, 1));  // q = 2: 0.25 + 0.25 (2 - 0.25)
  EXPECT_EQ(q.average(), 0.6875);
  ASSERT_TRUE(offer(q, 2));  // q = 3
  EXPECT_EQ(q.average(), 0.6875 + 0.25 * (3 - 0.6875));
  const double before = q.average();
  ASSERT_NE(q.dequeue(Time::zero()), nullptr);  // departures sample too: q = 2
  EXPECT_EQ(q.average(), before + 0.25 * (2 - before));
  // avgcq: the average per active class, at least 1.
  EXPECT_EQ(q.active_classes(), 2u);
  EXPECT_EQ(q.average_per_class(), 1.0);
}

TEST_F(FredTest, IdleTimeDecaysTheAverageAsIfMeanPacketsWereServed) {
  FredParams p;
  p.queue_weight = 0.5;
  p.mean_packet_time = Time::ms(1);
  FredQueue q = make(p);
  ASSERT_TRUE(offer(q, 0));  // 0.5
  ASSERT_TRUE(offer(q, 1));  // 0.5 + 0.5 (2 - 0.5) = 1.25
  ASSERT_NE(q.dequeue(Time::ms(1)), nullptr);  // q = 1: 1.125
  ASSERT_NE(q.dequeue(Time::ms(1)), nullptr);  // q = 0: 0.5625, idle from 1 ms
  EXPECT_EQ(q.average(), 0.5625);
  // 3.5 ms idle: m = 3 mean packets, avg *= 0.5^3; then the arrival's own sample (q = 1).
  ASSERT_TRUE(offer(q, 2, Time::us(4500)));
  EXPECT_EQ(q.average(), 0.5625 * 0.125 + 0.5 * (1 - 0.5625 * 0.125));

  // Without a mean packet time there is no decay: only the arrival's sample.
  p.mean_packet_time = Time::zero();
  FredQueue still = make(p);
  ASSERT_TRUE(offer(still, 0));
  ASSERT_NE(still.dequeue(Time::ms(1)), nullptr);  // 0.5 -> 0.25
  ASSERT_TRUE(offer(still, 0, Time::s(10)));
  EXPECT_EQ(still.average(), 0.25 + 0.5 * (1 - 0.25));
}

TEST_F(FredTest, BetweenTheThresholdsAFragileFlowIsAcceptedAndARobustOneDropped) {
  FredParams p = instant(5, 15);
  p.max_p = 1.0;  // robust arrivals here would all be dropped (count pb >= 2 below)
  FredQueue q = make(p);
  // 4 flows round-robin, 3 packets each: avg climbs to 12 while every arrival is
  // fragile (qlen < max(min_q, avgcq)) or waits (wait_: count pb < 1).
  for (int n = 0; n < 12; ++n) ASSERT_TRUE(offer(q, static_cast<std::uint32_t>(n % 4))) << n;
  ASSERT_EQ(q.average(), 12.0);
  ASSERT_EQ(q.average_per_class(), 3.0);
  // Flow 0 holds 3 >= max(2, 3): pb = (12 - 5) / 10 = 0.7, count 7: dropped for certain.
  const EnqueueResult robust = q.enqueue(packet(0), Time::zero());
  EXPECT_FALSE(robust.is_accepted());
  EXPECT_EQ(robust.cause(), DropCause::queue_early_drop);
  // A new flow (qlen 0 < min_q) and one with a packet are accepted, whatever pb.
  EXPECT_TRUE(offer(q, 9));
  EXPECT_TRUE(offer(q, 9));
  EXPECT_EQ(q.class_length(9), 2u);
  EXPECT_EQ(q.class_stats().at(0).random_drops, 1u);
  EXPECT_EQ(q.class_stats().at(0).early_drops(), 1u);
  EXPECT_EQ(q.class_stats().at(9).early_drops(), 0u);
}

TEST_F(FredTest, AFlowAtMaxqIsDroppedAndStrikesKeepItDownWhileALightFlowPasses) {
  FredQueue q = make(FredParams{});  // avg stays below min_th: only per-flow rules act
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(offer(q, 0));
  // qlen 5 >= maxq = min_th = 5.
  const EnqueueResult over = q.enqueue(packet(0), Time::zero());
  EXPECT_FALSE(over.is_accepted());
  EXPECT_EQ(over.cause(), DropCause::queue_overflow);
  EXPECT_FALSE(offer(q, 0));
  EXPECT_EQ(q.class_strikes(0), 2);
  EXPECT_TRUE(offer(q, 1));  // the light flow
  // Down to 3 packets, under maxq, but over avgcq (1) with more than one strike.
  ASSERT_NE(q.dequeue(Time::zero()), nullptr);
  ASSERT_NE(q.dequeue(Time::zero()), nullptr);
  ASSERT_EQ(q.class_length(0), 3u);
  EXPECT_FALSE(offer(q, 0));
  EXPECT_EQ(q.class_strikes(0), 3);
  EXPECT_TRUE(offer(q, 1));  // qlen 1 >= avgcq too, but no strikes
  const FredClassStats& heavy = q.class_stats().at(0);
  EXPECT_EQ(heavy.arrivals, 8u);
  EXPECT_EQ(heavy.flow_limit_drops, 3u);
  EXPECT_EQ(heavy.overflow_drops(), 3u);
  EXPECT_EQ(q.class_stats().at(1).overflow_drops(), 0u);
  // Its state goes with its last packet: strikes are forgotten.
  while (q.dequeue(Time::zero())) {
  }
  EXPECT_EQ(q.class_strikes(0), 0);
  EXPECT_EQ(q.active_classes(), 0u);
}

TEST_F(FredTest, EveryArrivalIsDroppedOnceTheAverageReachesMaxTh) {
  FredQueue q = make(instant(2, 4));
  // Four flows, one packet each: fragile, accepted; avg reaches 4 = max_th.
  for (std::uint32_t f = 0; f < 4; ++f) ASSERT_TRUE(offer(q, f));
  ASSERT_EQ(q.average(), 4.0);
  for (const std::uint32_t f : {0u, 7u}) {  // a flow with a packet queued, and a new one
    const EnqueueResult r = q.enqueue(packet(f), Time::zero());
    EXPECT_FALSE(r.is_accepted());
    EXPECT_EQ(r.cause(), DropCause::queue_early_drop);
    EXPECT_EQ(q.class_stats().at(f).forced_drops, 1u);
  }
  // maxq is 2 up here: a flow already holding 2 hits the per-flow limit first.
  FredQueue fill = make(instant(3, 4));
  for (const std::uint32_t f : {0u, 0u, 1u, 2u}) ASSERT_TRUE(offer(fill, f));
  ASSERT_EQ(fill.average(), 4.0);
  EXPECT_EQ(fill.enqueue(packet(0), Time::zero()).cause(), DropCause::queue_overflow);
  EXPECT_EQ(fill.class_stats().at(0).flow_limit_drops, 1u);
}

TEST_F(FredTest, AFullBufferDropsTheArrivalAsOverflow) {
  FredQueue q = make(FredParams{}, {QueueLimit::Unit::packets, 3});
  for (std::uint32_t f = 0; f < 3; ++f) ASSERT_TRUE(offer(q, f));
  const EnqueueResult r = q.enqueue(packet(3), Time::zero());
  EXPECT_EQ(r.cause(), DropCause::queue_overflow);
  EXPECT_EQ(q.class_stats().at(3).buffer_drops, 1u);
  EXPECT_EQ(q.class_length(3), 0u);

  FredQueue bytes = make(FredParams{}, {QueueLimit::Unit::bytes, 1000});
  ASSERT_TRUE(bytes.enqueue(packet(0, 600), Time::zero()).is_accepted());
  EXPECT_FALSE(bytes.enqueue(packet(1, 401), Time::zero()).is_accepted());
  EXPECT_TRUE(bytes.enqueue(packet(1, 400), Time::zero()).is_accepted());
  EXPECT_EQ(bytes.length_bytes(), 1000);
}

TEST_F(FredTest, OneFifoAcrossClasses) {
  FredQueue q = make(FredParams{});
  std::vector<PacketId> in;
  for (const std::uint32_t f : {4u, 1u, 4u, kNoFlow, 2u, 1u}) {
    PacketPtr p = packet(f);
    in.push_back(p->id);
    ASSERT_TRUE(q.enqueue(std::move(p), Time::zero()).is_accepted());
  }
  EXPECT_EQ(q.peek()->id, in.front());
  std::vector<PacketId> out;
  while (PacketPtr p = q.dequeue(Time::zero())) out.push_back(p->id);
  EXPECT_EQ(out, in);
  EXPECT_EQ(q.class_stats().at(kControlClass).arrivals, 1u);  // packets of no flow: one class
}

TEST_F(FredTest, ClassesBySubscriberShareTheirAccounting) {
  // Flows 0 and 1 belong to subscriber 7, flow 2 to subscriber 3.
  FredQueue q = make(FredParams{}, {QueueLimit::Unit::packets, 50}, 1, PacketClassifier(ClassifyBy::subscriber, {7, 7, 3}));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(offer(q, 0));
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(offer(q, 1));
  EXPECT_EQ(q.class_length(7), 5u);
  EXPECT_FALSE(offer(q, 1));  // subscriber 7 is at maxq
  EXPECT_TRUE(offer(q, 2));
  EXPECT_EQ(q.class_stats().at(7).arrivals, 6u);
  EXPECT_EQ(q.class_stats().at(3).accepted, 1u);
  EXPECT_EQ(q.active_classes(), 2u);
}

// A steady queue of ~12 packets (avg ~11 with w = 1), two thirds of them from
// flows 0 and 1 (robust: over avgcq), the rest spread over flows 2..4 (fragile):
// random drops, drawn from the queue's own stream.
std::vector<bool> steady_pattern(FredTest& t, FredQueue& q) {
  std::vector<bool> accepted;
  for (int i = 0; i < 400; ++i) {
    if (q.length_packets() >= 12) {
      EXPECT_NE(q.dequeue(Time::zero()), nullptr);
    }
    const int flow = i % 3 < 2 ? i % 3 : 2 + (i / 3) % 3;
    accepted.push_back(t.offer(q, static_cast<std::uint32_t>(flow)));
  }
  return accepted;
}

TEST_F(FredTest, DropsAreReportedOnceWithTheirCauseAndDrawsAreReproducible) {
  const FredParams p = instant(5, 15);
  FredQueue a = make(p, {QueueLimit::Unit::packets, 50}, 42);
  const std::vector<bool> first = steady_pattern(*this, a);
  FredQueue b = make(p, {QueueLimit::Unit::packets, 50}, 42);
  EXPECT_EQ(steady_pattern(*this, b), first);

  std::uint64_t random = 0;
  for (const auto& entry : a.class_stats()) random += entry.second.random_drops;
  EXPECT_GT(random, 0u);
  EXPECT_LT(random, 200u);
  EXPECT_EQ(a.class_stats().at(3).random_drops, 0u);  // fragile flows are spared
  // Every refused arrival reached the sink once, with the cause the counters give.
  std::uint64_t refused = 0;
  for (const bool ok : first) refused += ok ? 0 : 1;
  EXPECT_EQ(a.counters().dropped_total(), refused);
  EXPECT_EQ(sink.drops.size(), 2 * refused);  // a's and b's
  std::uint64_t early = 0;
  std::vector<PacketId> ids;
  for (const Dropped& d : sink.drops) {
    early += d.cause == DropCause::queue_early_drop ? 1 : 0;
    ids.push_back(d.id);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());  // no packet twice
  EXPECT_EQ(early, 2 * (a.counters().dropped(DropCause::queue_early_drop)));
  EXPECT_EQ(a.counters().dropped(DropCause::queue_early_drop), random);
}

TEST_F(FredTest, RejectsInconsistentParameters) {
  const auto bad = [&](FredParams p, QueueLimit limit = {}) {
    EXPECT_THROW((void)FredQueue(limit, p, PacketClassifier{}, RandomStream(1), sink), std::invalid_argument);
  };
  bad(instant(5, 5));
  bad(instant(0, 5));
  FredParams p;
  p.max_p = 0;
  bad(p);
  p = {};
  p.queue_weight = 1.5;
  bad(p);
  p = {};
  p.min_q_packets = 0;
  bad(p);
  bad(FredParams{}, {QueueLimit::Unit::packets, 0});
}

// ---- from a scenario: `"discipline": "fred"` ------------------------------------

TEST(FredScenario, KeysAreParsedInheritedAndBuiltIntoEveryQueue) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = R"({"queue": {"discipline": "fred", "capacity_packets": 25, "min_th_packets": 4, "wait": false,
                             "mean_packet_time_us": 0, "classify": "subscriber"}})"_json;
  doc["nodes"][1]["mac"] = R"({"queue": {"max_th_packets": 12}})"_json;  // keeps the rest
  const Scenario s = parse_scenario(doc);
  const auto& b = *s.nodes[1].radios[0].mac;
  EXPECT_EQ(b.queue_discipline.name, "fred");
  EXPECT_EQ(b.queue.capacity, 25);

  Simulation sim(1);
  Network net(sim, s);
  const auto fred_of = [&](std::size_t node) {
    return dynamic_cast<const FredQueue*>(&net.macs().node_macs.at(node, 0)->queue(AccessCategory::ac_be));
  };
  const FredQueue* a = fred_of(0);
  const FredQueue* over = fred_of(1);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(a->params().min_th_packets, 4);
  EXPECT_EQ(a->params().max_th_packets, 15);
  EXPECT_FALSE(a->params().wait);
  EXPECT_EQ(a->params().mean_packet_time, Time::zero());
  EXPECT_EQ(a->limit().capacity, 25);
  EXPECT_EQ(over->params().min_th_packets, 4);
  EXPECT_EQ(over->params().max_th_packets, 12);
  EXPECT_EQ(over->params().queue_weight, 0.002);
}

TEST(FredScenario, BadKeysAreReportedAtTheirPaths) {
  nlohmann::json doc = test::minimal_scenario();
  doc["mac"] = R"({"queue": {"discipline": "fred", "min_th_packets": 6, "max_th_packets": 6, "max_p": 0,
                             "classify": "node"}})"_json;
  doc["nodes"][1]["mac"] = R"({"queue": {"min_th_packets": 20}})"_json;  // past the inherited 6
  const auto issues = test::issues_of(doc);
  EXPECT_TRUE(test::has_issue(issues, "/mac/queue/max_th_packets", "must exceed min_th_packets (6)"));
  EXPECT_TRUE(test::has_issue(issues, "/mac/queue/max_p", "> 0"));
  EXPECT_TRUE(test::has_issue(issues, "/mac/queue/classify", "\"node\""));
  EXPECT_TRUE(test::has_issue(issues, "/nodes/1/mac/queue/min_th_packets", "must exceed min_th_packets (20)"));
  EXPECT_EQ(issues.size(), 4u) << test::render(issues);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::link
