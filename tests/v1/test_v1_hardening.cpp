// Hostile v1 inputs: every count and length is checked against the bytes that remain
// before anything is allocated for it, errors say where, and sequence numbers that never
// line up cost linear work. Both pipelines (conversion and legacy list) are held to it.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "gotrace/v1_legacy.h"
#include "gotrace/v1_spec.h"
#include "v1_writer.h"

using namespace gotrace;
using namespace gotrace::test;
using gotrace::v1::LegacyList;
using gotrace::v1::read_legacy;

namespace {

constexpr uint8_t Batch = v1::EvBatch;
constexpr uint8_t Frequency = v1::EvFrequency;
constexpr uint8_t Stack = v1::EvStack;
constexpr uint8_t Gomaxprocs = v1::EvGomaxprocs;
constexpr uint8_t ProcStart = v1::EvProcStart;
constexpr uint8_t GoCreate = v1::EvGoCreate;
constexpr uint8_t GoStart = v1::EvGoStart;
constexpr uint8_t GoBlock = v1::EvGoBlock;
constexpr uint8_t GoUnblock = v1::EvGoUnblock;
constexpr uint8_t UserTaskCreate = v1::EvUserTaskCreate;
constexpr uint8_t UserLog = v1::EvUserLog;
constexpr uint64_t kGHz = 1000000000;

V1Writer started() {
  V1Writer w(11);
  w.ev(Batch, {0, 1000});
  w.ev(ProcStart, {5, 7});
  w.ev(Gomaxprocs, {5, 2, 0});
  return w;
}

// The conversion rejects the bytes with an error that names a byte offset inside the
// file, and keeps no events; so does the legacy list unless `legacy_accepts` (Go 1.21
// has fewer limits than Go 1.23). Returns the conversion's message.
std::string rejected(const std::vector<uint8_t>& bytes, bool legacy_accepts = false) {
  ReadResult r = read_trace(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.store.size() == 0);
  const auto& where = r.error->where();
  REQUIRE(where.offset.has_value());
  CHECK(*where.offset < bytes.size());
  LegacyList list = read_legacy(bytes);
  CHECK(list.ok() == legacy_accepts);
  return r.error->message();
}

}  // namespace

TEST_CASE("giant strings are refused before they are read", "[v1][robust]") {
  SECTION("a string that claims 2^40 bytes") {
    auto w = started();
    w.raw({37, 1});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), uint64_t{1} << 40);
    w.raw({'a', 'b', 'c'});
    // Go 1.23 skips strings on its first pass, so it finds the missing bytes first.
    CHECK(rejected(w.bytes()) == "failed to read trace: EOF");
  }
  SECTION("a string one byte over Go's limit of 10^6") {
    auto w = started();
    w.string(1, std::string(1000001, 'x'));
    CHECK(rejected(w.bytes()) == "string has too large length 1000001");
  }
  SECTION("a string at the limit whose bytes are missing") {
    auto w = started();
    w.raw({37, 1});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), 1000000);
    w.raw({'a', 'b', 'c'});
    rejected(w.bytes());
  }
  SECTION("a string at the limit is read") {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1});
    w.lp(UserTaskCreate, {5, 1, 0, 1, 0});
    w.string(1, std::string(1000000, 't')).ev(Frequency, {kGHz});
    ReadResult r = read_trace(w.bytes());
    INFO((r.ok() ? std::string() : r.error->what()));
    REQUIRE(r.ok());
    CHECK(read_legacy(w.bytes()).ok());
  }
  SECTION("a user log message that claims 2^62 bytes") {
    auto w = started();
    w.ev(GoCreate, {5, 1, 0, 0}).ev(GoStart, {5, 1, 1});
    w.lp(UserLog, {5, 1, 0, 0});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), uint64_t{1} << 62);
    w.raw({'m'});
    rejected(w.bytes());
  }
}

