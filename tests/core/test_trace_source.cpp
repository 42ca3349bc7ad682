// A trace read from a TraceSource (a file, a Blob in a browser) a window at a time is the
// trace read from memory: the same events, the same error at the same place, every byte
// read once and in order, whatever the pieces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "corpus.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

// A source over `bytes` that records what was asked of it; it fails at `fail_at`. Its
// reads are as small as the reader allows (read_ahead), or a few KiB: many windows.
struct RecordingSource {
  std::span<const uint8_t> bytes;
  uint64_t fail_at = UINT64_MAX;
  size_t read_ahead = 1;
  uint64_t next = 0;       // where the next read must start: each byte read once, in order
  bool in_order = true;
  size_t reads = 0;
  TraceSource source() {
    return {bytes.size(),
            [this](uint64_t offset, size_t n, uint8_t* out) {
              reads++;
              in_order = in_order && offset == next && offset + n <= bytes.size();
              next = offset + n;
              if (offset + n > fail_at) return false;
              std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(offset), n, out);
              return true;
            },
            read_ahead};
  }
};

ReadResult read_from(RecordingSource& s) {
  ReadResult r;
  read_trace_into(s.source(), r);
  return r;
}

std::string error_of(const ReadResult& r) { return r.error ? r.error->what() : ""; }

// A read from memory reads the next generation ahead while it orders one (natively); a
// source is read a generation at a time. Where a read ends early, the strings and stacks
// read ahead are taken back: the tables are those of the generations read.
void check_same_tables(const ReadResult& got, const ReadResult& want) {
  CHECK(got.store.strings.size() == want.store.strings.size());
  CHECK(got.store.stacks.size() == want.store.stacks.size());
  CHECK(got.store.stacks.frame_count() == want.store.stacks.frame_count());
}

// Holds `bytes` read from a source, with reads of at least `read_ahead` bytes, to their
// read from memory: the same events (dump), error and generations, each byte read once
// and in order, in more than one read where they span more than two.
void check_as_from_memory(std::span<const uint8_t> bytes, size_t read_ahead = 1) {
  INFO("reads of at least " << read_ahead << " bytes");
  const ReadResult want = read_trace(bytes);
  RecordingSource s{bytes, UINT64_MAX, read_ahead};
  const ReadResult got = read_from(s);
  CHECK(s.in_order);
  if (bytes.size() > 2 * read_ahead + 64) CHECK(s.reads > 1);
  CHECK(error_of(got) == error_of(want));
  CHECK(got.store.size() == want.store.size());
  CHECK(got.store.generations.size() == want.store.generations.size());
  CHECK(dump_text(got) == dump_text(want));
  check_same_tables(got, want);
}

}  // namespace

TEST_CASE("every corpus trace read from a source is the trace read from memory", "[source][corpus]") {
  for (const std::string& name : corpus_traces({"*"})) {
    DYNAMIC_SECTION(name) {
      const std::vector<uint8_t> bytes = read_bytes(corpus_path(name + ".trace"));
      for (size_t read_ahead : {size_t{1}, size_t{4096}}) check_as_from_memory(bytes, read_ahead);
    }
  }
}

TEST_CASE("a trace cut short reads from a source as from memory, error and all", "[v2][source][corpus]") {
  std::vector<std::string> paths;
  for (const std::string& name : corpus_traces({"go122-*", "go123-*"})) paths.push_back(corpus_path(name + ".trace"));
  paths.push_back(newest_path("go127-workload.trace"));  // Go 1.26's format: generations end with a marker
  for (const std::string& path : paths) {
    const std::string name = path.substr(path.rfind('/') + 1);
    const std::vector<uint8_t> whole = read_bytes(path);
    for (size_t cut : {size_t{16}, size_t{17}, size_t{40}, whole.size() / 3, whole.size() / 2 + 7, whole.size() - 1}) {
      DYNAMIC_SECTION(name << " cut at " << cut) {
        check_as_from_memory(std::span<const uint8_t>(whole).first(cut));
      }
    }
  }
}

