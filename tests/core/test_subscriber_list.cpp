// SubscriberList: subscribers told in the order they subscribed, one or many;
// changes to the list refused while it is being told, nested telling allowed.
#include "core/subscriber_list.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

struct Listener {
  static constexpr const char* kHookName = "a listener";
  char name;
  std::vector<char>* log;
  void hear() const { log->push_back(name); }
};

TEST(SubscriberList, EmptyTellsNobody) {
  SubscriberList<Listener> list;
  int calls = 0;
  list.tell([&](Listener&) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(list.empty());
}

TEST(SubscriberList, OneOrManyInSubscriptionOrder) {
  std::vector<char> log;
  Listener a{'a', &log}, b{'b', &log}, c{'c', &log};
  SubscriberList<Listener> list;
  list.subscribe(b);
  list.tell([](Listener& l) { l.hear(); });
  list.subscribe(a);
  list.subscribe(c);
  EXPECT_EQ(list.size(), 3u);
  list.tell([](Listener& l) { l.hear(); });
  list.unsubscribe(a);
  list.tell([](Listener& l) { l.hear(); });
  EXPECT_EQ(log, (std::vector<char>{'b', 'b', 'a', 'c', 'b', 'c'}));
}

TEST(SubscriberList, UnsubscribingOneNeverSubscribedChangesNothing) {
  std::vector<char> log;
  Listener a{'a', &log}, b{'b', &log};
  SubscriberList<Listener> list;
  list.subscribe(a);
  list.unsubscribe(b);
  EXPECT_EQ(list.size(), 1u);
}

TEST(SubscriberList, ChangesWhileTellingAreRefused) {
  std::vector<char> log;
  Listener a{'a', &log}, b{'b', &log};
  SubscriberList<Listener> list;
  list.subscribe(a);
  for (const std::size_t subscribers : {1u, 2u}) {
    if (subscribers == 2) list.subscribe(b);
    bool refused_subscribe = false, refused_unsubscribe = false;
    list.tell([&](Listener& l) {
      try {
        list.subscribe(b);
      } catch (const std::logic_error& e) {
        refused_subscribe = std::string(e.what()).find("a listener subscribed") != std::string::npos;
      }
      try {
        list.unsubscribe(l);
      } catch (const std::logic_error&) {
        refused_unsubscribe = true;
      }
    });
    EXPECT_TRUE(refused_subscribe);
    EXPECT_TRUE(refused_unsubscribe);
    EXPECT_EQ(list.size(), subscribers);
  }
}

TEST(SubscriberList, NestedTellingIsAllowedAndTheGuardEndsWithIt) {
  std::vector<char> log;
  Listener a{'a', &log};
  SubscriberList<Listener> list;
  list.subscribe(a);
  bool nested = false;
  list.tell([&](Listener& l) {
    l.hear();
    if (!nested) {
      nested = true;
      list.tell([](Listener& inner) { inner.hear(); });
    }
  });
  EXPECT_EQ(log, (std::vector<char>{'a', 'a'}));
  // A subscriber that throws leaves the list open to changes again.
  EXPECT_THROW(list.tell([](Listener&) { throw std::runtime_error("subscriber failed"); }), std::runtime_error);
  list.unsubscribe(a);
  EXPECT_TRUE(list.empty());
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
