// Summary figures of a trace: what `gotrace stats` prints and the web app's overview shows.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gotrace/reader.h"
#include "gotrace/wall_clock.h"

namespace gotrace {

struct TraceStats {
  int go_minor = 0;          // header version: 1.N
  bool legacy = false;       // v1 format (converted)
  uint64_t bytes = 0;        // file size
  uint64_t bytes_used = 0;   // bytes of the generations that were read completely
  uint64_t generations = 0;
  uint64_t events = 0;
  std::array<uint64_t, 15> events_by_kind{};  // indexed by EventKind
  std::array<uint64_t, 256> events_by_type{};  // indexed by v2 event type
  uint64_t goroutines = 0;   // distinct goroutine ids
  uint64_t procs = 0;        // distinct proc ids (v1's pseudo-procs excluded)
  uint64_t threads = 0;      // distinct thread ids
  uint64_t gcs = 0;          // GC cycles begun in the trace
  uint64_t stacks = 0, strings = 0;
  int64_t start = 0, end = 0;  // time of the first and last event, ns
  // Their wall-clock times, from the generations' clock snapshots (Go 1.25+ traces).
  std::optional<WallTime> wall_start, wall_end;
  std::optional<std::string> error;  // why reading stopped early
};

// `events_by_type`, if given, is the store's count of events of each type
// (EventStore::count_by_type), which the stats would otherwise count.
TraceStats compute_stats(const ReadResult& r, const std::array<uint64_t, 256>* events_by_type = nullptr);

// The same counted a part of the events at a time, in order: a streamed read
// (ReadOptions::on_generation) counts each generation's events and then releases them.
class StatsCounter {
 public:
  StatsCounter();
  ~StatsCounter();
  StatsCounter(StatsCounter&&) noexcept;
  // Events [from, to) of the store, which follow those counted before.
  void add(const EventStore& s, size_t from, size_t to);
  // The stats of the read, once every event was added.
  TraceStats finish(const ReadResult& r) const;

 private:
  friend TraceStats compute_stats(const ReadResult&, const std::array<uint64_t, 256>*);
  void count_ids(const EventStore& s, size_t from, size_t to);
  struct Ids;
  std::unique_ptr<Ids> ids_;  // the distinct goroutines and procs seen
  std::array<uint64_t, 256> by_type_{};
  uint64_t events_ = 0;
  int64_t start_ = 0, end_ = 0;
};

// The JSON object of `gotrace stats --json` (and of the npm package's trace.stats()).
std::string stats_json(const TraceStats& s, bool pretty = true);

// The human-readable text of `gotrace stats`.
std::string stats_text(const TraceStats& s);

}  // namespace gotrace
