#pragma once
// FRED, Flow Random Early Drop (Lin and Morris, "Dynamics of Random Early
// Detection", SIGCOMM 1997): RED's average queue and count-based random drops, plus
// per-active-class accounting so that the drop rate of a class depends on its own
// buffer use (001 Sec. 4.2 and 5.2 run it at the gateway). One FIFO: classes share
// the order of arrival; only the admission of an arrival looks at its class.
//
// On an arrival of class i (qlen_i its packets queued, strike_i how often it went
// over its limit; the paper's pseudo-code):
//  - maxq = min_th, or 2 once avg >= max_th. A class with qlen_i >= maxq, or
//    qlen_i > 2 avgcq while avg >= max_th, or qlen_i >= avgcq after more than one
//    strike, is dropped and strike_i++ (non-adaptive flows: queue_overflow);
//  - avg < min_th: accepted (count = -1);
//  - min_th <= avg < max_th: count++; a class with qlen_i < max(min_q, avgcq) is
//    accepted (fragile flows); the others are dropped (queue_early_drop) with RED's
//    probability pb = max_p (avg - min_th) / (max_th - min_th), spread by count;
//  - avg >= max_th: dropped (drop-tail mode, queue_early_drop: the average decided).
//  An arrival the buffer (packets or bytes) cannot hold is dropped (queue_overflow).
// avgcq = avg / (active classes), at least 1. A class is active while it has
// packets queued; its state (qlen, strike) is forgotten when its last one leaves.
//
// The average, in packets, is sampled as the paper does: after each accepted
// arrival (the queue including it) and after each departure, with RED's EWMA
// avg = (1 - w) avg + w q. An arrival to an empty queue first decays it as if m
// packets had been served while idle, avg *= (1 - w)^m (ns-2 red.cc: m = int(ptc *
// idle time), ptc = link rate / (8 mean_pktsize_)); a discipline does not know its
// link's rate, so `mean_packet_time` gives 1/ptc.
// Thresholds count packets whatever the unit of the buffer.
// Cost per packet: a hash lookup of the class and a map lookup of its statistics.

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "core/random.hpp"
#include "core/time.hpp"
#include "config/parameter_table.hpp"
#include "link/fair_queue.hpp"  // per_class_keys: classify
#include "link/packet_classifier.hpp"
#include "link/packet_fifo.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_entry.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim::link {

// Defaults: ns-2's FRED module (Ion Stoica's CSFQ code, 1998, Queue/FRED in its
// ns-default.tcl) sets thresh_ 5, maxthresh_ 15, q_weight_ 0.002, linterm_ 10
// (max_p = 1/linterm_), wait_ true, mean_pktsize_ 500; the same as ns-2's RED
// before its automatic configuration (12/2001). min_q 2: the paper's value for
// small buffers.
struct FredParams {
  int min_th_packets = 5;       // thresh_
  int max_th_packets = 15;      // maxthresh_
  double max_p = 0.1;           // 1 / linterm_
  double queue_weight = 0.002;  // q_weight_
  int min_q_packets = 2;        // minq
  // ns-2's wait_: no random drop until count pb >= 1, then pb / (2 - count pb);
  // without it pb / (1 - count pb), as in the paper's pseudo-code.
  bool wait = true;
  // 1/ptc for the idle decay: mean_pktsize_ 500 bytes at 001's 1 Mb/s wireless
  // rate. Zero: no decay (ns-2's ptc 0, a RED queue told no link).
  Time mean_packet_time = Time::us(4000);
};

// What happened to the arrivals of one class (by the classifier's class id).
struct FredClassStats {
  std::uint64_t arrivals = 0;
  std::uint64_t accepted = 0;
  std::uint64_t random_drops = 0;    // queue_early_drop, min_th <= avg < max_th
  std::uint64_t forced_drops = 0;    // queue_early_drop, avg >= max_th
  std::uint64_t flow_limit_drops = 0;  // queue_overflow: maxq, 2 avgcq or strikes
  std::uint64_t buffer_drops = 0;    // queue_overflow: the buffer was full

  std::uint64_t early_drops() const { return random_drops + forced_drops; }
  std::uint64_t overflow_drops() const { return flow_limit_drops + buffer_drops; }
};

class FredQueue final : public QueueDiscipline {
 public:
  // Throws std::invalid_argument for a capacity below 1 or inconsistent parameters
  // (thresholds not 1 <= min_th < max_th, max_p or queue_weight outside (0, 1],
  // min_q < 1, a negative mean_packet_time).
  FredQueue(QueueLimit limit, FredParams params, PacketClassifier classifier, RandomStream random, DropSink& drops,
            QueueObserver* observer = nullptr);

  std::size_t length_packets() const override { return fifo_.size(); }
  std::int64_t length_bytes() const override { return fifo_.bytes(); }
  std::optional<std::size_t> packets_of_class(std::uint32_t cls) const override { return class_length(cls); }

  const QueueLimit& limit() const { return limit_; }
  const FredParams& params() const { return params_; }
  double average() const { return avg_; }  // avg, packets
  double average_per_class() const;        // avgcq
  std::size_t active_classes() const { return active_.size(); }
  // Packets of `class_id` queued now, and its strikes (0 for an inactive class).
  std::size_t class_length(std::uint32_t class_id) const;
  int class_strikes(std::uint32_t class_id) const;
  // Every class seen so far, by id (kControlClass for packets of no flow).
  const std::map<std::uint32_t, FredClassStats>& class_stats() const { return stats_; }

 private:
  struct Active {
    std::size_t qlen = 0;
    int strike = 0;
  };
  // Why an arrival is refused, or nothing.
  enum class Verdict { accept, flow_limit, random, forced, buffer };

  EnqueueResult do_enqueue(PacketPtr& packet, Time now) override;
  PacketPtr do_dequeue(Time now) override;
  const Packet* do_peek() const override { return fifo_.front(); }

  Verdict judge(const Packet& packet, Active& cls);
  bool random_drop();
  bool fits(const Packet& packet) const;
  void sample_average() { avg_ += params_.queue_weight * (static_cast<double>(fifo_.size()) - avg_); }
  void decay_idle(Time now);

  QueueLimit limit_;
  FredParams params_;
  PacketClassifier classifier_;
  RandomStream random_;
  PacketFifo fifo_;
  std::unordered_map<std::uint32_t, Active> active_;  // classes with packets queued
  std::map<std::uint32_t, FredClassStats> stats_;
  double avg_ = 0.0;
  int count_ = -1;            // arrivals since the last drop, in random-drop mode
  Time idle_since_ = Time::zero();  // when the queue last became empty
};

// FRED's keys, declared once (config/parameter_table.hpp): the `fred` discipline
// takes them all (and `classify`, link/fair_queue.hpp), gateway_rate_control's
// `fred` object the first five.
struct FredKeys {
  IntegerParameter min_th_packets;
  IntegerParameter max_th_packets;
  NumberParameter max_p;
  NumberParameter queue_weight;
  IntegerParameter min_q_packets;
  BooleanParameter wait;
  TimeParameter mean_packet_time;
};
const FredKeys& fred_keys();

// Its registry entry (link/queue_discipline_entry.hpp): `fred`.
QueueDisciplineEntry fred_entry();

}  // namespace wmnsim::link
