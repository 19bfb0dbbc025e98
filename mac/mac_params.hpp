#pragma once
// The MAC's settings, as a scenario's `mac` section and per-node and per-radio
// overrides give them (docs/scenario.md, `mac`), with their name tables. A radio's
// resolved MacParams feed the MAC without translation (mac/edca_params.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/time.hpp"
#include "link/queue_discipline_choice.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim {

enum class MacType : std::uint8_t { dcf, edca };
// Index into access_categories. One byte (issue 43 §3, memory per node): the MAC's
// classifier holds two of them beside a pointer, in 16 B instead of 24.
enum class AccessCategory : std::uint8_t { ac_bk, ac_be, ac_vi, ac_vo };

// At most one field is non-zero; both zero means one frame per channel access.
struct TxopLimit {
  Time time;                // txop_limit_us
  std::int64_t frames = 0;  // txop_limit_frames (paper 002 sets TXOP in packets)
  bool operator==(const TxopLimit&) const = default;
};

// Contention windows are sizes in slots, as the papers write them: the backoff is
// uniform in 0..cw-1, so 802.11b's CWmin = 31 is written 32. Always powers of two.
struct EdcaParams {
  int aifsn = 2;
  int cw_min = 16;
  int cw_max = 1024;
  TxopLimit txop;
  bool operator==(const EdcaParams&) const = default;
};

// How a station defers after a frame it could not use.
enum class Deferral : std::uint8_t {
  // 802.11-2012 9.3.2.3.7: EIFS (instead of DIFS/AIFS) after an errored frame, until
  // an error-free frame resynchronises; a frame ignored by capture is energy only.
  standard,
  // ns-2's Mac802_11 (2.27-2.35), where 001 and 003 ran: the NAV is set to EIFS at
  // an errored frame's end (recv_timer) and to EIFS past the end of a frame ignored
  // by capture (capture(), ns2 reception model), and DIFS follows the NAV; so an
  // errored frame costs EIFS + DIFS, a good frame does not cut it short, and a CTS
  // is not sent while it lasts (check_pktCTRL: !is_idle()). Its response rules too
  // (mac/frame_exchange.hpp): the CTS decided SIFS after the RTS, no DATA into a busy
  // medium after the CTS, and a CTS or ACK wait ended only by the response or ns-2's
  // send timer.
  ns2,
  // ns-3 3.44's ChannelAccessManager (GetAccessGrantStart): EIFS - DIFS counted from
  // the errored frame's end, not from when the medium is next idle: access is AIFS
  // after the later of the idle medium and that end + EIFS - DIFS. A medium busy past
  // that time (a frame that began during the errored one, sensed only) costs AIFS
  // alone, and a later busy period does not renew the EIFS. 9.3.2.3.7 begins the EIFS when the
  // PHY indicates the medium idle after the erroneous frame and keeps it until an
  // error-free frame (standard). Otherwise as standard (no response-rule changes).
  ns3,
  // 802.11-2012 9.3.2.3.7 read to the letter: the EIFS begins when the PHY indicates
  // the medium idle after the erroneous frame "without regard to the virtual CS
  // mechanism", so a NAV that outlasts the PHY's busy period does not postpone it;
  // the NAV still holds the medium busy (9.3.2.1) and DIFS (AIFS) follows its end:
  // access after the later of the PHY's idle + EIFS and the medium's idle + DIFS (our
  // own transmission and response wait hold the medium as the PHY does). `standard`
  // reads 9.3.4.3 instead ("the medium is determined to be idle ... for a period of
  // time equal to EIFS"), with the NAV part of that medium: EIFS after the NAV's end.
  // The two differ only when a NAV outlasts the PHY after an errored frame (RTS/CTS: a
  // CTS or RTS heard, then its DATA or ACK lost; basic access: a third sender's frame
  // lost under a DATA frame's NAV whose ACK is not heard), and when an error is
  // reported after the PHY idled, which wmnsim's radio never does (it reports while
  // its CCA is busy): phy_idle begins the EIFS at the report. Otherwise as standard.
  phy_idle,
};

// When the MAC takes its next packet from the queue.
enum class Dequeue : std::uint8_t {
  // When it wins the medium (as ns-3's Txop): the packet waits in the queue through
  // deferral and backoff.
  at_access,
  // As soon as the last one is done (sent, or dropped at the retry limit), as ns-2's
  // Mac802_11 pulls from its interface queue (tx_resume() calls the queue's handler
  // once pktTx_ is gone; Queue::recv passes a packet straight to an idle MAC): the
  // packet waits in the MAC through deferral and backoff, and the queue has its
  // place free meanwhile.
  after_exchange,
  // ns-3 3.44's WifiMacQueue: taken at access, as at_access, but the frame keeps its
  // place in the queue's capacity until its service ends (acknowledged, dropped at
  // the retry limit, or dropped as expired), when the room is given back: ns-3
  // removes an MPDU only then (FrameExchangeManager::DequeueMpdu), and its device
  // queue, stopped at a full MAC queue, wakes at that removal
  // (NetDeviceQueue::PacketDequeued). Only the drop_tail discipline counts the place.
  ns3,
};

