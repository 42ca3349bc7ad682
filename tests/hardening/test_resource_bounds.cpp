// Hostile inputs must not make the reader allocate more than a small multiple of the
// input's size, nor do more than linear work: huge ids and counts, deep stacks, giant
// string tables, many generations, and sequence numbers that chain the wrong way.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "allocation_meter.h"
#include "gotrace/reader.h"
#include "trace_builder.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

constexpr uint64_t kNone = ~uint64_t{0};
// Wire event types used below (FORMAT.md §2.8).
enum : uint8_t {
  ProcStatus = 13, GoCreate = 14, GoStart = 16, GoStatus = 25, GCBegin = 29, GCEnd = 30, UserLog = 44,
};
constexpr uint64_t kRunning = 1, kGoRunning = 2;

// Reads the trace and checks what the reader held at its peak against its size.
ReadResult read_bounded(const std::vector<uint8_t>& bytes, size_t factor) {
  AllocationMeter meter;
  ReadResult r = read_trace(bytes);
  INFO("input " << bytes.size() << " bytes, peak allocation " << meter.peak_above_start() << " bytes");
  CHECK(meter.peak_above_start() <= factor * bytes.size() + (4 << 20));
  return r;
}

}  // namespace

TEST_CASE("the allocation meter sees what is allocated", "[hardening]") {
  AllocationMeter meter;
  auto block = std::make_unique<std::vector<uint8_t>>(3 << 20, uint8_t{1});
  CHECK(meter.peak_above_start() >= (3u << 20));
  CHECK(block->back() == 1);
}

TEST_CASE("huge ids cost no memory", "[hardening]") {
  TraceBuilder b;
  const uint64_t big = uint64_t{1} << 62;
  for (uint64_t i = 0; i < 200; i++) {
    b.batch(1, big + i, 0)
        .event(ProcStatus, {1, big + i, kRunning})
        .event(GoStatus, {1, big + 7 * i, big + i, kGoRunning})
        .event(GoCreate, {1, (uint64_t{1} << 61) + i, 0, 0})
        .event(UserLog, {1, big, uint64_t{1} << 60, uint64_t{1} << 59, 0});
  }
  b.strings(1, {{uint64_t{1} << 60, "key"}, {uint64_t{1} << 59, "value"}, {uint64_t{1} << 58, "unused"}});
  b.stacks(1, {{uint64_t{1} << 57, {0x1234, uint64_t{1} << 60, uint64_t{1} << 59, 42}}});
  b.frequency(1);
  ReadResult r = read_bounded(b.bytes(), 64);
  INFO((r.error ? r.error->what() : "ok"));
  CHECK(r.ok());
  CHECK(r.store.size() == 802);  // with Go 1.27's Syncs: one leading, one final
}

TEST_CASE("counts beyond the input are errors, not allocations", "[hardening]") {
  SECTION("a batch longer than the file") {
    std::vector<uint8_t> bytes = TraceBuilder().bytes();
    for (uint8_t x : {1, 1, 0, 0, 0x80, 0x80, 0x04}) bytes.push_back(x);  // size 65536
    ReadResult r = read_bounded(bytes, 64);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error->what(), Catch::Contains("failed to read full batch"));
  }
  SECTION("a string longer than the batch") {
    TraceBuilder b;
    b.batch(1, kNone).raw({4, 5, 1, 0x80, 0x08, 'a'});  // 1024 bytes announced
    ReadResult r = read_bounded(b.bytes(), 64);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error->what(), Catch::Contains("failed to read full string"));
  }
  SECTION("a stack with more frames than the batch holds") {
    TraceBuilder b;
    b.batch(1, kNone).raw({2, 3, 1, 127});  // 127 frames announced, none present
    ReadResult r = read_bounded(b.bytes(), 64);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error->what(), Catch::Contains("reading frame 1's PC for stack 1"));
  }
  SECTION("varints that overflow 64 bits") {
    TraceBuilder b;
    b.batch(1, 0).raw({ProcStatus, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f});
    b.frequency(1);
    ReadResult r = read_bounded(b.bytes(), 64);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error->what(), Catch::Contains("found invalid uvarint"));
  }
}