TEST_CASE("traces of hundreds of generations read from a source as from memory", "[v2][source][corpus]") {
  // Stress-mode traces: a generation every few hundred microseconds. Go 1.24's format
  // ends a generation where the next begins, Go 1.26's with a marker.
  for (const char* name : {"go124-stacks.stress.trace", "go127-gomaxprocs.stress.trace"}) {
    DYNAMIC_SECTION(name) {
      const std::vector<uint8_t> bytes = read_bytes(newest_path(name));
      REQUIRE(read_trace(bytes).store.generations.size() > 500);
      check_as_from_memory(bytes);
    }
  }
}

TEST_CASE("a source that fails ends the read with where, the events before it kept", "[v2][source]") {
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  const uint64_t fail_at = bytes.size() * 2 / 3;
  RecordingSource s{bytes, fail_at};
  const ReadResult got = read_from(s);
  REQUIRE_FALSE(got.ok());
  CHECK(error_of(got).rfind("cannot read the trace's bytes at offset ", 0) == 0);
  CHECK(got.error->where().offset.value_or(UINT64_MAX) <= fail_at);
  const ReadResult whole = read_trace(bytes);
  CHECK(got.store.generations.size() > 100);  // those before were read
  CHECK(got.store.generations.size() < whole.store.generations.size());
  CHECK(got.store.size() < whole.store.size());
  CHECK(s.reads > 1);
}

TEST_CASE("a read canceled after a generation keeps the strings and stacks of the generations read", "[v2][source]") {
  // Stopped after generation k, a read from memory has read generation k + 1 ahead. Where
  // k + 1 brings new strings or stacks, a read ahead not taken back leaves more of them
  // than the read from a source, which stops where asked.
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  auto stopped_after = [&](size_t k, bool from_memory) {
    ReadOptions options;
    options.on_generation = [k](EventStore& s) { return s.generations.size() < k; };
    ReadResult r;
    RecordingSource s{bytes};
    if (from_memory) {
      read_trace_into(bytes, r, options);
    } else {
      read_trace_into(s.source(), r, options);
    }
    return r;
  };
  auto tables = [](const ReadResult& r) {
    return std::make_tuple(r.store.strings.size(), r.store.stacks.size(), r.store.stacks.frame_count());
  };
  size_t checked = 0;
  ReadResult before = stopped_after(1, false);
  for (size_t k = 1; checked < 2 && k < 200; k++) {
    ReadResult next = stopped_after(k + 1, false);
    if (tables(next) != tables(before)) {  // generation k + 1 adds to the tables
      DYNAMIC_SECTION("canceled after generation " << k) {
        const ReadResult got = stopped_after(k, true);
        CHECK(error_of(got) == "canceled");
        CHECK(got.store.generations.size() == k);
        CHECK(got.store.size() == before.store.size());
        CHECK(tables(got) == tables(before));
      }
      checked++;
    }
    before = std::move(next);
  }
  CHECK(checked == 2);
}

TEST_CASE("a trace with a byte changed in a later generation reads from a source as from memory", "[v2][source]") {
  // A read from memory reads generation k + 1 on a second thread while it orders
  // generation k; a source is read a generation at a time. A bad byte must stop both at
  // the same event with the same error, whichever part it spoils (a batch header, an
  // event's type, a varint).
  const std::vector<uint8_t> whole = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  const ReadResult read = read_trace(whole);
  REQUIRE(read.ok());
  const auto& gens = read.store.generations;
  REQUIRE(gens.size() > 20);
  size_t errors = 0;
  for (size_t g : {size_t{1}, size_t{2}, size_t{7}, gens.size() / 2}) {
    for (uint64_t at : {gens[g].file_offset + gens[g].file_bytes / 3, gens[g].file_offset + gens[g].file_bytes * 3 / 4}) {
      for (uint8_t value : {uint8_t{0xff}, uint8_t{0x80}, uint8_t{0x00}}) {
        INFO("generation " << g << ", byte " << at << " set to " << int(value));
        std::vector<uint8_t> bytes = whole;
        bytes[at] = value;
        check_as_from_memory(bytes);
        if (!read_trace(bytes).ok()) errors++;
      }
    }
  }
  CHECK(errors >= 6);  // many changes spoil the trace (9 of 24 today), others only a time or an id
}