// What a frame that reaches an idle function with no backoff pending gets.
enum class ImmediateAccess : std::uint8_t {
  // 802.11-2012 9.3.4.2: it goes without a backoff only if the medium is idle when it
  // is queued and stays idle for DIFS (AIFS[AC]); the station's own response due
  // (SIFS before its ACK or CTS) is medium busy, and a busy medium during the deferral
  // draws a backoff (9.3.4.3).
  standard,
  // ns-3 3.44 (ChannelAccessManager::NeedBackoffUponAccess): the medium is judged at
  // the instant the frame is queued by the PHY, the NAV and the station's own
  // transmission only, so a frame queued at the end of a received DATA frame (a TCP
  // ACK, a relayed packet) finds it idle although the station's ACK is due SIFS later;
  // the function then holds a backoff of 0 slots, which a busy medium freezes and does
  // not redraw, and transmits DIFS (AIFS) after its own ACK.
  ns3,
};

// The contention window after a frame is given up at its retry limit.
enum class CwAfterDrop : std::uint8_t {
  // 802.11-2012 9.3.3 (and 9.19.2.5): CW resets to CWmin when SSRC or SLRC reaches its
  // limit, as after a success.
  reset,
  // ns-3 3.44 (Txop::UpdateFailedCw, after 802.11-2020 10.23.2.2): one station retry
  // count per function, raised at every failure up to the short retry limit with
  // CW = min(CWmax, CWmin x 2^count) and reset with CW by a success only; a drop
  // leaves both, so the next frame starts with the window of the last failure, and its
  // first failure (the count at the limit) resets them to 0 and CWmin.
  ns3,
};

// Where the queue lifetime (MacParams::queue_lifetime) is checked (docs/mac.md
// "Queue lifetime").
enum class QueueLifetimeRule : std::uint8_t {
  // When the MAC takes a packet from its queue (at a channel access, or to continue a
  // TXOP): a frame taken finishes its retries, which the retry limit bounds.
  when_taken,
  // ns-3 3.44's WifiMacQueue (MaxDelay, counted from the entry into the queue): an
  // MPDU stays queued between its attempts and, not in flight, is removed once
  // expired when the queue next looks at its head, at the next channel access; that
  // access serves the next packet with the backoff just counted and the CW as they
  // stand, or, with no frame left, is lost to a new backoff from that CW (every
  // channel release draws one, Txop::NotifyChannelReleased).
  ns3,
  // 802.11-2012's dot11MaxTransmitMSDULifetime (Annex C: the time "after the initial
  // transmission of an MSDU, after which further attempts to transmit the MSDU are
  // terminated"): the timer starts at the MPDU's first attempt (its RTS or DATA), a
  // packet waiting in the queue never expires, and a frame whose timer ran out is
  // dropped at the access that would retry it, which serves the next packet with the
  // backoff just counted and the CW as they stand (the discard is neither a success
  // nor a retry limit: 9.3.3 resets the CW at neither), or falls idle with no frame.
  // A frame that never reaches the air (only lost EDCA internal collisions) starts
  // no timer: its retry limit ends it.
  standard,
};

// Which counts give a frame up when RTS/CTS protects it (802.11-2012 9.3.4.4, 9.3.3).
// Without RTS the three agree: a frame's failures count against the short limit (or
// the long one for a frame longer than dot11RTSThreshold), and it is given up when
// the count reaches the limit.
enum class RetryCounts : std::uint8_t {
  // The short count restarts when a CTS answers the RTS: 9.3.3's reset of the station
  // short retry count (SSRC) applied to the frame's own count, as ns-2's Mac802_11
  // (recvCTS sets ssrc_ to 0). A failed RTS counts against the short limit, a failed
  // DATA frame after a CTS against the long one.
  reset_on_cts,
  // 9.3.4.4 read per MPDU: the frame's short retry count (SRC) counts every failed
  // RTS and its long retry count (LRC) every failed DATA frame, and neither restarts
  // before the frame is done; a CTS resets only the station's SSRC, which moves no
  // frame's count here. The frame is given up when either count reaches its limit.
  per_mpdu,
  // ns-3 3.44: one retry count per MPDU (WifiMpdu::GetRetryCount), raised by every
  // failed RTS and every failed DATA frame, compared with one limit
  // (WifiMac::FrameRetryLimit, "dot11ShortRetryLimit": short_retry_limit here); a CTS
  // resets nothing. long_retry_limit is not used.
  ns3,
};

