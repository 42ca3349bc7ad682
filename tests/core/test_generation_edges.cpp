// How Go 1.27 reads the edges of generations, each case checked against its tracedump on
// traces cut or damaged this way. Go 1.26's format (generations closed by an
// EndOfGeneration byte): at the end of the file, a generation that holds no event batch
// yet (only its sync, string, stack or CPU-sample batches) is no generation, and the
// trace ends cleanly there; an EndOfGeneration byte with no batch before it closes an
// empty generation, which has no frequency. Older formats: that byte is a batch of
// generation 0, which fails the generation it falls in. Every format: a first generation
// with no event is not the initial one (Go's initial generation is that of the first
// event it orders); a generation's stacks are checked in ascending id order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "corpus.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
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

// The offsets of a trace's batches, with whether each is an event batch (not a string,
// stack, CPU-sample or sync batch) and its generation (0 for an EndOfGeneration byte).
struct BatchAt {
  size_t offset, end;
  uint64_t gen;
  bool events;
};
std::vector<BatchAt> batches_of(const std::vector<uint8_t>& b) {
  std::vector<BatchAt> out;
  size_t at = 16;
  while (at < b.size()) {
    const size_t start = at;
    if (b[at] == v2::EvEndOfGeneration) {
      out.push_back({start, ++at, 0, false});
      continue;
    }
    const uint8_t kind = b[at++];
    if (kind == v2::EvExperimentalBatch) at++;
    const uint64_t gen = uvarint(b, at);
    uvarint(b, at);  // M
    uvarint(b, at);  // time
    const size_t size = uvarint(b, at);
    const uint8_t head = size ? b[at] : 0;
    at += size;
    const bool structural = size > 0 && (head == v2::EvSync || head == v2::EvStrings || head == v2::EvStacks ||
                                         head == v2::EvCPUSamples || head == v2::EvFrequency);
    out.push_back({start, at, gen, kind == v2::EvEventBatch && !structural});
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

TEST_CASE("a first generation without events is not the initial one", "[v2][corpus][go127]") {
  // Go 1.24's format: the first generation's event batches dropped (its frequency, strings
  // and stacks kept), and that generation dropped whole: both begin at the second, whose
  // goroutines and procs come from Undetermined (before, the first read failed with
  // "found goroutine status for new goroutine after the first generation").
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go124-stress-start-stop.stress.trace"));
  const std::vector<BatchAt> batches = batches_of(bytes);
  const uint64_t first = batches.front().gen;  // the trace's first generation's number
  std::vector<uint8_t> no_events(bytes.begin(), bytes.begin() + 16), from_2 = no_events;
  for (const BatchAt& b : batches) {
    if (b.gen == first && b.events) continue;
    no_events.insert(no_events.end(), bytes.begin() + b.offset, bytes.begin() + b.end);
    if (b.gen != first) from_2.insert(from_2.end(), bytes.begin() + b.offset, bytes.begin() + b.end);
  }
  REQUIRE(no_events.size() < bytes.size());
  REQUIRE(from_2.size() < no_events.size());
  const ReadResult r = read_go127(no_events), want = read_go127(from_2);
  INFO((r.error ? r.error->what() : ""));
  REQUIRE(r.ok());
  REQUIRE(want.ok());
  auto undetermined = [](const std::string& dump) {
    size_t n = 0;
    for (size_t at = dump.find("Undetermined->"); at != std::string::npos; at = dump.find("Undetermined->", at + 1)) n++;
    return n;
  };
  CHECK(undetermined(dump_text(r)) > 0);
  CHECK(undetermined(dump_text(r)) == undetermined(dump_text(want)));
  CHECK(r.store.size() == want.store.size() + 1);  // generation 1's Sync
}

TEST_CASE("an EndOfGeneration byte in a trace of an older format fails the generation it falls in",
          "[v2][corpus][go127]") {
  std::vector<uint8_t> bytes = read_bytes(corpus_path("go123-annotations.trace"));
  const ReadResult whole = read_go127(bytes);
  REQUIRE(whole.ok());
  bytes.push_back(v2::EvEndOfGeneration);
  const ReadResult r = read_go127(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "invalid generation number 0");
  // The generation it fell in is not read (Go lists a Sync alone).
  CHECK(r.store.generations.size() == whole.store.generations.size() - 1);
}

TEST_CASE("a byte that begins no batch is named by its number, as Go 1.27 names it", "[v2][corpus][go127]") {
  std::vector<uint8_t> bytes = read_bytes(corpus_path("go123-annotations.trace"));
  bytes.push_back(0);
  const ReadResult r = read_go127(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "expected batch event, got event 0");
}

TEST_CASE("a stack with a missing string is the lowest such stack id, as Go names it", "[v2][corpus][go127]") {
  // go122-workload cut in its last generation's string batches: Go 1.27's tracedump says
  // stack 1 (in the file, stack 9 comes first).
  const std::vector<uint8_t> bytes = read_bytes(corpus_path("go122-workload.trace"));
  REQUIRE(bytes.size() > 3194733);
  const ReadResult r = read_first(bytes, 3194733);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "found invalid func string ID 46 for stack 1");
}

TEST_CASE("stats count as read only the generations read to their end", "[v2][corpus]") {
  const std::vector<uint8_t> bytes = read_bytes(corpus_path("go123-workload.trace"));
  // Cut in its one generation, which then fails to be ordered: nothing of it was read
  // (it said 10 KiB of 2.9 MiB unread).
  const ReadResult cut = read_first(bytes, 3'000'000);
  REQUIRE_FALSE(cut.ok());
  TraceStats st = compute_stats(cut);
  CHECK(st.bytes == 3'000'000);
  CHECK(st.bytes_used == 0);
  CHECK(stats_text(st).find("bytes unread 3000000 (all of it: no generation was read to its end)\n") != std::string::npos);
  // go122-workload cut in its second generation: the first was read whole.
  const std::vector<uint8_t> two = read_bytes(corpus_path("go122-workload.trace"));
  const ReadResult second = read_first(two, 3'194'733);
  REQUIRE_FALSE(second.ok());
  REQUIRE(second.store.generations.size() == 1);
  const GenerationInfo& g = second.store.generations[0];
  const TraceStats st2 = compute_stats(second);
  CHECK(st2.bytes_used == g.file_offset + g.file_bytes);
  CHECK(stats_text(st2).find("bytes unread " + std::to_string(3'194'733 - st2.bytes_used) +
                             " (after the last complete generation)\n") != std::string::npos);
}

TEST_CASE("stats say what was left unread only of a trace", "[stats][corpus]") {
  // A v1 trace is read whole: cut, none of it is used.
  std::vector<uint8_t> v1 = read_bytes(corpus_path("go119-workload.trace"));
  v1.resize(3000);
  const TraceStats cut = compute_stats(read_trace(v1));
  REQUIRE(cut.error);
  CHECK(stats_text(cut).find("bytes unread 3000 (all of it: a v1 trace is read whole)\n") != std::string::npos);
  // A file with no trace header: its error says so, and no bytes are called unread.
  const std::vector<uint8_t> not_trace(500, 'x');
  const TraceStats none = compute_stats(read_trace(not_trace));
  REQUIRE(none.error);
  CHECK(stats_text(none).find("bytes unread") == std::string::npos);
  CHECK(stats_text(none).find("format       unknown (no Go execution trace header)\n") != std::string::npos);
}
