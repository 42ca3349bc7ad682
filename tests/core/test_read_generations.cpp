// Generations read again on their own (read_generations, from a read's resume points)
// are the events the read of the whole trace had there: the same times, types, contexts,
// stacks and arguments, and the same text as Go prints them, whichever generations are
// read, from memory or from a source that is asked only for their bytes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "corpus.h"
#include "gotrace/event_format.h"
#include "gotrace/event_view.h"
#include "gotrace/go_quote.h"
#include "gotrace/reader.h"
#include "gotrace/v2_spec.h"

using namespace gotrace;
using namespace gotrace::test;

namespace {

ReadResult read_with_resume_points(std::span<const uint8_t> bytes) {
  ReadOptions o;
  o.resume_points = true;
  return read_trace(bytes, o);
}

std::string error_of(const ReadResult& r) { return r.error ? r.error->what() : ""; }

// The index just past generation `last`'s events in the store read whole (a final Sync
// included where the generation ends the trace).
size_t end_of(const EventStore& whole, size_t last) {
  return last + 1 < whole.generations.size() ? whole.generations[last + 1].first_event : whole.size();
}

// An event's text with its status's Undetermined as the state it names ("Undetermined->
// Running" as "Running->Running"); false when it has none.
bool as_named(std::string& text) {
  const size_t at = text.find("Undetermined->");
  if (at == std::string::npos) return false;
  const size_t to = at + 14, end = text.find_first_of(" \n", to);
  text.replace(at, 12, text.substr(to, end - to));
  return true;
}

// First statuses of a part that told why their goroutine waits or stopped (a reason not "").
size_t waits_told = 0;

// For each generation of a store, why each goroutine waiting or runnable as it begins is
// so: the reason of the transition into that state ("" for one not told, as a status's).
struct WaitReasons {
  explicit WaitReasons(const EventStore& s) {
    std::map<GoID, std::string> waiting;
    size_t k = 0;
    for (size_t i = 0; i < s.size(); i++) {
      for (; k < s.generations.size() && s.generations[k].first_event == i; k++) at.push_back(waiting);
      EventView ev(s, i);
      if (ev.kind() != EventKind::StateTransition) continue;
      const StateTransition st = ev.state_transition();
      if (st.resource.kind != ResourceKind::Goroutine) continue;
      if (st.go_to() != GoState::Waiting && st.go_to() != GoState::Runnable) {
        waiting.erase(st.resource.id);
      } else if (st.go_from() != st.go_to()) {
        waiting[st.resource.id] = std::string(st.reason);
      }
    }
    for (; k < s.generations.size(); k++) at.push_back(waiting);
  }
  std::vector<std::map<GoID, std::string>> at;
};

// The Go-quoted reason in an event's text ("" if it has none).
std::string reason_in(const std::string& text) {
  const size_t at = text.find(" Reason=");
  if (at == std::string::npos) return "";
  const size_t from = at + 8, end = text.find_first_of(" \n", text.find('"', from + 1));
  return text.substr(from, end - from);
}

// Holds `part` (generations [first, last] read again) to the events of the whole read
// there: every column, and the text of each event, but that the first status of each
// goroutine and proc alive before `first` reads from Undetermined (as in a trace's first
// generation), once each at most, a goroutine waiting then with the reason it began to
// wait for before `first` (the whole read's status says none); and to its error where
// the last generation is the whole read's last (a trace that breaks off), or none.
void check_same_events(const ReadResult& whole_read, const WaitReasons& reasons, size_t first, size_t last,
                       const ReadResult& part) {
  INFO("generations " << first << " to " << last);
  const EventStore& whole = whole_read.store;
  REQUIRE(error_of(part) == (last + 1 == whole.generations.size() ? error_of(whole_read) : ""));
  const size_t from = whole.generations[first].first_event, to = end_of(whole, last);
  REQUIRE(part.store.size() == to - from);
  REQUIRE(part.store.generations.size() == last - first + 1);
  for (size_t k = first; k <= last; k++) {
    const GenerationInfo &w = whole.generations[k], &p = part.store.generations[k - first];
    CHECK(p.number == w.number);
    CHECK(p.first_event == w.first_event - from);
    if (k < last || whole_read.ok()) CHECK(p.event_count == w.event_count);
    CHECK(p.file_offset == w.file_offset);
    CHECK(p.earliest == w.earliest);
  }
  const GoListing listing = listing_of(whole);
  std::string want, got;
  std::set<std::string> named;  // "GoID=7", "ProcID=2": named from Undetermined
  for (size_t i = 0; i < part.store.size(); i++) {
    const size_t j = from + i;
    INFO("event " << j << " of the whole read");
    REQUIRE(part.store.time(i) == whole.time(j));
    REQUIRE(part.store.type(i) == whole.type(j));
    REQUIRE(part.store.context(i) == whole.context(j));
    REQUIRE(part.store.stack(i) == whole.stack(j));
    want.clear();
    got.clear();
    append_go_event_string(want, whole, j, listing);
    append_go_event_string(got, part.store, i, listing);
    if (got != want && first > 0 && as_named(got)) {
      INFO(got);
      const std::string resource = got.substr(got.find("ID=") - 4, got.find(' ', got.find("ID=")) - got.find("ID=") + 4);
      CHECK(named.insert(resource).second);  // once per goroutine or proc
      if (got.find("GoID=") != std::string::npos &&
          (got.find("->Waiting") != std::string::npos || got.find("->Runnable") != std::string::npos)) {
        // The wait's or the stop's reason, from before the part.
        const GoID g = std::stoll(got.substr(got.find("GoID=") + 5));
        const auto& waiting = reasons.at[first];
        const auto it = waiting.find(g);
        std::string expected;
        append_go_quoted(expected, it != waiting.end() ? it->second : "");
        const std::string reason = reason_in(got);
        CHECK(reason == expected);
        if (reason != "\"\"") waits_told++;
        got.replace(got.find(" Reason=") + 8, reason.size(), reason_in(want));
      }
    }
    REQUIRE(got == want);
  }
  if (first > 0) CHECK(!named.empty());
}

// The same, the reasons found here.
void check_same_events(const ReadResult& whole_read, size_t first, size_t last, const ReadResult& part) {
  const WaitReasons reasons(whole_read.store);
  check_same_events(whole_read, reasons, first, last, part);
}

// Every `step`th generation read alone, and from there the three after it.
void check_generations(std::span<const uint8_t> bytes, const ReadResult& whole, size_t step) {
  const size_t n = whole.store.generations.size();
  const WaitReasons reasons(whole.store);
  for (size_t k = 0; k < n; k += step) {
    ReadResult read;
    read_generations(bytes, whole.store, k, k, read);
    // Moved, as a host keeps what it read (the web app's session): nothing is lost.
    const ReadResult alone = std::move(read);
    check_same_events(whole, reasons, k, k, alone);
    if (k + 1 == n) break;
    const size_t last = std::min(n - 1, k + 3);
    ReadResult run;
    read_generations(bytes, whole.store, k + 1, last, run);
    check_same_events(whole, reasons, k + 1, last, run);
  }
}

}  // namespace