// Everything a per-node or per-radio override may change.
struct MacParams {
  int cw_min = 32;    // dcf only
  int cw_max = 1024;  // dcf only
  int short_retry_limit = 7;
  int long_retry_limit = 4;
  // Empty: RTS/CTS off. n: RTS/CTS before every frame longer than n bytes (0: always).
  std::optional<std::int64_t> rts_threshold_bytes;
  link::QueueLimit queue;
  // queue.discipline: how the queue chooses what to drop and send (drop_tail by
  // default); scenario/mac_builder.cpp builds one per queue from it.
  link::QueueDisciplineChoice queue_discipline;
  // Empty: unlimited. t: a packet that waited longer than t in the queue is dropped
  // (lifetime_expired) when the MAC would take it (docs/mac.md).
  std::optional<Time> queue_lifetime;
  Deferral deferral = Deferral::standard;
  Dequeue dequeue = Dequeue::at_access;
  ImmediateAccess immediate_access = ImmediateAccess::standard;
  CwAfterDrop cw_after_drop = CwAfterDrop::reset;
  RetryCounts retry_counts = RetryCounts::reset_on_cts;
  QueueLifetimeRule queue_lifetime_rule = QueueLifetimeRule::when_taken;
  std::array<EdcaParams, 4> access_categories{};  // edca only, by AccessCategory
  const EdcaParams& ac(AccessCategory c) const {
    return access_categories[static_cast<std::size_t>(c)];
  }
};

struct MacSection {
  MacType type = MacType::dcf;
  MacParams params;  // scenario-wide values; each radio refers to its resolved ones (RadioConfig::mac)
};

inline constexpr std::array<EnumName<Deferral>, 4> kDeferrals{
    {{"standard", Deferral::standard}, {"ns2", Deferral::ns2}, {"ns3", Deferral::ns3}, {"phy_idle", Deferral::phy_idle}}};
inline constexpr std::array<EnumName<ImmediateAccess>, 2> kImmediateAccesses{
    {{"standard", ImmediateAccess::standard}, {"ns3", ImmediateAccess::ns3}}};
inline constexpr std::array<EnumName<CwAfterDrop>, 2> kCwAfterDrops{
    {{"reset", CwAfterDrop::reset}, {"ns3", CwAfterDrop::ns3}}};
inline constexpr std::array<EnumName<RetryCounts>, 3> kRetryCounts{
    {{"reset_on_cts", RetryCounts::reset_on_cts}, {"per_mpdu", RetryCounts::per_mpdu}, {"ns3", RetryCounts::ns3}}};
inline constexpr std::array<EnumName<QueueLifetimeRule>, 3> kQueueLifetimeRules{
    {{"when_taken", QueueLifetimeRule::when_taken},
     {"ns3", QueueLifetimeRule::ns3},
     {"standard", QueueLifetimeRule::standard}}};
inline constexpr std::array<EnumName<Dequeue>, 3> kDequeues{
    {{"at_access", Dequeue::at_access}, {"after_exchange", Dequeue::after_exchange}, {"ns3", Dequeue::ns3}}};
inline constexpr std::array<EnumName<MacType>, 2> kMacTypes{
    {{"dcf", MacType::dcf}, {"edca", MacType::edca}}};
inline constexpr std::array<EnumName<AccessCategory>, 4> kAccessCategories{
    {{"ac_bk", AccessCategory::ac_bk},
     {"ac_be", AccessCategory::ac_be},
     {"ac_vi", AccessCategory::ac_vi},
     {"ac_vo", AccessCategory::ac_vo}}};
// The UP-to-AC mapping of IEEE 802.11-2012 9.2.4.2, Table 9-1: UP 1 and 2 to AC_BK,
// 0 and 3 to AC_BE, 4 and 5 to AC_VI, 6 and 7 to AC_VO.
constexpr AccessCategory access_category_of(std::uint8_t user_priority) {
  constexpr std::array<AccessCategory, 8> kByPriority{AccessCategory::ac_be, AccessCategory::ac_bk,
                                                      AccessCategory::ac_bk, AccessCategory::ac_be,
                                                      AccessCategory::ac_vi, AccessCategory::ac_vi,
                                                      AccessCategory::ac_vo, AccessCategory::ac_vo};
  return kByPriority[user_priority & 7u];
}
// A user priority that maps to `ac` (Table 9-1's first-listed UP per category: BK 1,
// BE 0, VI 5, VO 6); what a transport tags a flow's packets with when the scenario
// names the category.
constexpr std::uint8_t user_priority_of(AccessCategory ac) {
  constexpr std::array<std::uint8_t, 4> kByCategory{1, 0, 5, 6};  // by AccessCategory
  return kByCategory[static_cast<std::size_t>(ac)];
}

constexpr std::string_view to_string(MacType v) { return enum_name(names(kMacTypes), v); }
constexpr std::string_view to_string(AccessCategory v) { return enum_name(names(kAccessCategories), v); }

}  // namespace wmnsim
