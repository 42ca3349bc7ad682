// SmallVector: the summaries' short lists, inline up to N elements and on the heap past.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include "gotrace/small_vector.h"

using gotrace::SmallVector;

namespace {

struct Entry {
  uint32_t name = 0;
  int64_t ns = 0;
  bool operator==(const Entry&) const = default;
};

template <class V>
std::vector<int64_t> values(const V& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

}  // namespace

TEST_CASE("SmallVector keeps N elements inline and moves to the heap past them") {
  SmallVector<int64_t, 2> v;
  CHECK(v.empty());
  CHECK(v.capacity() == 2);
  v.push_back(1);
  v.push_back(2);
  CHECK(v.capacity() == 2);  // still inline
  const int64_t* inline_data = v.data();
  v.push_back(3);
  CHECK(v.capacity() > 2);
  CHECK(v.data() != inline_data);
  for (int64_t i = 4; i <= 100; i++) v.push_back(i);
  REQUIRE(v.size() == 100);
  for (uint32_t i = 0; i < v.size(); i++) CHECK(v[i] == static_cast<int64_t>(i + 1));
  CHECK(v.front() == 1);
  CHECK(v.back() == 100);
  v.pop_back();
  CHECK(v.back() == 99);
  v.clear();
  CHECK(v.empty());
  CHECK(v.capacity() > 2);  // keeps its memory
}

TEST_CASE("SmallVector push_back of its own element while full") {
  SmallVector<int64_t, 1> v;
  v.push_back(7);
  v.push_back(v[0]);  // grows: the argument lives in the memory being replaced
  v.push_back(v[1]);
  CHECK(values(v) == std::vector<int64_t>{7, 7, 7});
}

TEST_CASE("SmallVector copies and moves, inline and on the heap") {
  for (int n : {0, 1, 2, 3, 40}) {
    SmallVector<Entry, 2> a;
    for (int i = 0; i < n; i++) a.push_back({static_cast<uint32_t>(i), i * 10});
    SmallVector<Entry, 2> copy(a);
    CHECK(copy == a);
    if (n > 0) {
      copy[0].ns = -1;  // copies do not share elements
      CHECK(a[0].ns == 0);
    }

    SmallVector<Entry, 2> assigned;
    assigned.push_back({99, 99});
    assigned = a;
    CHECK(assigned == a);

    SmallVector<Entry, 2> moved(std::move(copy));
    CHECK(moved.size() == static_cast<size_t>(n));
    CHECK(copy.empty());  // NOLINT: a moved-from vector is empty
    copy.push_back({1, 1});  // and usable
    CHECK(copy.size() == 1);

    SmallVector<Entry, 2> target;
    for (int i = 0; i < 5; i++) target.push_back({0, 0});  // on the heap, replaced
    target = std::move(moved);
    CHECK(target.size() == static_cast<size_t>(n));
    for (int i = 0; i < n; i++) CHECK(target[i].ns == (i == 0 ? -1 : i * 10));

    const SmallVector<Entry, 2>& same = assigned;
    assigned = same;  // self-assignment keeps the elements
    CHECK(assigned == a);
  }
}

TEST_CASE("SmallVector erase, resize, reserve and the algorithms of the summaries") {
  SmallVector<int64_t, 1> v{5, 3, 5, 1, 3, 3};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  CHECK(values(v) == std::vector<int64_t>{1, 3, 5});
  v.erase(v.begin());
  CHECK(values(v) == std::vector<int64_t>{3, 5});
  v.resize(4);
  CHECK(values(v) == std::vector<int64_t>{3, 5, 0, 0});
  v.resize(1);
  CHECK(values(v) == std::vector<int64_t>{3});
  v.reserve(1000);
  CHECK(v.capacity() >= 1000);
  CHECK(values(v) == std::vector<int64_t>{3});

  SmallVector<int64_t, 1> other{3};
  CHECK(v == other);
  other.push_back(4);
  CHECK(!(v == other));

  std::span<const int64_t> view = other;
  CHECK(view.size() == 2);
  CHECK(view[1] == 4);
}
