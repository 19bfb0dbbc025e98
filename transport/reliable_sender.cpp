#include "transport/reliable_sender.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace wmnsim::transport {

void append_connection_statistics(std::vector<FlowStatistic>& out, const ReliableSenderStats& stats, Time start) {
  out.push_back({"syn_retransmissions", stats.syn_retransmissions});
  out.push_back({"fin_retransmissions", stats.fin_retransmissions});
  // NaN (null in the results) for a connection that never opened, so the column is
  // there whatever happened.
  out.push_back({"handshake_s", stats.established_at ? (*stats.established_at - start).to_seconds()
                                                      : std::numeric_limits<double>::quiet_NaN()});
}

void check_reliable_sender_config(const ReliableSenderConfig& config) {
  const std::string protocol(config.protocol);
  if (config.mss == 0) throw std::invalid_argument(protocol + " MSS must be at least one byte");
  if (config.window_packets == 0) throw std::invalid_argument(protocol + " window must be at least one segment");
  if (config.application == TcpApplication::finite && config.finite_bytes == 0) {
    throw std::invalid_argument("a finite " + protocol + " transfer needs at least one byte");
  }
}

void throw_snd_nxt_outside(std::uint64_t seq, std::uint64_t una, std::uint64_t max) {
  throw std::logic_error("SND.NXT " + std::to_string(seq) + " outside [SND.UNA " + std::to_string(una) +
                         ", highest byte sent " + std::to_string(max) + "]");
}

}  // namespace wmnsim::transport
