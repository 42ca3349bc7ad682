// Conversion of every old-format trace into the v2 event model: 1.5–1.10 traces (which
// Go's current readers no longer read) convert, and every converted stream passes the
// rules of Go's validator for reader output.
#include <catch2/catch.hpp>
#include <map>

#include "corpus.h"
#include "gotrace/reader.h"
#include "stream_checker.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

int header_minor(const std::vector<uint8_t>& bytes) {
  int minor = 0;
  for (size_t i = 5; i < 16 && bytes[i] >= '0' && bytes[i] <= '9'; i++) minor = minor * 10 + (bytes[i] - '0');
  return minor;
}

}  // namespace

TEST_CASE("1.5-1.10 traces convert into the v2 model", "[v1][convert][corpus]") {
  auto names = corpus_traces({"*_1_5_good", "*_1_7_good", "*_1_9_good", "*_1_10_good"});
  REQUIRE(names.size() == 12);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      INFO((r.ok() ? std::string() : r.error->what()));
      REQUIRE(r.ok());
      CHECK(r.store.size() > 30);
      CHECK(StreamChecker::check_all(r.store) == "");
    }
  }
}

TEST_CASE("converted 1.11-1.21 traces pass the stream checker as Go's do", "[v1][convert][corpus]") {
  // Go's own validator, run on Go 1.23's conversion of the same traces, finds exactly
  // these problems (and none in the others). Both come from Go 1.23's syscall look-ahead,
  // which takes a CPU sample of the goroutine for its next event: the syscall is cut to
  // 1 ns although the goroutine's GoSysBlock follows, so its later GoSysExit leaves a
  // syscall the goroutine is no longer in. The conversion matches Go's byte for byte.
  const std::map<std::string, std::string> go_finds = {
      {"go119-workload", "bad old state for goroutine 16: got Syscall, want Running"},
      {"go121-workload", "bad old state for goroutine 99: got Syscall, want Running"},
  };
  auto names = corpus_traces({"go119-workload", "go121-workload", "*_1_11_*", "*_1_19_*", "*_1_21_*"});
  REQUIRE(names.size() == 14);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      REQUIRE(r.ok());
      std::string problem = StreamChecker::check_all(r.store);
      auto known = go_finds.find(name);
      if (known == go_finds.end()) {
        CHECK(problem == "");
      } else {
        CHECK(problem.substr(problem.find(": ") + 2) == known->second);
      }
    }
  }
}

TEST_CASE("the stream checker catches broken streams", "[v1][convert]") {
  ReadResult r = read_trace(read_bytes(corpus_path("user_task_region_1_21_good.trace")));
  REQUIRE(r.ok());
  // The same events with the first goroutine start left out: what follows is invalid.
  StreamChecker c;
  bool skipped = false, failed = false;
  for (size_t i = 0; i < r.store.size() && !failed; i++) {
    if (!skipped && r.store.type(i) == v2::EvGoStart) {
      skipped = true;
      continue;
    }
    failed = !c.event(r.store, i).empty();
  }
  CHECK(skipped);
  CHECK(failed);
}

TEST_CASE("v1 traces report their format", "[v1][format][corpus]") {
  auto names = corpus_traces({"go119-workload", "go121-workload", "*_1_5_good", "*_1_7_*", "*_1_9_*", "*_1_10_*",
                              "*_1_11_*", "*_1_19_*", "*_1_21_*"});
  REQUIRE(names.size() == 26);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      auto bytes = read_bytes(corpus_path(name + ".trace"));
      ReadResult r = read_trace(bytes);
      REQUIRE(r.ok());
      CHECK(r.store.format.go_minor == header_minor(bytes));
      CHECK(r.store.format.legacy);
      CHECK(r.store.format.file_bytes == bytes.size());
      REQUIRE(r.store.generations.size() == 1);
      const GenerationInfo& gen = r.store.generations[0];
      CHECK(gen.number == 1);
      CHECK(gen.first_event == 0);
      CHECK(gen.event_count == r.store.size());
      CHECK(gen.frequency > 0);
      CHECK(gen.batches > 0);
      CHECK(gen.file_offset == 16);
    }
  }
  SECTION("a rejected v1 trace still says what it was") {
    ReadResult r = read_trace(read_bytes(corpus_path("stress_1_5_unordered.trace")));
    CHECK_FALSE(r.ok());
    CHECK(r.store.format.go_minor == 5);
    CHECK(r.store.format.legacy);
  }
  SECTION("v2 traces are not legacy") {
    ReadResult r = read_trace(read_bytes(corpus_path("go123-stress-start-stop.trace")));
    CHECK(r.store.format.go_minor == 23);
    CHECK_FALSE(r.store.format.legacy);
  }
}

TEST_CASE("v1 conversion is deterministic", "[v1][convert]") {
  auto bytes = read_bytes(corpus_path("stress_1_21_good.trace"));
  CHECK(dump_text(read_trace(bytes)) == dump_text(read_trace(bytes)));
  auto old = read_bytes(corpus_path("stress_1_7_good.trace"));
  CHECK(dump_text(read_trace(old)) == dump_text(read_trace(old)));
}

TEST_CASE("1.5 conversion synthesizes start stacks and GC numbers", "[v1][convert]") {
  ReadResult r = read_trace(read_bytes(corpus_path("stress_1_5_good.trace")));
  REQUIRE(r.ok());
  size_t creates = 0, with_start = 0;
  uint64_t next_gc = 0;
  bool gc_in_order = true;
  for (size_t i = 0; i < r.store.size(); i++) {
    EventView ev(r.store, i);
    if (ev.type() == v2::EvGoCreate) {
      creates++;
      StateTransition st = ev.state_transition();
      if (st.stack != 0 && r.store.stacks.frames(st.stack).size() == 1) with_start++;
    }
    if (ev.type() == v2::EvGCBegin) gc_in_order = gc_in_order && r.store.ab(i) == next_gc++;
  }
  CHECK(creates > 0);
  CHECK(with_start == creates);
  CHECK(next_gc > 0);
  CHECK(gc_in_order);
}

TEST_CASE("reading a v1 trace can be canceled", "[v1]") {
  ReadOptions opts;
  int calls = 0;
  opts.on_progress = [&](const ReadProgress&) { return ++calls < 2; };
  ReadResult r = read_trace(read_bytes(corpus_path("stress_1_11_good.trace")), opts);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message() == "canceled");
}

TEST_CASE("gotrace stats names each v1 trace's format version", "[v1][format][cli]") {
  auto names = corpus_traces({"go119-workload", "go121-workload", "*_1_5_*", "*_1_7_*", "*_1_9_*", "*_1_10_*",
                              "*_1_11_*", "*_1_19_*", "*_1_21_*"});
  REQUIRE(names.size() == 27);
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      auto bytes = read_bytes(corpus_path(name + ".trace"));
      std::string out;
      int rc = run_command(cli_path() + " stats " + corpus_path(name + ".trace"), &out);
      std::string want = "format       Go 1." + std::to_string(header_minor(bytes)) +
                         " (v1, converted to the Go 1.22 event model)\n";
      CHECK(out.rfind(want, 0) == 0);
      if (name == "stress_1_5_unordered") {
        CHECK(rc == 1);
        CHECK(out.find("error        time stamps out of order\n") != std::string::npos);
      } else {
        CHECK(rc == 0);
      }
    }
  }
}
