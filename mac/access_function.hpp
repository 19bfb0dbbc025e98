#pragma once
// One access function: DCF's, or an EDCAF of one access category (IEEE 802.11-2012
// 9.3.4 DCF, 9.19.2 EDCA). It owns what the standard gives each function: its queue
// (and a FIFO of management frames), the MPDU in service, the backoff counter, the
// contention window CW and the short and long retry counts (QSRC[AC], QLRC[AC]).
// When it may count and transmit is the channel access's business
// (channel_access.hpp), which reads and moves access_at; the frame exchange
// (frame_exchange.hpp) loads and finishes its MPDUs.
//
//  - Backoff (9.3.4.3): a counter drawn uniformly in [0, CW-1] (edca_params.hpp for
//    the window convention). It is not counted down slot by slot: access_at is when
//    it reaches zero, and freeze() subtracts the whole idle slots that elapsed.
//  - CW: doubled after each failed attempt up to CWmax, reset to CWmin after a
//    success or a drop (9.3.3, 9.19.2.5).
//  - Retry counts: the short count for RTS and for frames up to the RTS threshold,
//    the long count for longer ones; at the limit the frame is given up (9.3.4.4).
//    Whether a CTS restarts the short count, or one count takes every failure, is
//    the scenario's reading (RetryCounts, mac_params.hpp).
//
// Cost: every operation is O(1) (the draw is one call of the MAC's stream).

#include <algorithm>
#include <cstdint>
#include <forward_list>
#include <memory>

#include "core/management_body.hpp"
#include "core/packet.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "core/time.hpp"
#include "link/queue_discipline.hpp"
#include "mac/edca_params.hpp"
#include "mac/mac_params.hpp"

namespace wmnsim::mac {

// A management frame to send: its body and receiver (a radio, or broadcast).
struct ManagementFrame {
  std::shared_ptr<const ManagementBody> body;
  std::uint32_t receiver = kBroadcastRadio;
};

// Where a function stands in contention. Exactly one at a time. The contending
// phases come last (contending() is one comparison: it runs on every change of the
// medium).
enum class AccessPhase : std::uint8_t {
  idle,       // not contending: no frame, its post-backoff over, or in its exchange
  held,       // a shaping discipline holds its head back: idle until ready_at() or notify_ready()
  deferring,  // immediate access (9.3.4.2): transmits once the medium has been idle for
              // AIFS; a busy medium before then draws a backoff
  backoff,    // a backoff (possibly of 0 slots) is pending: backoff_slots left
  committed,  // its access time is too close to a busy start to stop (same slot)
};

// Which retry count a failed attempt charges (9.3.4.4).
enum class RetryCount : std::uint8_t { short_count, long_count };

class AccessFunction {
 public:
  AccessFunction(AccessCategory category, const EdcaParams& initial, std::unique_ptr<link::QueueDiscipline> discipline)
      : params(initial), queue(std::move(discipline)), cw(initial.cw_min), ac(category) {}

  // ---- contention ----
  AccessPhase phase() const { return phase_; }
  // A backoff or an immediate access is pending: access_at (once known) is when it transmits.
  bool contending() const { return phase_ >= AccessPhase::deferring; }
  bool committed() const { return phase_ == AccessPhase::committed; }
  bool held() const { return phase_ == AccessPhase::held; }
  // Draws a backoff in [0, CW-1] (9.3.4.3) from `draws`, the MAC's backoff stream
  // (channel_access.hpp: one stream for the MAC's functions, drawn in the order they
  // need it); counting starts no earlier than `now`. Returns the slots drawn.
  int draw_backoff(Time now, UniformStream& draws) {
    phase_ = AccessPhase::backoff;
    backoff_slots = static_cast<int>(draws.uniform_int(static_cast<std::uint64_t>(cw)));
    eligible_from = now;
    access_at = Time::max();
    return backoff_slots;
  }
  // A backoff of 0 slots from `now` (ImmediateAccess::ns3): a busy medium freezes it
  // as any backoff, and nothing is drawn.
  void start_zero_backoff(Time now) {
    phase_ = AccessPhase::backoff;
    backoff_slots = 0;
    eligible_from = now;
    access_at = Time::max();
  }
  // Immediate access (9.3.4.2): no backoff, counting from `now`.
  void defer_immediately(Time now) {
    phase_ = AccessPhase::deferring;
    eligible_from = now;
    backoff_slots = 0;
  }
  // The medium went busy at `now`: the whole idle slots that elapsed before it are
  // consumed, the partial one is not (9.3.4.3: decrement at the end of each idle
  // slot). Only for a backoff with its access time known.
  void freeze(Time now, Time slot) {
    const std::int64_t left = (access_at - now + slot - Time::ps(1)) / slot;
    backoff_slots = static_cast<int>(std::min<std::int64_t>(backoff_slots, left));
    access_at = Time::max();
  }
  void commit() { phase_ = AccessPhase::committed; }
  // Its access time came: it stops contending (and transmits if it has a frame).
  void end_contention() {
    phase_ = AccessPhase::idle;
    backoff_slots = 0;
    access_at = Time::max();
  }
  void hold() { phase_ = AccessPhase::held; }
  // Leaves held for idle (the caller starts an access next).
  void release() { phase_ = AccessPhase::idle; }

