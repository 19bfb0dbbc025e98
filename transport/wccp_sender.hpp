#pragma once
// The sending end of a WCCP flow (003 Sec. III-E): TCP's reliability (byte sequence
// numbers, cumulative ACKs, retransmission) with its window-based congestion control
// replaced by a leaky bucket of permits whose rate r_p follows the network's
// explicit feedback. The receiver is a TcpReceiver, which copies each data packet's
// congestion header into its ACK.
//
// The rules, as 003 Sec. III-E gives them:
//  - every data packet carries the congestion header: r_p, T_c = max(srtt, beta/r_p)
//    (Eq. 15) and fb, which the sender sets to what would bring it to its desired
//    rate after one T_c, (desired - r_p) / (r_p T_c) per packet (infinite for a
//    bulk or finite transfer, which wants all it can get), and the nodes lower;
//  - start-up: the first packet goes at once with r_p = 0 and T_c = 0; the first ACK
//    sets r_p = 1/srtt and sends the second packet; from then on a packet leaves
//    only with a permit, permits arriving at r_p (Eq. 14: r_p += fb at every ACK);
//  - first timeout: resend the oldest unacknowledged packet, double the timer and
//    set r_p = 1/RTO (the doubled RTO); back-to-back timeouts before a new ACK
//    resend without doubling or resetting; feedback in ACKs of packets sent before
//    the last timeout is ignored;
//  - a retransmission goes at the next permit, before any new data.
// Where 003 is silent (docs/transport.md, "WCCP"):
//  - the bucket holds at most one permit (a paced sender: an idle sender does not
//    save up a burst);
//  - r_p never falls below 1/RTO, the rate 003 restarts a timed-out flow from, so
//    that a burst of negative feedback cannot stop a flow for good;
//  - at most window_packets segments are outstanding (the receiver's window);
//  - fast_retransmit (on by default): the third duplicate ACK, or an ACK that
//    advances SND.UNA without reaching the highest byte sent when the loss was
//    found (RFC 6582's partial ACK), resends the oldest unacknowledged segment at
//    the next permit, without touching r_p: TCP's loss repair without its window;
//  - an ACK whose fb is infinite (no node on the path gave feedback) leaves r_p alone;
//  - timeout_restart "srtt" (off by default; a departure from 003): the first timeout
//    sets r_p = min(r_p, 1/srtt), the rate of 003's start-up but never above the
//    rate before (a restart: a throttled flow keeps its r_p), instead of 1/RTO of
//    the doubled timer (RTO = srtt + 4 RTTVAR, doubled, is several times srtt, so
//    T_c = beta/r_p is as many times longer and the climb back takes seconds; the
//    measured ratios and recoveries are generated from stored runs in
//    docs/reproductions/wccp.md, "After a timeout"); before any RTT sample 003's
//    1/RTO; everything else of the timeout rule stays;
//  - RTT samples and the RTO follow RFC 6298 with Karn's algorithm, as TcpSender.
// Reliable delivery (sequence space, ACKs, RTT, the retransmission timer with the
// back-off of 003's timeout rule: RtoBackoff::first_of_back_to_back) is the
// ReliableSender this sender owns and is the Policy of (reliable_sender.hpp);
// what is here is the rate.
// Cost: O(1) per ACK and per packet; one permit timer and one retransmission timer.

#include <cstdint>
#include <limits>
#include <optional>

#include "core/packet.hpp"
#include "core/packet_sink.hpp"
#include "core/scheduler.hpp"
#include "transport/flow_address.hpp"
#include "transport/reliable_sender.hpp"
#include "transport/rtt_estimator.hpp"
#include "transport/tcp_config.hpp"  // TcpApplication
#include "transport/time_series.hpp"
#include "transport/traffic_generator.hpp"
#include "transport/transport_config.hpp"  // kDefaultWindowPackets, WccpConfig

