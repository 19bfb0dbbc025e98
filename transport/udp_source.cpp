#include "transport/udp_source.hpp"

#include <stdexcept>
#include <utility>

#include "transport/header_sizes.hpp"

namespace wmnsim::transport {

UdpSource::UdpSource(Scheduler& scheduler, PacketPool& pool, PacketSink& network, UdpSourceConfig config,
                     RandomStream arrivals)
    : scheduler_(scheduler), pool_(pool), network_(network), config_(std::move(config)) {
  if (config_.payload_bytes == 0) throw std::invalid_argument("UDP payload must be at least one byte");
  if (saturated()) {
    if (active(config_.start)) {
      start_ = scheduler_.schedule_at(config_.start, [this] { push_backlog(config_.initial_backlog); });
    }
  } else {
    generator_ = std::make_unique<TrafficGenerator>(scheduler_, static_cast<TrafficGenerator::Consumer&>(*this), config_.traffic, config_.payload_bytes,
                                                    config_.start, config_.stop, std::move(arrivals));
  }
}

UdpSource::~UdpSource() { scheduler_.cancel(start_); }

bool UdpSource::active(Time now) const {
  return now >= config_.start && (!config_.stop || now < *config_.stop);
}

PacketPtr UdpSource::make_datagram(Time now) {
  PacketPtr p = pool_.make(now);
  p->src = config_.address.src;
  p->dst = config_.address.dst;
  p->flow = config_.address.flow;
  p->size_bytes = kUdpIpHeaderBytes + config_.payload_bytes;
  p->user_priority = config_.user_priority;
  p->transport.seq = stats_.packets_sent;
  p->transport.payload_bytes = config_.payload_bytes;
  ++stats_.packets_sent;
  stats_.payload_bytes_sent += config_.payload_bytes;
  return p;
}

PacketPtr UdpSource::pull(Time now) {
  if (!saturated() || !active(now)) return nullptr;
  return make_datagram(now);
}

std::size_t UdpSource::push_backlog(std::size_t n) {
  const Time now = scheduler_.now();
  if (!saturated() || !active(now)) return 0;
  for (std::size_t i = 0; i < n; ++i) network_.receive(make_datagram(now));
  return n;
}

void UdpSource::on_application_data(std::uint32_t /*bytes*/) { network_.receive(make_datagram(scheduler_.now())); }

}  // namespace wmnsim::transport
