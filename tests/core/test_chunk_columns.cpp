// EventStore::for_each_chunk splits a range of events into runs of one chunk each, and
// the stats (which read a chunk's columns at a time, and mark goroutines without asking
// whether they were seen) count the goroutines and procs that a plain loop over
// every event counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

constexpr size_t kChunk = size_t{1} << 16;

// The runs for_each_chunk gives over [begin, end), checked to lie in one chunk each and
// to read as the store does.
std::vector<std::pair<size_t, size_t>> runs(const EventStore& s, size_t begin, size_t end) {
  std::vector<std::pair<size_t, size_t>> out;
  s.for_each_chunk(begin, end, [&](const EventStore::ChunkColumns& col, size_t from, size_t to) {
    out.push_back({from, to});
    CHECK(from < to);
    CHECK(from / kChunk == (to - 1) / kChunk);
    CHECK(col.end() >= to);
    for (size_t i : {from, (from + to) / 2, to - 1}) {
      CHECK(col.time(i) == s.time(i));
      CHECK(col.type(i) == s.type(i));
      CHECK(col.goroutine(i) == s.goroutine(i));
      CHECK(col.ab(i) == s.ab(i));
    }
  });
  return out;
}

}  // namespace

TEST_CASE("for_each_chunk gives a range's events in runs of one chunk", "[store]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-workload.trace")));
  REQUIRE(r.ok());
  const EventStore& s = r.store;
  REQUIRE(s.size() > 2 * kChunk + 10);

  std::vector<std::pair<size_t, size_t>> chunks;  // every chunk, the last one partial
  for (size_t k = 0; k < s.size(); k += kChunk) chunks.push_back({k, std::min(s.size(), k + kChunk)});
  REQUIRE(s.size() % kChunk != 0);
  CHECK(runs(s, 0, s.size()) == chunks);
  CHECK(runs(s, 5, kChunk - 1) == std::vector<std::pair<size_t, size_t>>{{5, kChunk - 1}});
  CHECK(runs(s, kChunk - 3, kChunk + 4) ==
        std::vector<std::pair<size_t, size_t>>{{kChunk - 3, kChunk}, {kChunk, kChunk + 4}});
  CHECK(runs(s, 2 * kChunk, 2 * kChunk + 1) == std::vector<std::pair<size_t, size_t>>{{2 * kChunk, 2 * kChunk + 1}});
  CHECK(runs(s, 7, 7).empty());
  // The first event past a chunk is where the next begins, or the store's end.
  CHECK(s.columns(kChunk + 9).end() == 2 * kChunk);
  CHECK(s.columns(s.size() - 1).end() == s.size());
}

TEST_CASE("stats count the goroutines and procs the events name", "[store]") {
  using namespace v2;
  std::vector<std::string> paths;
  for (const std::string& name : corpus_traces({"go1*", "fmt_1_21_pprof_good"})) paths.push_back(corpus_path(name + ".trace"));
  REQUIRE(paths.size() >= 4);
  size_t multi_chunk = 0;
  for (const std::string& path : paths) {
    INFO(path);
    ReadResult r = read_trace(read_bytes(path));
    const EventStore& s = r.store;
    std::set<GoID> goroutines;
    std::set<uint64_t> procs;
    for (const auto& [m, p] : s.thread_procs())
      if (p != kNoProc && p < 1000000) procs.insert(static_cast<uint64_t>(p));
    for (size_t i = 0; i < s.size(); i++) {
      if (s.goroutine(i) != kNoGoroutine) goroutines.insert(s.goroutine(i));
      switch (s.type(i)) {
        case EvGoCreate: case EvGoCreateBlocked: case EvGoCreateSyscall: case EvGoStatus: case EvGoStatusStack:
        case EvGoStart: case EvGoUnblock:
          goroutines.insert(static_cast<GoID>(s.ab(i)));
          break;
        case EvProcStart: case EvProcStatus: case EvProcSteal:
          procs.insert(s.ab(i));
          break;
      }
    }
    for (const Context& c : s.wide_contexts())
      if (c.p != kNoProc && c.p < 1000000) procs.insert(static_cast<uint64_t>(c.p));
    const TraceStats st = compute_stats(r);
    CHECK(st.goroutines == goroutines.size());
    CHECK(st.procs == procs.size());
    CHECK(st.goroutines > 1);
    multi_chunk += s.size() > kChunk;
  }
  CHECK(multi_chunk >= 2);
}