namespace wmnsim::transport {

struct WccpSenderConfig {
  FlowAddress address;
  std::uint32_t mss = 1000;          // payload bytes per segment (the flow's payload_bytes)
  std::uint32_t window_packets = kDefaultWindowPackets;  // at most this many segments outstanding
  double beta = WccpConfig{}.beta;  // Eq. 15: at least beta packets per control interval
  bool fast_retransmit = true;
  // The rate after the first timeout of a run: 003's 1/RTO, or (ours, a departure)
  // min(r_p, 1/srtt). WccpConfig's comment says more; docs/transport.md, "WCCP".
  WccpTimeoutRestart timeout_restart = WccpTimeoutRestart::rto;
  RtoLimits rto;
  TcpApplication application = TcpApplication::bulk;
  std::uint64_t finite_bytes = 0;  // finite only
  // The rate the application wants, packets/s (written: its mean rate); infinite
  // for bulk and finite transfers.
  double desired_rate_pps = std::numeric_limits<double>::infinity();
  Time start;
  std::optional<Time> stop;
  bool trace_rate = false;  // record (time, r_p) at every change
  std::optional<std::uint8_t> user_priority;
  bool handshake = false;  // SYN and FIN exchanges on the wire (reliable_sender.hpp)
};

struct WccpSenderStats : ReliableSenderStats {
  std::uint64_t fast_retransmits = 0;  // third duplicate ACKs and partial ACKs
  std::uint64_t feedback_applied = 0;   // ACKs whose fb changed r_p
  std::uint64_t feedback_ignored = 0;   // ACKs of packets sent before the last timeout
  std::uint64_t rate_floor_hits = 0;    // r_p held at 1/RTO
};

class WccpSender final : public PacketSink, public TrafficGenerator::Consumer {
 public:
  // Throws std::invalid_argument for mss 0, window_packets 0, beta <= 0, or a finite
  // transfer of 0 bytes.
  WccpSender(Scheduler& scheduler, PacketPool& pool, PacketSink& network, WccpSenderConfig config);
  ~WccpSender() override;
  WccpSender(const WccpSender&) = delete;
  WccpSender& operator=(const WccpSender&) = delete;

  // An ACK from the receiver (a packet without ack_valid is ignored).
  void receive(PacketPtr packet) override;
  void write(std::uint64_t bytes);
  void on_application_data(std::uint32_t bytes) override { write(bytes); }

  const WccpSenderConfig& config() const { return config_; }
  const WccpSenderStats& stats() const { return stats_; }
  const RttEstimator& rtt() const { return core_.rtt(); }
  const TimeSeries& rate_trace() const { return rate_trace_; }

  double rate_pps() const { return rate_; }  // r_p; 0 before the first ACK
  // T_c of Eq. 15 as the next packet will carry it (zero before the first ACK).
  Time control_interval() const;
  std::uint64_t snd_una() const { return core_.snd_una(); }
  std::uint64_t snd_nxt() const { return core_.snd_nxt(); }
  std::uint64_t snd_max() const { return core_.snd_max(); }
  bool retransmission_pending() const { return retransmit_; }
  bool finished() const { return core_.finished(); }
  // As TcpSender's.
  void set_completion_listener(CompletionListener listener) { core_.set_completion_listener(std::move(listener)); }

 private:
  // The policy of the reliable-delivery core (reliable_sender.hpp): the rate.
  friend class ReliableSender<WccpSender>;
  void on_open();
  void transmit();
  void on_ack(const TransportHeader& ack);
  bool on_new_ack(std::uint64_t newly_acked);
  void on_duplicate_ack();
  void on_timeout(Time rto_before, bool backed_off);
  void on_segment(Packet& segment);
  void on_finished();

  void refill_permits();
  void set_rate(double rate);
  void send_segment(std::uint64_t seq) { core_.send_segment(seq, core_.segment_length(seq)); }
  bool can_send_new() const;
  void schedule_permit();
  // 003's one rate from the RTO: r_p restarts from 1/RTO after a timeout (and
  // before any RTT sample), and never falls below it.
  double rto_rate() const { return 1.0 / core_.rtt().rto().to_seconds(); }
  // The rate the first timeout of a run sets (config_.timeout_restart).
  double timeout_restart_rate() const;

  Scheduler& scheduler_;
  WccpSenderConfig config_;
  TimeSeries rate_trace_;
  WccpSenderStats stats_;
  ReliableSender<WccpSender> core_;

  // The leaky bucket: r_p, the permits in it (at most one) as of permits_at_.
  double rate_ = 0.0;
  double permits_ = 0.0;
  Time permits_at_;
  bool retransmit_ = false;        // the oldest unacknowledged segment goes at the next permit
  bool recovering_ = false;        // a loss is being repaired up to recover_
  std::uint64_t recover_ = 0;
  std::optional<Time> last_timeout_;

  EventId permit_timer_;
};

}  // namespace wmnsim::transport
