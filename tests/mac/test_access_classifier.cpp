// The EDCA classifier's rules, first match wins: packet tag, flow rule, pure-ACK
// rule, default.

#include "mac/access_classifier.hpp"

#include <gtest/gtest.h>

#include "tests/core/test_packets.hpp"

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using test::tcp_packet;

TEST(AccessClassifier, RulesInOrder) {
  AccessClassifier c;
  EXPECT_EQ(c.classify(tcp_packet(1, false)), AccessCategory::ac_be);  // default
  EXPECT_EQ(c.classify(tcp_packet(1, true)), AccessCategory::ac_be);

  c.set_pure_ack_category(AccessCategory::ac_vo);  // 002: TCP ACKs to their own category
  EXPECT_EQ(c.classify(tcp_packet(1, true)), AccessCategory::ac_vo);
  EXPECT_EQ(c.classify(tcp_packet(1, false)), AccessCategory::ac_be);

  c.set_flow_category(1, AccessCategory::ac_vi);  // a per-flow rule beats the ACK rule
  EXPECT_EQ(c.classify(tcp_packet(1, true)), AccessCategory::ac_vi);
  EXPECT_EQ(c.classify(tcp_packet(2, true)), AccessCategory::ac_vo);

  Packet tagged = tcp_packet(1, true);
  tagged.user_priority = user_priority_of(AccessCategory::ac_bk);  // the transport's tag beats everything
  EXPECT_EQ(c.classify(tagged), AccessCategory::ac_bk);

  c.clear_flow_category(1);
  c.set_default_category(AccessCategory::ac_vi);
  EXPECT_EQ(c.classify(tcp_packet(1, false)), AccessCategory::ac_vi);
  EXPECT_EQ(c.classify(tcp_packet(1, true)), AccessCategory::ac_vo);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