TEST_CASE("deep stacks and giant string tables stay proportional to the input", "[hardening]") {
  TraceBuilder b;
  std::vector<std::pair<uint64_t, std::string>> strings;
  for (uint64_t i = 1; i <= 3000; i++) {
    std::string s = std::to_string(i) + ":";
    s.resize(1024, static_cast<char>('a' + i % 26));  // the longest a string may be
    strings.push_back({i, s});
  }
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> stacks;
  for (uint64_t id = 1; id <= 2000; id++) {
    std::vector<uint64_t> frames;
    for (uint64_t f = 0; f < 128; f++) frames.insert(frames.end(), {id * 1000 + f, 1 + f % 3000, 1 + (f * 7) % 3000, f});
    stacks.push_back({id, frames});
  }
  b.strings(1, strings).stacks(1, stacks).frequency(1);
  b.batch(1, 1).event(ProcStatus, {1, 0, kRunning}).event(GoStatus, {1, 1, 1, kGoRunning});
  ReadResult r = read_bounded(b.bytes(), 8);
  CHECK(r.ok());
  CHECK(r.store.strings.size() >= 3000);
  CHECK(r.store.stacks.size() == 2001);
}

TEST_CASE("a hundred thousand generations", "[hardening]") {
  TraceBuilder b;
  const uint64_t n = 100000;
  for (uint64_t g = 1; g <= n; g++) {
    b.batch(g, 1, g * 100).event(ProcStatus, {1, 0, kRunning});
    b.frequency(g);
  }
  ReadResult r = read_bounded(b.bytes(), 64);
  INFO((r.error ? r.error->what() : "ok"));
  CHECK(r.ok());
  CHECK(r.store.generations.size() == n);
  CHECK(r.store.size() == 2 * n + 1);  // a ProcStatus and a leading Sync each, and Go 1.27's final Sync
  CHECK(r.work.advance_attempts == n);
}

TEST_CASE("a chain of threads waiting on each other costs linear work", "[hardening]") {
  // The earliest thread holds GC event 1; after it, the later the number, the earlier
  // its time (thread i holds number i+2). Go's reader rescans every waiting thread at
  // each step (quadratic); ours parks them until the GC reaches the number before.
  const uint64_t n = 5000;
  TraceBuilder b;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t seq = i == n - 1 ? 1 : i + 2;
    b.batch(1, i + 1, (n - i) * 100)
        .event(ProcStatus, {1, i, kRunning})
        .event(GoStatus, {1, i + 1, i + 1, kGoRunning})
        .event(seq % 2 ? GCBegin : GCEnd, seq % 2 ? std::initializer_list<uint64_t>{1, seq, 0}
                                                  : std::initializer_list<uint64_t>{1, seq});
  }
  b.frequency(1);
  ReadResult r = read_bounded(b.bytes(), 64);
  INFO((r.error ? r.error->what() : "ok"));
  CHECK(r.ok());
  CHECK(r.store.size() == 3 * n + 2);  // with Go 1.27's Syncs: one leading, one final
  CHECK(r.work.advance_attempts <= 4 * n);
  CHECK(r.work.parked <= n);
}

TEST_CASE("sequence numbers that never line up fail after linear work", "[hardening]") {
  const uint64_t n = 5000;
  TraceBuilder b;
  for (uint64_t i = 0; i < n; i++) {
    b.batch(1, i + 1, i)
        .event(ProcStatus, {1, i, kRunning})
        .event(GoStart, {1, 1000000 + i, 7});  // goroutines that do not exist, at seq 7
  }
  b.frequency(1);
  ReadResult r = read_bounded(b.bytes(), 64);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error->what(), Catch::Contains("failed to advance"));
  CHECK(r.work.advance_attempts <= 3 * n);
}

TEST_CASE("a goroutine first seen with a far id is still found after many more", "[hardening]") {
  // Goroutine 150000 is created when so few exist that its id is kept apart from the
  // dense table; 140000 creations later the table has grown over its id.
  TraceBuilder b;
  b.batch(1, 1, 0).event(ProcStatus, {1, 0, kRunning}).event(GoStatus, {1, 1, 1, kGoRunning});
  b.event(GoCreate, {1, 150000, 0, 0});
  for (uint64_t g = 2; g < 140000; g++) {
    if (g % 5000 == 0) b.batch(1, 1, g);  // batches hold at most 64 KiB
    b.event(GoCreate, {1, g, 0, 0});
  }
  b.event(20 /* GoBlock */, {1, 0, 0}).event(GoStart, {1, 150000, 1});
  b.frequency(1);
  ReadResult r = read_bounded(b.bytes(), 64);
  INFO((r.error ? r.error->what() : "ok"));
  CHECK(r.ok());
}
