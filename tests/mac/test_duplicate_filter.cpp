// The receive cache of IEEE 802.11-2012 9.3.2.10 (mac/duplicate_filter.hpp).
#include "mac/duplicate_filter.hpp"

#include <gtest/gtest.h>

namespace wmnsim::mac {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

TEST(DuplicateFilter, TellsARetransmissionFromANewMpduWithTheSameNumber) {
  DuplicateFilter f;
  EXPECT_EQ(f.check(7, 0, 1238, true, 5241), SequenceMatch::new_frame);  // nothing cached yet
  EXPECT_EQ(f.check(7, 0, 1238, true, 5241), SequenceMatch::retransmission);
  // 4,096 numbers later: a new MPDU whose first attempt failed.
  EXPECT_EQ(f.check(7, 0, 1238, true, 5243), SequenceMatch::false_duplicate);
  // Its own retransmission is then an ordinary one.
  EXPECT_EQ(f.check(7, 0, 1238, true, 5243), SequenceMatch::retransmission);
}

TEST(DuplicateFilter, OnlyARetriedFrameWithTheCachedNumberMatches) {
  DuplicateFilter f;
  EXPECT_EQ(f.check(7, 0, 10, false, 1), SequenceMatch::new_frame);
  EXPECT_EQ(f.check(7, 0, 10, false, 2), SequenceMatch::new_frame);  // no Retry bit
  EXPECT_EQ(f.check(7, 0, 11, true, 3), SequenceMatch::new_frame);   // another number
  EXPECT_EQ(f.check(8, 0, 11, true, 3), SequenceMatch::new_frame);   // another transmitter
  EXPECT_EQ(f.check(7, 1, 11, true, 3), SequenceMatch::new_frame);   // another category
  EXPECT_EQ(f.check(7, 0, 11, true, 3), SequenceMatch::retransmission);
}

TEST(DuplicateFilter, FramesWithoutAnMpduIdMatchAsRetransmissions) {
  DuplicateFilter f;  // a frame made outside a MAC (a test's) carries none
  EXPECT_EQ(f.check(7, 0xff, 4, false, 0), SequenceMatch::new_frame);
  EXPECT_EQ(f.check(7, 0xff, 4, true, 0), SequenceMatch::retransmission);
  // Either id unknown: never called false.
  EXPECT_EQ(f.check(7, 0, 9, false, 12), SequenceMatch::new_frame);
  EXPECT_EQ(f.check(7, 0, 9, true, 0), SequenceMatch::retransmission);
  EXPECT_EQ(f.check(7, 0, 9, true, 13), SequenceMatch::retransmission);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim::mac
