// The index of wake edges against the timeline's own edge query: for every goroutine of
// real traces, over its lifetime and over the whole trace, the index counts what
// counting query_wake_edges' unsampled edges gives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <vector>

#include "corpus.h"
#include "gotrace/analysis/wake_index.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

bool same(const std::vector<WakeCount>& a, const std::vector<WakeCount>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const WakeCount& x, const WakeCount& y) {
    return x.goroutine == y.goroutine && x.count == y.count && x.first == y.first;
  });
}

// The edges of `all` at `at` (in order), with what count_wakeups reads.
WakeEdges subset(const WakeEdges& all, const std::vector<size_t>& at) {
  WakeEdges out;
  for (size_t i : at) {
    out.goroutine.push_back(all.goroutine[i]);
    out.from_goroutine.push_back(all.from_goroutine[i]);
    out.from_time.push_back(all.from_time[i]);
    out.to_time.push_back(all.to_time[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("the wake index counts the timeline's wake edges", "[timeline][wakes][corpus]") {
  for (std::string name : {"go123-stress", "go122-workload", "go123-workload", "go121-workload"}) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      TimelineIndex index = build_timeline_index(r.store);
      WakeIndex wakes = build_wake_index(r.store);
      const Time from = index.start(), to = index.end() + 1;
      WakeEdges all = query_wake_edges(index, {from, to, 1000}, 1u << 30);
      REQUIRE_FALSE(all.sampled);
      CHECK(wakes.edges() == all.size());
      REQUIRE(all.size() > 100);

      // Every goroutine that woke or was woken, over the whole trace.
      std::vector<int64_t> gs(all.goroutine.begin(), all.goroutine.end());
      gs.insert(gs.end(), all.from_goroutine.begin(), all.from_goroutine.end());
      std::sort(gs.begin(), gs.end());
      gs.erase(std::unique(gs.begin(), gs.end()), gs.end());
      // Counting a goroutine's wake-ups reads only the edges into it or from it: each
      // goroutine's, in order, so that counting every goroutine's is not quadratic.
      std::map<int64_t, std::vector<size_t>> touching;
      for (size_t i = 0; i < all.size(); i++) {
        touching[all.goroutine[i]].push_back(i);
        if (all.from_goroutine[i] != all.goroutine[i]) touching[all.from_goroutine[i]].push_back(i);
      }
      size_t listed = 0;
      for (int64_t g : gs) {
        WakeCounts want = count_wakeups(subset(all, touching[g]), g), got = wakes.count(g, from, to);
        CHECK(same(got.woken_by, want.woken_by));
        CHECK(same(got.woke, want.woke));
        listed += got.woken_by.size() + got.woke.size();
      }
      CHECK(listed > 0);

      // Narrower ranges: the middle third of the trace and a few short windows in it.
      const Time third = (to - from) / 3;
      for (Time a : {from + third, from + third + third / 7, from + 2 * third - 1000}) {
        for (Time len : {third, third / 50, Time{10'000}}) {
          WakeEdges some = query_wake_edges(index, {a, a + len, 1000}, 1u << 30);
          for (size_t k = 0; k < gs.size(); k += std::max<size_t>(1, gs.size() / 300)) {
            WakeCounts want = count_wakeups(some, gs[k]), got = wakes.count(gs[k], a, a + len);
            CHECK(same(got.woken_by, want.woken_by));
            CHECK(same(got.woke, want.woke));
          }
        }
      }
    }
  }
  CHECK(WakeIndex{}.count(1, 0, 100).woken_by.empty());
}