  // ---- contention window and retries ----
  // New parameters: a window at its reset value (no failure since the last success,
  // 9.19.2.5) becomes the new CWmin; a doubled one is kept within the new bounds.
  void set_params(const EdcaParams& p);
  // A failed attempt of the MPDU in service. True when it reached `limit`: the frame
  // is to be given up (its counts and CW reset by mpdu_done); otherwise CW doubles.
  bool charge_retry(RetryCount count, int limit);
  // The CTS came: the short count restarts (9.3.3's SSRC reset; only under
  // RetryCounts::reset_on_cts, mac_params.hpp).
  void cts_received() { short_retries = 0; }
  // The window doubled (up to CWmax) without a retry counted: ns-2's inc_cw() when
  // a DATA frame finds the medium busy after its CTS (Deferral::ns2).
  void widen_cw() { cw = next_cw(cw, params.cw_max); }
  // The MPDU in service is done (acknowledged, sent group-addressed, or given up at
  // its retry limit): its retry counts and CW reset (9.3.4.4, 9.19.2.5); under
  // CwAfterDrop::ns3 a frame given up leaves the CW and the station count.
  void mpdu_done(Time now, bool given_up = false);

  // ---- frames ----
  bool has_mpdu() const { return packet != nullptr || mgmt.body != nullptr; }
  // (Data first: the common case decides on the first two tests.)
  bool has_frame() const { return packet != nullptr || !queue->empty() || mgmt.body != nullptr || !management.empty(); }
  // A frame that can go now: a shaping discipline may hold its head back.
  bool has_frame_ready(Time now) const {
    return packet != nullptr || queue->ready_at(now) <= now || mgmt.body != nullptr || !management.empty();
  }

  // The fields of 4 bytes and less are side by side at the end, so that no padding
  // separates them, the retry counts one byte each (the limits are at most 255,
  // frame_exchange.hpp check_retry_limits) and the two flags one byte (issue 43 §3,
  // memory per node: 176 bytes, not 232).
  EdcaParams params;
  std::unique_ptr<link::QueueDiscipline> queue;
  Time eligible_from;          // counting may not start before this
  Time access_at = Time::max();  // when the count reaches zero (Time::max(): not known, frozen)
  EventId ready_timer{};       // held: the discipline's ready_at()
  // Management frames waiting (only at the management function), before the queue,
  // oldest first. A forward list: rare and short, and an empty one is 8 B and
  // allocates nothing (a std::list is 24 B, a deque takes over 512 B at once).
  std::forward_list<ManagementFrame> management;
  void queue_management(ManagementFrame frame) {
    auto last = management.before_begin();
    for (auto it = management.begin(); it != management.end(); ++it) last = it;
    management.insert_after(last, std::move(frame));
  }
  // The MPDU being sent, kept until it is acknowledged or dropped: a data packet
  // or (mgmt.body set) a management frame.
  PacketPtr packet;
  ManagementFrame mgmt;
  std::uint64_t mpdu_id = 0;  // Frame::mpdu_id
  Time service_start;      // the data MPDU reached the head of the queue
  Time last_service_end;   // the previous MPDU (data or management) was done
  // Its first RTS or DATA (QueueLifetimeRule::standard's transmit MSDU timer);
  // Time::max() until then.
  Time first_attempt = Time::max();
  int cw = 0;
  int backoff_slots = 0;   // slots left while contending
  std::uint16_t sequence = 0;
  AccessCategory ac = AccessCategory::ac_be;
  std::uint8_t station_retries = 0;
  std::uint8_t short_retries = 0;  // SRC (QSRC[AC])
  std::uint8_t long_retries = 0;   // LRC (QLRC[AC])
  // CwAfterDrop::ns3 (mac/mac_params.hpp): the window follows a station retry count
  // (station_retries) that only a success resets, or a failure once it reached the limit.
  bool station_count_cw : 1 = false;
  bool sent_once : 1 = false;  // transmitted at least once: retransmissions set Retry

 private:
  AccessPhase phase_ = AccessPhase::idle;
};

}  // namespace wmnsim::mac