TEST_CASE("deep stacks are bounded as Go bounds them", "[v1][robust]") {
  auto stack_of = [](uint64_t frames, uint64_t claimed) {
    std::vector<uint8_t> body;
    V1Writer::put(body, 1);
    V1Writer::put(body, claimed);
    for (uint64_t i = 0; i < frames; i++) {
      for (uint64_t v : {0x1000 + i, uint64_t{1}, uint64_t{1}, i}) V1Writer::put(body, v);
    }
    auto w = started();
    w.string(1, "f");
    w.raw({static_cast<uint8_t>(Stack | 3 << 6)});
    auto& bytes = const_cast<std::vector<uint8_t>&>(w.bytes());
    V1Writer::put(bytes, body.size());
    bytes.insert(bytes.end(), body.begin(), body.end());
    return w;
  };
  SECTION("300 frames within Go 1.23's 2048-byte event limit are read") {
    auto w = stack_of(300, 300);
    w.ev(GoCreate, {5, 1, 1, 0}).ev(Frequency, {kGHz});  // the new goroutine's stack
    ReadResult r = read_trace(w.bytes());
    INFO((r.ok() ? std::string() : r.error->what()));
    REQUIRE(r.ok());
    bool found = false;
    for (size_t i = 0; i < r.store.size(); i++) {
      if (r.store.type(i) != v2::EvGoCreate) continue;
      EventView ev(r.store, i);
      found = r.store.stacks.frames(ev.state_transition().stack).size() == 300;
    }
    CHECK(found);
    CHECK(read_legacy(w.bytes()).ok());
  }
  SECTION("1000 frames, Go 1.21's most: over Go 1.23's event limit") {
    auto w = stack_of(1000, 1000);
    w.ev(GoCreate, {5, 1, 0, 1}).ev(Frequency, {kGHz});
    CHECK(rejected(w.bytes(), true).find("length-prefixed argument too big") != std::string::npos);
    LegacyList list = read_legacy(w.bytes());
    REQUIRE(list.ok());
  }
  SECTION("1001 frames are refused") {
    auto w = stack_of(1001, 1001);
    w.ev(Frequency, {kGHz});
    rejected(w.bytes());
    LegacyList list = read_legacy(w.bytes());
    REQUIRE_FALSE(list.ok());
    CHECK(list.error()->message().find("EvStack has bad number of frames") != std::string::npos);
  }
  SECTION("a frame count of 2^50 in a short event") {
    auto w = stack_of(2, uint64_t{1} << 50);
    w.ev(Frequency, {kGHz});
    rejected(w.bytes());
  }
  SECTION("a stack event whose length claims 2^60 bytes") {
    auto w = started();
    w.raw({static_cast<uint8_t>(Stack | 3 << 6)});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), uint64_t{1} << 60);
    w.raw({1, 1, 2, 3, 4, 5});
    rejected(w.bytes());
  }
}

TEST_CASE("huge counts never allocate", "[v1][robust]") {
  SECTION("a length prefix of 2^63 on an ordinary event") {
    auto w = started();
    w.raw({static_cast<uint8_t>(GoUnblock | 3 << 6)});
    V1Writer::put(const_cast<std::vector<uint8_t>&>(w.bytes()), uint64_t{1} << 63);
    w.raw({1, 2, 3});
    rejected(w.bytes());
  }
  SECTION("a length prefix one past the end") {
    auto w = started();
    w.raw({static_cast<uint8_t>(GoCreate | 3 << 6), 5, 1, 1, 0, 0});
    rejected(w.bytes());
  }
  SECTION("a P number of 2^63") {
    auto w = started();
    w.ev(Batch, {uint64_t{1} << 63, 2000}).ev(ProcStart, {1, 8}).ev(Frequency, {kGHz});
    rejected(w.bytes(), true);  // Go 1.21 took any P
  }
}

TEST_CASE("sequence numbers that never line up fail in linear time", "[v1][order][robust]") {
  // P 0 creates N goroutines; each of the N other Ps starts one of them at a sequence
  // number it never reaches. Every create wakes the P waiting on that goroutine, which
  // waits again: a scan of all waiting Ps per event (Go's) would be N^2 = 4*10^8 steps.
  constexpr uint64_t kProcs = 20000;
  V1Writer w(11);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {1, 0}).ev(Gomaxprocs, {1, kProcs, 0});
  for (uint64_t g = 1; g <= kProcs; g++) w.ev(GoCreate, {1, g, 0, 0});
  for (uint64_t p = 1; p <= kProcs; p++) w.ev(Batch, {p, 100000 + p}).ev(GoStart, {1, p, 7});
  w.ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "no consistent ordering of events possible");
  LegacyList list = read_legacy(w.bytes());
  REQUIRE_FALSE(list.ok());
  CHECK(list.error()->message() == "no consistent ordering of events possible");
}

TEST_CASE("a long run of events waiting on one goroutine merges in linear time", "[v1][order][robust]") {
  // P 1 holds 100000 unblocks of goroutine 1, each at the next sequence number; P 0
  // blocks and restarts it between them (every 10 ticks, the unblocks 5 ticks after each
  // block). Each step wakes exactly one P.
  constexpr uint64_t kRounds = 100000;
  V1Writer w(11);
  w.ev(Batch, {0, 1000}).ev(ProcStart, {1, 0}).ev(Gomaxprocs, {1, 2, 0});
  w.ev(GoCreate, {1, 1, 0, 0}).ev(GoCreate, {1, 2, 0, 0});
  for (uint64_t i = 0; i < kRounds; i++) {
    w.ev(GoStart, {9, 1, 1 + 2 * i}).ev(GoBlock, {1, 0});
  }
  w.ev(Batch, {1, 1004}).ev(ProcStart, {1, 1}).ev(GoStart, {1, 2, 1});
  for (uint64_t i = 0; i < kRounds; i++) w.lp(GoUnblock, {i == 0 ? 15u : 10u, 1, 2 + 2 * i, 0});
  w.ev(Frequency, {kGHz});
  ReadResult r = read_trace(w.bytes());
  INFO((r.ok() ? std::string() : r.error->what()));
  REQUIRE(r.ok());
  CHECK(r.store.size() > 3 * kRounds);
  CHECK(read_legacy(w.bytes()).ok());
}
