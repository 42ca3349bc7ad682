// The id map of the analyses' hot loops: an array for small ids, a hash map beyond.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <utility>
#include <vector>

#include "gotrace/id_map.h"

using gotrace::IdMap;

TEST_CASE("the id map behaves as a map for every id", "[analysis]") {
  constexpr uint32_t kNone = ~0u;
  IdMap<uint32_t, kNone> m;
  std::map<int64_t, uint32_t> want;
  std::mt19937_64 rnd(1);
  const int64_t ids[] = {0, 1, 2, 1023, 1024, 100000, -1, INT64_MIN, INT64_MAX, int64_t{1} << 24, (int64_t{1} << 24) - 1};
  for (int step = 0; step < 20000; step++) {
    int64_t id = step % 3 == 0 ? ids[rnd() % std::size(ids)] : static_cast<int64_t>(rnd() % 5000) - 100;
    switch (rnd() % 3) {
      case 0:
        m.set(id, static_cast<uint32_t>(step));
        want[id] = static_cast<uint32_t>(step);
        break;
      case 1:
        m.erase(id);
        want.erase(id);
        break;
      default: {
        auto it = want.find(id);
        CHECK(m.get(id) == (it == want.end() ? kNone : it->second));
      }
    }
  }
  std::map<int64_t, uint32_t> seen;
  m.for_each([&](int64_t id, uint32_t v) { seen[id] = v; });
  CHECK(seen == want);
  // In order: negative ids first (outside the array), then the array, then large ids.
  std::vector<std::pair<int64_t, uint32_t>> in_order;
  m.for_each_in_order([&](int64_t id, uint32_t v) { in_order.push_back({id, v}); });
  CHECK(in_order == std::vector<std::pair<int64_t, uint32_t>>(want.begin(), want.end()));
  REQUIRE(want.count(-1) + want.count(INT64_MIN) > 0);
  REQUIRE(want.count(INT64_MAX) + want.count(int64_t{1} << 24) > 0);
}
