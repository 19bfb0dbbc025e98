#pragma once
// The event trace's file (docs/traces.md "Event trace"): a small header, then one
// fixed-width record per event, little-endian, read by wmnsim.trace.load().
//
//   header   magic "WMNSEVTR" (8 octets), version u32 (1), header length u32 (the
//            offset of the first record), record length u32 (64), reserved u32,
//            record count u64, cut time i64 (ps, -1: the trace was not cut), then
//            four name tables, each a count u32 and that many names (length u16,
//            UTF-8 octets): the nodes (by node index), the kinds, the causes, the
//            frame kinds (by their codes in the records); zero-padded to 8 octets
//   records  EventRecord below, in the order the simulator observed them: by time,
//            except tx_end, written with its tx_start (its time is the frame's end)
//
// The codes of kinds and causes are the tables' indices: a reader needs no list of
// its own, and a later version may append names without breaking one.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "core/event_kind.hpp"

namespace wmnsim::trace {

inline constexpr std::array<char, 8> kEventTraceMagic{'W', 'M', 'N', 'S', 'E', 'V', 'T', 'R'};
inline constexpr std::uint32_t kEventTraceVersion = 1;

// The kinds (core/event_kind.hpp) and the value each record's `value` holds:
//   tx_start   the frame's end (ps)          tx_end    its start (ps)
//   rx_lock    -                             rx_ok     its first bit (ps)
//   rx_fail    its first bit (ps)            rx_missed its first bit (ps)
//   backoff    the slots drawn (cw: the window)
//   nav        when the NAV ends (ps)        retry     the retry count now
//   enqueue    the queue's length after      dequeue   the queue's length after
//   drop, deliver  -
//   params     CWmin (cw: CWmax, retry: AIFSN, access_category)
//   route      the destination's node index (peer: the next hop, none: no route)
//   controller by action (ControllerAction in core/event_kind.hpp; peer: the node
//              notified or notifying, flow: the flow whose rate)
// The causes: a reception's (phy::RxFailure, in its order), then a drop's
// (DropCause, in its order, from kDropCauseOffset), then a controller's action
// (ControllerAction, from kControllerActionOffset).
inline constexpr std::uint8_t kDropCauseOffset = 5;
inline constexpr std::uint8_t kControllerActionOffset = kDropCauseOffset + 8;  // 8: kDropCauseCount

inline constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint8_t kNoCode = 0xff;
inline constexpr std::uint16_t kNoSequence = 0xffff;

struct EventRecord {
  std::int64_t time_ps = 0;
  std::uint64_t packet = 0;              // the packet id; 0: none (control frames)
  std::int64_t value = 0;                // by kind (EventKind above)
  std::uint32_t flow = kNoIndex;         // the packet's flow index; controller rate: the class's first flow
  std::uint32_t node = kNoIndex;         // the node where it happened
  std::uint32_t radio = kNoIndex;        // its radio (route: the one to the next hop; none for drop, deliver, a lost route, a gateway's rate)
  std::uint32_t peer = kNoIndex;         // tx: the receiver's node (none: broadcast); rx: the transmitter's;
                                         // route: the next hop (none: lost); controller: notified, notifier
  std::uint32_t interferer = kNoIndex;   // rx_fail, rx_missed: the interferer's node
  float sinr_db = std::numeric_limits<float>::quiet_NaN();    // rx_ok: the worst SINR, when the radio computed it
  float power_dbm = std::numeric_limits<float>::quiet_NaN();  // tx: the transmit power; rx: the received power
  std::uint16_t sequence = kNoSequence;  // the MAC sequence number (data and action frames, retry)
  std::uint8_t kind = 0;                 // EventKind
  std::uint8_t cause = kNoCode;          // rx_fail, rx_missed, drop; controller: the action
  std::uint8_t frame = kNoCode;          // the frame kind (mac::FrameKind) of tx and rx records
  std::uint8_t retry = 0;                // tx and rx: the frame's Retry bit; params: AIFSN
  std::uint8_t access_category = kNoCode;  // backoff, enqueue, dequeue, params (mac::AccessCategory)
  std::uint8_t reserved = 0;
  std::uint32_t cw = 0;                  // backoff: the contention window; params: CWmax
};

static_assert(std::endian::native == std::endian::little, "the records are written as they lie in memory");
static_assert(sizeof(EventRecord) == 64);
static_assert(offsetof(EventRecord, value) == 16 && offsetof(EventRecord, sinr_db) == 44 &&
              offsetof(EventRecord, sequence) == 52 && offsetof(EventRecord, cw) == 60);

}  // namespace wmnsim::trace
