#pragma once
// AODV's parameters (RFC 3561 Sec. 10), as a scenario's `routing` section gives
// them when "type" is "aodv" (docs/aodv.md). Defaults are the RFC's; ns-2's
// AODV (aodv.h, aodv_rqueue.h), which most wireless-mesh papers of the 2000s ran,
// differs where noted, and a scenario reproducing such a paper sets ns-2's value.
// The derived quantities are the RFC's formulas over these.

#include <algorithm>
#include <cstdint>

#include "core/time.hpp"

namespace wmnsim {

struct AodvParams {
  // How long a route stays valid after its last use (RFC: 3000 ms; ns-2: 10 s).
  Time active_route_timeout = Time::ms(3000);
  // The most hops between two nodes (RFC: 35; ns-2: 30).
  std::int64_t net_diameter = 35;
  // A conservative per-hop latency, queueing included (RFC: 40 ms; ns-2: 30 ms).
  Time node_traversal_time = Time::ms(40);
  // Network-wide RREQs after the expanding ring search reaches NET_DIAMETER (RFC: 2; ns-2: 3).
  std::int64_t rreq_retries = 2;
  // Expanding ring search (RFC 6.4): first TTL, step, and the TTL beyond which
  // NET_DIAMETER is used (RFC: 1, 2, 7; ns-2: 5, 2, 7).
  std::int64_t ttl_start = 1;
  std::int64_t ttl_increment = 2;
  std::int64_t ttl_threshold = 7;
  std::int64_t timeout_buffer = 2;  // RING_TRAVERSAL_TIME's allowance for congestion (RFC: 2)
  // HELLO messages (RFC 6.9), off by default: link breaks come from the MAC's
  // retry limit (RFC 6.11 "link layer notification"), as in ns-2's default build
  // (AODV_LINK_LAYER_DETECTION).
  bool hello = false;
  Time hello_interval = Time::ms(1000);  // RFC and ns-2: 1 s
  std::int64_t allowed_hello_loss = 2;   // RFC: 2; ns-2: 3
  // Packets held while a route is discovered (RFC 6.3 leaves the buffer open;
  // ns-2's AODV_RTQ_MAX_LEN and AODV_RTQ_TIMEOUT: 64 packets per node, 30 s).
  std::int64_t buffer_packets = 64;
  Time buffer_timeout = Time::s(30);
  // Rebroadcasts of RREQs and RERRs wait a uniform random time in [0, jitter)
  // (RFC 5148 Sec. 5; ns-2: 10 ms), so neighbours that hear one RREQ together do
  // not send their copies in the same slot. 0: no jitter.
  Time broadcast_jitter = Time::ms(10);

  // RFC 3561 Sec. 10's derived values.
  Time net_traversal_time() const { return node_traversal_time * (2 * net_diameter); }
  Time path_discovery_time() const { return net_traversal_time() * 2; }
  Time my_route_timeout() const { return active_route_timeout * 2; }
  Time ring_traversal_time(std::int64_t ttl) const { return node_traversal_time * (2 * (ttl + timeout_buffer)); }
  // K = 5 times the longer of ACTIVE_ROUTE_TIMEOUT and what HELLOs allow.
  Time delete_period() const {
    return std::max(active_route_timeout, hello ? hello_interval * allowed_hello_loss : Time::zero()) * 5;
  }
};

}  // namespace wmnsim
