// TraceReading: a trace read while its bytes arrive, in chunks of any size, reads as
// read_trace reads it at once (events, generations, tables, error), reads no byte past
// those that have arrived, and reads a v2 trace's generations as they complete.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "corpus.h"
#include "gotrace/reader.h"
#include "trace_builder.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

// What a read gave, to compare: every event's columns (hashed), the generations, the
// tables' sizes, the work and the error.
std::string fingerprint(const ReadResult& r) {
  const EventStore& s = r.store;
  uint64_t h = 1469598103934665603u;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211u; };
  for (size_t i = 0; i < s.size(); i++) {
    mix(static_cast<uint64_t>(s.time(i)));
    mix(s.type(i));
    mix(s.context_id(i));
    mix(s.stack(i));
    mix(s.ab(i));
    mix(s.c(i));
  }
  std::string out = std::to_string(s.size()) + " events, hash " + std::to_string(h);
  for (const GenerationInfo& g : s.generations) {
    out += "; gen " + std::to_string(g.number) + " " + std::to_string(g.first_event) + "+" +
           std::to_string(g.event_count) + " @" + std::to_string(g.file_offset) + "+" + std::to_string(g.file_bytes);
  }
  out += "; " + std::to_string(s.strings.size()) + " strings, " + std::to_string(s.stacks.size()) + " stacks, " +
         std::to_string(r.work.advance_attempts) + " attempts; go 1." + std::to_string(s.format.go_minor) + "; " +
         (r.error ? r.error->what() : "ok");
  return out;
}

struct Arrived {
  ReadResult result;
  size_t generations_before_finish = 0;  // progress reports while bytes arrived
};

// Reads `bytes` as they arrive `chunk` at a time into a buffer whose bytes still to
// come hold 0xee: a byte read before it arrived would change what is read.
Arrived read_arriving(const std::vector<uint8_t>& bytes, size_t chunk) {
  std::vector<uint8_t> buffer(bytes.size(), 0xee);
  size_t reports = 0;
  ReadOptions options;
  options.on_progress = [&](const ReadProgress&) {
    reports++;
    return true;
  };
  TraceReading reading(buffer, options);
  for (size_t done = 0; done < bytes.size();) {
    const size_t n = std::min(chunk, bytes.size() - done);
    std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(done), n, buffer.begin() + static_cast<ptrdiff_t>(done));
    done += n;
    reading.arrived(done);
  }
  const size_t before = reports;
  return {reading.finish(), before};
}

// A v2 trace of n generations, each a proc's status, in Go 1.23's format or Go 1.26's
// (sync batches, generations ended by a marker).
std::vector<uint8_t> generations_trace(uint64_t n, int go_minor) {
  enum : uint8_t { ProcStatus = 13, Frequency = 8, Sync = 50, ClockSnapshot = 51 };
  TraceBuilder b(go_minor);
  for (uint64_t g = 1; g <= n; g++) {
    b.batch(g, 1, g * 100).event(ProcStatus, {1, 0, 1});
    if (go_minor >= 25) {
      b.batch(g, ~uint64_t{0}, g * 100).raw({Sync}).event(Frequency, {15625000}).event(ClockSnapshot, {0, g, g, 0});
      b.end_generation();
    } else {
      b.frequency(g);
    }
  }
  return b.bytes();
}

}  // namespace

TEST_CASE("a corpus trace read as it arrives reads as it does at once", "[reader][arriving]") {
  const auto names = corpus_traces({"*"});
  REQUIRE(names.size() >= 30);
  for (const std::string& name : names) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(corpus_path(name + ".trace"));
    const std::string want = fingerprint(read_trace(bytes));
    for (size_t chunk : {size_t{4096}, size_t{65536 + 7}, bytes.size()}) {
      INFO("chunks of " << chunk);
      CHECK(fingerprint(read_arriving(bytes, chunk).result) == want);
    }
  }
}

TEST_CASE("a v2 trace's generations are read as they arrive", "[reader][arriving]") {
  for (int go_minor : {23, 26}) {
    INFO("go 1." << go_minor);
    const std::vector<uint8_t> bytes = generations_trace(40, go_minor);
    const ReadResult at_once = read_trace(bytes);
    INFO((at_once.error ? at_once.error->what() : "ok"));
    REQUIRE(at_once.ok());
    REQUIRE(at_once.store.generations.size() == 40);
    for (size_t chunk : {size_t{1}, size_t{10}, size_t{300}}) {
      INFO("chunks of " << chunk);
      Arrived a = read_arriving(bytes, chunk);
      CHECK(fingerprint(a.result) == fingerprint(at_once));
      // Every generation but the last (which ends where the file does, for Go 1.23) is
      // read before the end; with Go 1.26's marker, every one.
      CHECK(a.generations_before_finish == (go_minor >= 26 ? 40u : 39u));
    }
  }
  // A corpus trace of two generations: the first read as it arrives.
  const std::vector<uint8_t> two = read_bytes(corpus_path("go123-stress.trace"));
  CHECK(read_arriving(two, 65536).generations_before_finish == 1);
}

TEST_CASE("a broken trace read as it arrives fails as it does at once", "[reader][arriving]") {
  std::vector<std::vector<uint8_t>> inputs;
  for (const char* name : {"go122-workload", "go123-stress", "stress_1_21_good"}) {
    const std::vector<uint8_t> bytes = read_bytes(corpus_path(std::string(name) + ".trace"));
    for (double cut : {0.0, 0.3, 0.6, 0.9}) {
      inputs.emplace_back(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(cut * static_cast<double>(bytes.size())));
    }
    inputs.emplace_back(bytes.begin(), bytes.end() - 1);
    for (double at : {0.2, 0.55, 0.8}) {  // a byte changed
      inputs.push_back(bytes);
      inputs.back()[static_cast<size_t>(at * static_cast<double>(bytes.size()))] ^= 0x5a;
    }
  }
  std::vector<uint8_t> gens = generations_trace(20, 26);
  gens.pop_back();  // the last marker missing
  inputs.push_back(gens);
  gens = generations_trace(20, 23);
  gens[gens.size() / 2] = 0x7f;  // not a batch
  inputs.push_back(gens);
  size_t failed = 0;
  for (size_t k = 0; k < inputs.size(); k++) {
    INFO("input " << k << ", " << inputs[k].size() << " bytes");
    const ReadResult at_once = read_trace(inputs[k]);
    failed += !at_once.ok();
    for (size_t chunk : {size_t{1000}, size_t{65536}}) {
      INFO("chunks of " << chunk);
      CHECK(fingerprint(read_arriving(inputs[k], chunk).result) == fingerprint(at_once));
    }
  }
  CHECK(failed >= inputs.size() - 6);  // most of them do fail
}

TEST_CASE("a reading ended by an error or by cancelling stays ended", "[reader][arriving]") {
  const std::vector<uint8_t> bytes = generations_trace(10, 23);
  std::vector<uint8_t> buffer(bytes.size(), 0xee);
  size_t reports = 0;
  ReadOptions options;
  options.on_progress = [&](const ReadProgress&) { return ++reports < 3; };  // cancels at the third
  TraceReading reading(buffer, options);
  std::copy(bytes.begin(), bytes.end(), buffer.begin());
  reading.arrived(bytes.size() / 2);
  reading.arrived(bytes.size());
  const ReadResult r = reading.finish();
  REQUIRE(r.error);
  CHECK(std::string(r.error->what()).find("canceled") != std::string::npos);
  CHECK(reports == 3);
  CHECK(r.store.generations.size() == 3);
}
