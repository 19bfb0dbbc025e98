// The `routing` section's AODV parameters (RFC 3561 Sec. 10), each a key with the
// RFC's default (core/aodv_params.hpp; docs/aodv.md lists them with ns-2's values).

#include <string>

#include "scenario/scenario_parse.hpp"

namespace wmnsim::scenario_detail {

void parse_aodv(JsonReader& r, AodvParams& p, IssueSink& issues) {
  // Hop counts and TTLs live in 8-bit fields (RFC 3561 Sec. 5, RFC 791's TTL).
  constexpr std::int64_t kMaxHops = 255;
  const NumberRange timeout = NumberRange::open_closed(0.0, 3600.0);
  p.active_route_timeout = r.seconds_or("active_route_timeout_s", p.active_route_timeout, timeout);
  p.net_diameter = r.integer_or("net_diameter", p.net_diameter, 1, kMaxHops);
  p.node_traversal_time = r.seconds_or("node_traversal_time_s", p.node_traversal_time, NumberRange::open_closed(0.0, 10.0));
  p.rreq_retries = r.integer_or("rreq_retries", p.rreq_retries, 0, 16);
  p.ttl_start = r.integer_or("ttl_start", p.ttl_start, 1, kMaxHops);
  p.ttl_increment = r.integer_or("ttl_increment", p.ttl_increment, 1, kMaxHops);
  p.ttl_threshold = r.integer_or("ttl_threshold", p.ttl_threshold, 1, kMaxHops);
  p.timeout_buffer = r.integer_or("timeout_buffer", p.timeout_buffer, 0, kMaxHops);
  p.hello = r.boolean_or("hello", p.hello);
  p.hello_interval = r.seconds_or("hello_interval_s", p.hello_interval, timeout);
  p.allowed_hello_loss = r.integer_or("allowed_hello_loss", p.allowed_hello_loss, 1, 100);
  p.buffer_packets = r.integer_or("buffer_packets", p.buffer_packets, 1, 1'000'000);
  p.buffer_timeout = r.seconds_or("buffer_timeout_s", p.buffer_timeout, NumberRange::open_closed(0.0, 1e6));
  p.broadcast_jitter = r.seconds_or("broadcast_jitter_s", p.broadcast_jitter, NumberRange::closed(0.0, 1.0));
  if (p.ttl_start > p.net_diameter) {
    issues.add(r.path_of("ttl_start"), "must not exceed net_diameter (" + std::to_string(p.net_diameter) +
                                           "): the expanding ring search never goes beyond the network");
  }
  if (!p.hello) {
    for (const char* key : {"hello_interval_s", "allowed_hello_loss"}) {
      if (r.has(key)) issues.add(r.path_of(key), "applies only with \"hello\": true (RFC 3561 6.9)");
    }
  }
}

}  // namespace wmnsim::scenario_detail
