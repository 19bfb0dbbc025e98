// UdpFlow and TcpFlow seen through transport::FlowEndpoint, over wired links:
// what the results and samplers read is what the endpoints counted.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/packet.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "link/wired_link.hpp"
#include "tcp_test_bed.hpp"
#include "transport/flow_endpoint.hpp"
#include "transport/tcp_flow.hpp"
#include "transport/udp_flow.hpp"

namespace wmnsim::transport {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace time_literals;
using testing::Forwarder;
using testing::IgnoreDrops;

RandomStream arrivals() { return RandomStreams(7).stream("flow", 0, "arrivals"); }

std::vector<std::string> names(const FlowEndpoint& e) {
  std::vector<std::string> out;
  for (const FlowStatistic& s : e.statistics()) out.emplace_back(s.name);
  return out;
}

std::uint64_t count(const FlowEndpoint& e, std::string_view name) {
  for (const FlowStatistic& s : e.statistics()) {
    if (s.name == name) return std::get<std::uint64_t>(s.value);
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

// Data over `forward`, ACKs over `reverse`: 10 Mbit/s, 10 ms each way.
struct TcpFlowBed {
  explicit TcpFlowBed(TcpSenderConfig sender, TrafficConfig traffic = {})
      : flow(scheduler, pool, forward, reverse, sender, receiver_config(sender), traffic, arrivals()) {
    to_sender.target = &flow.sender();
    to_receiver.target = &flow.receiver();
  }
  static TcpReceiverConfig receiver_config(const TcpSenderConfig& s) {
    TcpReceiverConfig c = testing::receiver_for(s);
    c.window = MeasurementWindow{Time::zero(), 2_s};
    return c;
  }

  PacketPool pool;
  Scheduler scheduler;
  IgnoreDrops drops;
  Forwarder to_sender, to_receiver;
  link::WiredLink forward{scheduler, 10e6, 10_ms, link::QueueLimit{link::QueueLimit::Unit::packets, 100}, to_receiver, drops};
  link::WiredLink reverse{scheduler, 10e6, 10_ms, link::QueueLimit{link::QueueLimit::Unit::packets, 100}, to_sender, drops};
  TcpFlow flow;
};

TEST(FlowEndpoints, TcpFlowAnswersFromItsSenderAndReceiver) {
  TcpFlowBed bed(testing::bulk_sender());
  const FlowEndpoint& e = bed.flow;
  ASSERT_EQ(e.series().size(), 2u);
  EXPECT_EQ(e.series()[0].name, "tcp_cwnd");
  EXPECT_EQ(e.series()[0].unit, "segments");
  EXPECT_EQ(e.series()[1].name, "flow_rtt");
  EXPECT_EQ(e.series()[1].unit, "s");
  EXPECT_FALSE(e.sample("flow_rtt").has_value());  // no RTT sample yet
  bed.scheduler.run_until(2_s);

  const TcpSender& s = bed.flow.sender();
  const TcpReceiver& r = bed.flow.receiver();
  EXPECT_GT(s.stats().segments_sent, 100u);
  EXPECT_EQ(e.packets_sent(), s.stats().segments_sent);
  EXPECT_EQ(e.payload_bytes_delivered(), r.stats().delivered_bytes);
  EXPECT_GT(e.goodput_bps(), 1e6);
  EXPECT_EQ(e.goodput_bps(), r.goodput_bps());
  EXPECT_EQ(names(e), (std::vector<std::string>{"retransmissions", "timeouts"}));
  EXPECT_EQ(count(e, "retransmissions"), s.stats().retransmissions);
  EXPECT_EQ(count(e, "timeouts"), s.stats().timeouts);
  EXPECT_EQ(e.sample("tcp_cwnd"), static_cast<double>(s.cwnd_bytes()) / 1460.0);
  ASSERT_TRUE(s.rtt().has_sample());
  EXPECT_EQ(e.sample("flow_rtt"), s.rtt().srtt().to_seconds());
  EXPECT_GT(*e.sample("flow_rtt"), 0.020);  // two 10 ms links and serialization
  EXPECT_FALSE(e.sample("wccp_rate").has_value());  // not offered
}

TEST(FlowEndpoints, TcpFlowFeedsPacedTrafficToItsSender) {
  TrafficConfig cbr;
  cbr.type = TrafficType::cbr;
  cbr.packet_interval = 100_ms;
  TcpSenderConfig c = testing::bulk_sender();
  c.application = TcpApplication::written;
  c.stop = 1_s;
  TcpFlowBed bed(c, cbr);
  bed.scheduler.run_until(2_s);
  // One MSS at 0, 100, ..., 900 ms, every one delivered over the lossless links.
  EXPECT_EQ(bed.flow.packets_sent(), 10u);
  EXPECT_EQ(bed.flow.payload_bytes_delivered(), 10u * 1460u);
  EXPECT_EQ(count(bed.flow, "retransmissions"), 0u);
}

struct UdpFlowBed {
  explicit UdpFlowBed(const UdpSourceConfig& c)
      : flow(scheduler, pool, link, c, arrivals(), MeasurementWindow{Time::zero(), 1_s}) {
    to_sink.target = &flow.sink();
  }

  PacketPool pool;
  Scheduler scheduler;
  IgnoreDrops drops;
  Forwarder to_sink;
  link::WiredLink link{scheduler, 10e6, 1_ms, link::QueueLimit{link::QueueLimit::Unit::packets, 100}, to_sink, drops};
  UdpFlow flow;
};

UdpSourceConfig udp_config(TrafficType type) {
  UdpSourceConfig c;
  c.address = FlowAddress{0, 1, 2};
  c.payload_bytes = 1000;
  c.traffic.type = type;
  c.traffic.packet_interval = 10_ms;
  return c;
}

TEST(FlowEndpoints, UdpFlowAnswersFromItsSourceAndSink) {
  UdpFlowBed bed(udp_config(TrafficType::cbr));
  bed.scheduler.run_until(Time::from_seconds(1.495));
  const FlowEndpoint& e = bed.flow;
  // Sent every 10 ms from 0; the window [0, 1 s) holds the first 100.
  EXPECT_EQ(e.packets_sent(), 150u);
  EXPECT_EQ(e.payload_bytes_delivered(), 150u * 1000u);
  EXPECT_DOUBLE_EQ(e.goodput_bps(), 100 * 1000 * 8.0);
  EXPECT_EQ(names(e), (std::vector<std::string>{"retransmissions", "timeouts"}));
  EXPECT_EQ(count(e, "retransmissions"), 0u);
  EXPECT_EQ(count(e, "timeouts"), 0u);
  EXPECT_TRUE(e.series().empty());
  EXPECT_FALSE(e.sample("tcp_cwnd").has_value());
}

TEST(FlowEndpoints, SaturatedUdpFlowRefillsWhenItsNodeAsks) {
  UdpSourceConfig c = udp_config(TrafficType::saturated);
  c.start = 1_ms;
  c.initial_backlog = 3;
  UdpFlowBed bed(c);
  bed.flow.backlog().refill();  // before start: nothing
  EXPECT_EQ(bed.flow.packets_sent(), 0u);
  bed.scheduler.run_until(2_ms);
  EXPECT_EQ(bed.flow.packets_sent(), 3u);  // the initial backlog
  bed.flow.backlog().refill();
  EXPECT_EQ(bed.flow.packets_sent(), 4u);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::transport
