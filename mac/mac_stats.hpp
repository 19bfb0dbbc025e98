#pragma once
// What a MAC counts. Cumulative since the start; interval figures are differences
// of two snapshots (the metrics layer samples at every measurement interval).

#include <cstdint>

#include "core/time.hpp"

namespace wmnsim::mac {

struct MacStats {
  std::uint64_t data_attempts = 0;        // DATA transmissions, first attempts and retries
  std::uint64_t data_retries = 0;         // of which retransmissions (Retry bit set)
  std::uint64_t rts_attempts = 0;
  std::uint64_t tx_success = 0;           // unicast DATA acknowledged, plus broadcasts sent
  std::uint64_t broadcasts = 0;           // of which broadcasts (never acknowledged)
  std::uint64_t failed_attempts = 0;      // "collisions seen": an awaited CTS or ACK did not come
  std::uint64_t internal_collisions = 0;  // EDCA: a lower category lost to a higher one in the station
  std::uint64_t drops_retry_limit = 0;    // packets given up after the short or long retry limit
  std::uint64_t drops_lifetime_in_service = 0;  // frames in service dropped at an access once
                                                // expired (QueueLifetimeRule::ns3)
  std::uint64_t acks_sent = 0;
  std::uint64_t cts_sent = 0;
  std::uint64_t rx_data = 0;              // DATA frames for this radio (or broadcast) delivered up
  std::uint64_t rx_duplicates = 0;        // frames 9.3.2.10 takes for retransmissions (acked, not delivered),
                                          // the false ones (a new packet: drops_false_duplicate) included
  std::uint64_t rx_errors = 0;            // frames locked on and lost (the PHY's errors), EIFS follows
  std::uint64_t txops = 0;                // channel accesses won (TXOPs, one per won backoff)
  std::uint64_t txop_continuations = 0;   // frames sent SIFS after the previous one inside a TXOP
  // Responses refused (frame_exchange.hpp). An RTS for this radio not answered at
  // its end: the station's own exchange, and the NAV (9.3.2.6) or, under
  // `deferral: "ns2"`, ns-2's send timer (recvRTS's tx_state_ check).
  std::uint64_t rts_refused = 0;
  // deferral "ns2" only: a CTS due SIFS after an accepted RTS not sent, the medium
  // not idle then (the NAV, EIFS's included, or a frame being received): ns-2's
  // check_pktCTRL, DROP_MAC_BUSY.
  std::uint64_t cts_refused_busy = 0;
  // deferral "ns2" only: a DATA frame due SIFS after its CTS not sent, the medium not
  // idle then; a new RTS follows a backoff (ns-2's check_pktTx).
  std::uint64_t data_refused_after_cts = 0;
  // Management (action) frames, counted apart from data: none of the DATA counters
  // above (data_attempts, tx_success, broadcasts, drops_retry_limit, rx_data,
  // rx_duplicates) ever counts one. The exchange counters (rts_attempts,
  // failed_attempts, internal_collisions, txops, txop_continuations, acks_sent,
  // cts_sent, rx_errors) count every frame exchange, management ones included.
  std::uint64_t mgmt_attempts = 0;           // transmissions, first attempts and retries
  std::uint64_t mgmt_retries = 0;            // of which retransmissions
  std::uint64_t mgmt_tx_success = 0;         // unicast acknowledged, plus group-addressed sent
  std::uint64_t mgmt_drops_retry_limit = 0;  // given up after the retry limit
  std::uint64_t mgmt_rx = 0;                 // received intact, not duplicates, handed to the node
  std::uint64_t mgmt_rx_duplicates = 0;      // frames 9.3.2.10 takes for retransmissions, false ones included
  std::uint64_t mgmt_rx_false_duplicates = 0;  // of those, new frames after the sender's counter wrapped: lost
  std::uint64_t mgmt_rx_discarded = 0;       // of mgmt_rx, no handler took it
};

}  // namespace wmnsim::mac
