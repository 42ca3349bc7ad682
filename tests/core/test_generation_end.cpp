// Where a Go 1.26-format trace ends (generations closed by an EndOfGeneration byte), by
// Go 1.27's readGeneration: at the end of the file, a generation that holds no event
// batch yet (only its sync, string, stack or CPU-sample batches) is no generation, and
// the trace ends cleanly there; an EndOfGeneration byte with no batch before it closes an
// empty generation, which has no frequency. Both checked against Go 1.27's tracedump
// on traces cut this way.
#include <catch2/catch.hpp>

#include <vector>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

uint64_t uvarint(const std::vector<uint8_t>& b, size_t& at) {
  uint64_t x = 0;
  for (unsigned shift = 0;; shift += 7) {
    REQUIRE(at < b.size());
    const uint8_t c = b[at++];
    x |= uint64_t(c & 0x7f) << shift;
    if (c < 0x80) return x;
  }
}

// In each generation after the first, the offsets after each of its leading batches
// that are not event batches (cut there, the generation has no events yet), with the
// offset where the generation begins and where its first event batch ends.
struct Cuts {
  size_t generation_start;
  std::vector<size_t> before_events;
  size_t first_event_batch_end = 0;
};

std::vector<Cuts> cuts_before_events(const std::vector<uint8_t>& b) {
  std::vector<Cuts> out;
  size_t at = 16;
  bool events_seen = false;
  bool first = true;
  while (at < b.size()) {
    if (b[at] == v2::EvEndOfGeneration) {
      at++;
      if (at < b.size()) out.push_back({at, {}});
      events_seen = false;
      first = false;
      continue;
    }
    const uint8_t kind = b[at++];
    REQUIRE((kind == v2::EvEventBatch || kind == v2::EvExperimentalBatch));
    if (kind == v2::EvExperimentalBatch) at++;
    uvarint(b, at);  // gen
    uvarint(b, at);  // M
    uvarint(b, at);  // time
    const size_t size = uvarint(b, at);
    const uint8_t head = size ? b[at] : 0;
    at += size;
    const bool structural = kind == v2::EvEventBatch && size > 0 &&
                            (head == v2::EvSync || head == v2::EvStrings || head == v2::EvStacks ||
                             head == v2::EvCPUSamples);
    if (!first && !events_seen) {
      if (structural) {
        out.back().before_events.push_back(at);
      } else {
        out.back().first_event_batch_end = at;
      }
    }
    if (!structural) events_seen = true;
  }
  return out;
}

ReadResult read_first(const std::vector<uint8_t>& bytes, size_t n) {
  return read_go127(std::span<const uint8_t>(bytes).first(n));
}

}  // namespace

TEST_CASE("a Go 1.26-format trace cut before a generation's first event batch ends cleanly there",
          "[v2][corpus][go127]") {
  for (const char* name : {"go127-workload.trace", "go127-gomaxprocs.stress.trace"}) {
    DYNAMIC_SECTION(name) {
      const std::vector<uint8_t> bytes = read_bytes(newest_path(name));
      const std::vector<Cuts> generations = cuts_before_events(bytes);
      REQUIRE_FALSE(generations.empty());
      size_t checked = 0;
      // A few generations of each trace (the stress trace has hundreds).
      for (size_t k = 0; k < generations.size(); k += std::max<size_t>(1, generations.size() / 8)) {
        const Cuts& g = generations[k];
        const ReadResult at_start = read_first(bytes, g.generation_start);
        INFO("generation " << k + 1 << " begins at offset " << g.generation_start);
        REQUIRE(at_start.ok());
        const std::string want = dump_text(at_start);
        REQUIRE_FALSE(g.before_events.empty());  // its sync batch at least
        for (size_t cut : g.before_events) {
          INFO("cut at " << cut);
          const ReadResult r = read_first(bytes, cut);
          CHECK((r.error ? std::string(r.error->what()) : std::string()) == "");
          CHECK(dump_text(r) == want);
          checked++;
        }
        // After its first event batch, the generation is incomplete.
        REQUIRE(g.first_event_batch_end > g.before_events.back());
        const ReadResult cut_in = read_first(bytes, g.first_event_batch_end);
        REQUIRE_FALSE(cut_in.ok());
        CHECK(std::string(cut_in.error->what()).rfind("incomplete generation found; trace likely truncated", 0) == 0);
      }
      CHECK(checked >= std::min<size_t>(8, generations.size()));
    }
  }
}

TEST_CASE("an EndOfGeneration byte with no batch before it closes a generation with no frequency",
          "[v2][corpus][go127]") {
  std::vector<uint8_t> bytes = read_bytes(newest_path("go127-workload.trace"));
  const ReadResult whole = read_go127(bytes);
  REQUIRE(whole.ok());
  SECTION("after the header") {
    bytes.resize(16);
    bytes.push_back(v2::EvEndOfGeneration);
    const ReadResult r = read_go127(bytes);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message() == "no frequency event found");
    CHECK(r.error->where().offset == 16);
  }
  SECTION("after the last generation") {
    const size_t end = bytes.size();
    bytes.push_back(v2::EvEndOfGeneration);
    const ReadResult r = read_go127(bytes);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message() == "no frequency event found");
    CHECK(r.error->where().offset == end);
    CHECK(r.store.generations.size() == whole.store.generations.size());
    CHECK(r.store.size() == whole.store.size());
  }
}