TEST_CASE("every v2 corpus trace's generations read again are the whole read's events", "[v2][generations][corpus]") {
  // Each generation of each trace, alone and with those after it; of the stress traces
  // (hundreds of generations each) about 25 places.
  size_t traces = 0, generations = 0;
  for (const std::string& name : every_trace()) {
    INFO(name);
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    const ReadResult whole = read_with_resume_points(bytes);
    const size_t n = whole.store.generations.size();
    if (whole.store.format.legacy || n == 0) continue;
    check_generations(bytes, whole, n > 100 ? n / 25 : 4);
    traces++;
    generations += n;
  }
  CHECK(traces > 60);
  CHECK(generations > 2000);
  // Goroutines blocked or stopped before a part begins are told why (go122-workload's GC
  // workers waiting among them), not for nothing.
  CHECK(waits_told > 100);
}

TEST_CASE("a read resumed at a generation differs from one begun there", "[v2][generations][corpus]") {
  // The point of resuming: what the threads were doing at the cut, and the times, are the
  // whole read's. A generation read as if it began the trace places the events of a
  // thread whose goroutine it cannot know yet on no proc and no goroutine, and its times
  // do not follow the generation before.
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  const ReadResult whole = read_with_resume_points(bytes);
  REQUIRE(whole.store.generations.size() > 500);
  const size_t k = 300;
  ReadResult resumed;
  read_generations(bytes, whole.store, k, k + 10, resumed);
  check_same_events(whole, k, k + 10, resumed);
  // The same bytes behind the header alone, read as a trace of their own.
  std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + 16);
  const uint64_t from = whole.store.generations[k].file_offset, to = whole.store.generations[k + 11].file_offset;
  cut.insert(cut.end(), bytes.begin() + static_cast<ptrdiff_t>(from), bytes.begin() + static_cast<ptrdiff_t>(to));
  const ReadResult alone = read_trace(cut);
  REQUIRE(error_of(alone) == "");
  REQUIRE(alone.store.size() == resumed.store.size() + 1);  // and the stream's final Sync
  size_t contexts = 0, times = 0;
  for (size_t i = 0; i < resumed.store.size(); i++) {
    if (alone.store.type(i) == v2::EvSyncOut) continue;  // (numbered from the trace's first)
    contexts += alone.store.context(i) != resumed.store.context(i);
    times += alone.store.time(i) != resumed.store.time(i);
  }
  CHECK(contexts > 0);
  CHECK(times > 0);
}

