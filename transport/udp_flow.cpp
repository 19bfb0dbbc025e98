#include "transport/udp_flow.hpp"

#include <utility>

namespace wmnsim::transport {

UdpFlow::UdpFlow(Scheduler& scheduler, PacketPool& pool, PacketSink& network, const UdpSourceConfig& config,
                 RandomStream arrivals, MeasurementWindow window)
    : source_(scheduler, pool, network, config, std::move(arrivals)), sink_(scheduler, window) {}

std::vector<FlowStatistic> UdpFlow::statistics() const {
  // The results file has these columns for every flow (docs/results.md): a UDP
  // source never sends a datagram twice and runs no retransmission timer.
  return {{"retransmissions", std::uint64_t{0}}, {"timeouts", std::uint64_t{0}}};
}

}  // namespace wmnsim::transport
