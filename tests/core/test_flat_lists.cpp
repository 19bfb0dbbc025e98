#include "core/flat_lists.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

std::vector<int> as_vector(std::span<const int> list) { return {list.begin(), list.end()}; }

TEST(FlatLists, ListByListKeepsEachListAndTheEmptyOnes) {
  FlatLists<int> lists;
  EXPECT_EQ(lists.size(), 0u);
  lists.reserve(4, 3);  // room only: no list yet
  EXPECT_EQ(lists.size(), 0u);
  lists.add_list();  // empty
  lists.add_list();
  lists.push_back(3);
  lists.push_back(1);
  lists.add_list();  // empty
  lists.add_list();
  lists.push_back(7);
  lists.shrink_to_fit();
  ASSERT_EQ(lists.size(), 4u);
  EXPECT_EQ(as_vector(lists[0]), std::vector<int>{});
  EXPECT_EQ(as_vector(lists[1]), (std::vector<int>{3, 1}));
  EXPECT_EQ(as_vector(lists[2]), std::vector<int>{});
  EXPECT_EQ(as_vector(lists.at(3)), std::vector<int>{7});
  EXPECT_EQ(as_vector(lists.items()), (std::vector<int>{3, 1, 7}));
  lists[1][0] = 4;  // an item may change in place
  EXPECT_EQ(as_vector(lists[1]), (std::vector<int>{4, 1}));
  EXPECT_EQ(lists.at(1, 1), 1);
  lists.at(3, 0) = 8;
  EXPECT_EQ(lists[3][0], 8);
}

TEST(FlatLists, FromPairsKeepsThePairsOrderWithinEachList) {
  const std::vector<std::pair<std::uint32_t, int>> pairs{{2, 20}, {0, 1}, {2, 21}, {0, 2}, {2, 22}};
  const FlatLists<int> lists = FlatLists<int>::from_pairs(4, pairs);
  ASSERT_EQ(lists.size(), 4u);
  EXPECT_EQ(as_vector(lists[0]), (std::vector<int>{1, 2}));
  EXPECT_EQ(as_vector(lists[1]), std::vector<int>{});
  EXPECT_EQ(as_vector(lists[2]), (std::vector<int>{20, 21, 22}));
  EXPECT_EQ(as_vector(lists[3]), std::vector<int>{});
}

TEST(FlatLists, FromPairsWithNoListsOrNoPairs) {
  // A network without wired links (no lists' items) or without nodes (no lists).
  const std::vector<std::pair<std::uint32_t, int>> none;
  const FlatLists<int> no_lists = FlatLists<int>::from_pairs(0, none);
  EXPECT_EQ(no_lists.size(), 0u);
  EXPECT_TRUE(no_lists.empty());
  EXPECT_TRUE(no_lists.items().empty());
  EXPECT_THROW(no_lists.at(0), std::out_of_range);
  const FlatLists<int> three_empty = FlatLists<int>::from_pairs(3, none);
  ASSERT_EQ(three_empty.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(three_empty[i].empty()) << i;
  const std::vector<std::pair<std::uint32_t, int>> one{{0, 5}};
  EXPECT_THROW(FlatLists<int>::from_pairs(0, one), std::out_of_range);
}

TEST(FlatLists, RefusesListsItDoesNotHold) {
  FlatLists<int> lists;
  EXPECT_THROW(lists.push_back(1), std::logic_error);
  EXPECT_THROW(lists.at(0), std::out_of_range);
  lists.add_list();
  EXPECT_THROW(lists.at(1), std::out_of_range);
  EXPECT_THROW(lists.at(0, 0), std::out_of_range);
  const std::vector<std::pair<std::uint32_t, int>> beyond{{2, 1}};
  EXPECT_THROW(FlatLists<int>::from_pairs(2, beyond), std::out_of_range);
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