TEST_CASE("generations read again from a source read only their bytes", "[v2][generations][source]") {
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go124-stacks.stress.trace"));
  const ReadResult whole = read_with_resume_points(bytes);
  const size_t n = whole.store.generations.size();
  REQUIRE(n > 500);
  for (size_t first : {size_t{0}, size_t{1}, n / 2, n - 3}) {
    const size_t last = first + 2;
    const uint64_t from = whole.store.generations[first].file_offset;
    const uint64_t to = last + 1 < n ? whole.store.generations[last + 1].file_offset : bytes.size();
    std::vector<std::pair<uint64_t, uint64_t>> reads;
    TraceSource source{bytes.size(), [&](uint64_t offset, size_t k, uint8_t* out) {
                         reads.push_back({offset, offset + k});
                         std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(offset), k, out);
                         return true;
                       }};
    source.read_ahead = 4096;
    ReadResult part;
    read_generations(source, whole.store, first, last, part);
    check_same_events(whole, first, last, part);
    REQUIRE(reads.size() >= 2);
    CHECK(reads[0] == std::pair<uint64_t, uint64_t>{0, 16});  // the header
    uint64_t at = from;
    for (size_t i = 1; i < reads.size(); i++) {
      INFO("read " << i << ": [" << reads[i].first << ", " << reads[i].second << ")");
      CHECK(reads[i].first == at);  // each byte once, in order, from the first generation's
      at = reads[i].second;
    }
    CHECK(at == to);
  }
}

TEST_CASE("generations that cannot be read again say why", "[v2][generations]") {
  const std::vector<uint8_t> bytes = read_bytes(corpus_path("go123-workload.trace"));
  const ReadResult plain = read_trace(bytes);
  ReadResult r1;
  read_generations(bytes, plain.store, 0, 0, r1);
  CHECK(error_of(r1) == "the trace was read without resume points: its generations cannot be read again");
  const ReadResult whole = read_with_resume_points(bytes);
  const size_t n = whole.store.generations.size();
  ReadResult r2;
  read_generations(bytes, whole.store, 0, n, r2);
  CHECK(error_of(r2).find("no generations 0 to") == 0);
  ReadResult r3;
  read_generations(std::span<const uint8_t>(bytes).first(bytes.size() - 1), whole.store, 0, 0, r3);
  CHECK(error_of(r3).find("the trace's bytes changed since it was read") == 0);
  const ReadResult v1 = read_with_resume_points(read_bytes(corpus_path("stress_1_9_good.trace")));
  ReadResult r4;
  read_generations(bytes, v1.store, 0, 0, r4);
  CHECK(error_of(r4).find("no generations 0 to 0 to read again") == 0);
}

TEST_CASE("the generations before a problem read again as they were read", "[v2][generations][corpus]") {
  const std::vector<uint8_t> bytes = read_bytes(newest_path("go127-gomaxprocs.stress.trace"));
  const std::span<const uint8_t> cut = std::span<const uint8_t>(bytes).first(bytes.size() * 2 / 3);
  const ReadResult whole = read_with_resume_points(cut);
  REQUIRE_FALSE(whole.ok());
  const size_t n = whole.store.generations.size();
  REQUIRE(n > 100);
  ReadResult before;
  read_generations(cut, whole.store, n - 12, n - 2, before);
  check_same_events(whole, n - 12, n - 2, before);
  // The last generation read again runs into the problem again.
  ReadResult last;
  read_generations(cut, whole.store, n - 3, n - 1, last);
  check_same_events(whole, n - 3, n - 1, last);
}
