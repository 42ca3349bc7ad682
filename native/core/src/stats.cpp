#include "gotrace/stats.h"

#include <algorithm>
#include <array>

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/flat_map.h"
#include "gotrace/json_writer.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"

namespace gotrace {
using namespace v2;

namespace {

// v1 traces put some events on pseudo-procs (timer, netpoll, syscall, GC: 1000000+).
constexpr ProcID kFirstPseudoProc = 1000000;

// The distinct goroutine ids of a trace. Ids are small and nearly consecutive: a byte
// per id, set on every event without first asking whether it was seen (a branch that
// the interleaved events of many goroutines make unpredictable); larger ids in a set.
// Slot 0 is NoGoroutine (-1), counted only when an event's argument names it.
class GoroutineSet {
 public:
  void mark(GoID id) {
    const uint64_t k = static_cast<uint64_t>(id) + 1;
    if (k < dense_.size()) [[likely]] {
      dense_[k] = 1;
    } else {
      mark_slow(k);
    }
  }
  void named_no_goroutine() { no_goroutine_ = true; }
  size_t size() const {
    return static_cast<size_t>(std::count(dense_.begin() + 1, dense_.end(), uint8_t{1})) + sparse_.size() +
           (no_goroutine_ ? 1 : 0);
  }

 private:
  static constexpr uint64_t kDense = uint64_t{1} << 24;
  [[gnu::noinline]] void mark_slow(uint64_t k) {
    if (k < kDense) {
      dense_.resize(std::max<size_t>(k + 1, dense_.size() * 2));
      dense_[k] = 1;
    } else {
      sparse_[k] = 1;
    }
  }
  std::vector<uint8_t> dense_ = std::vector<uint8_t>(1024);
  FlatMap<uint8_t> sparse_;
  bool no_goroutine_ = false;
};

// What an event's argument (ab) names, by type: a goroutine, a proc or neither.
enum class Named : uint8_t { Nothing, Goroutine, Proc };
constexpr std::array<Named, 256> named_by_type() {
  std::array<Named, 256> t{};
  for (uint8_t g : {EvGoCreate, EvGoCreateBlocked, EvGoCreateSyscall, EvGoStatus, EvGoStatusStack, EvGoStart,
                    EvGoUnblock})
    t[g] = Named::Goroutine;
  for (uint8_t p : {EvProcStart, EvProcStatus, EvProcSteal}) t[p] = Named::Proc;
  return t;
}
constexpr std::array<Named, 256> kNamed = named_by_type();

}  // namespace

struct StatsCounter::Ids {
  GoroutineSet goroutines;
  FlatMap<uint8_t> procs;
};

StatsCounter::StatsCounter() : ids_(std::make_unique<Ids>()) {}
StatsCounter::~StatsCounter() = default;
StatsCounter::StatsCounter(StatsCounter&&) noexcept = default;

void StatsCounter::count_ids(const EventStore& s, size_t first, size_t last) {
  GoroutineSet& goroutines = ids_->goroutines;
  FlatMap<uint8_t>& procs = ids_->procs;
  auto count = [&](const EventStore::ChunkColumns& col, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      goroutines.mark(col.goroutine(i));
      switch (kNamed[col.type(i)]) {
        case Named::Goroutine: {
          const auto g = static_cast<GoID>(col.ab(i));
          goroutines.mark(g);
          if (g == kNoGoroutine) goroutines.named_no_goroutine();
          break;
        }
        case Named::Proc:
          procs[col.ab(i)] = 1;
          break;
        case Named::Nothing:
          break;
      }
    }
  };
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  for_each_event_slice_between(first, last, [&](size_t from, size_t to) { s.for_each_chunk(from, to, count); });
  if (first < last) {
    if (events_ == 0) start_ = s.time(first);
    end_ = s.time(last - 1);
    events_ += last - first;
  }
}

void StatsCounter::add(const EventStore& s, size_t from, size_t to) {
  count_ids(s, from, to);
  const std::array<uint64_t, 256> n = s.count_by_type(from, to);
  for (size_t t = 0; t < n.size(); t++) by_type_[t] += n[t];
}

TraceStats StatsCounter::finish(const ReadResult& r) const {
  const EventStore& s = r.store;
  TraceStats st;
  st.go_minor = s.format.go_minor;
  st.legacy = s.format.legacy;
  st.bytes = s.format.file_bytes;
  st.generations = s.generations.size();
  st.events = events_;
  st.stacks = s.stacks.size() - 1;
  st.strings = s.strings.size() - 1;
  if (st.events) {
    st.start = start_;
    st.end = end_;
    st.wall_start = wall_time_at(s, st.start);
    st.wall_end = wall_time_at(s, st.end);
  }
  if (r.error) st.error = r.error->what();
  st.bytes_used = 0;
  for (const GenerationInfo& g : s.generations) {
    // A generation whose ordering failed is listed with no events counted (every
    // generation read to its end has its Sync at least): its bytes were not read.
    if (g.event_count == 0) continue;
    st.bytes_used = std::max<uint64_t>(st.bytes_used, g.file_offset + g.file_bytes);
  }
  if (r.ok()) st.bytes_used = st.bytes;

  // Procs and threads also from the contexts events happened in.
  FlatMap<uint8_t> procs = ids_->procs, threads;
  auto add_thread_proc = [&](ThreadID m, ProcID p) {
    if (p != kNoProc && p < kFirstPseudoProc) procs[static_cast<uint64_t>(p)] = 1;
    if (m != kNoThread) threads[static_cast<uint64_t>(m)] = 1;
  };
  for (const auto& [m, p] : s.thread_procs()) add_thread_proc(m, p);
  for (const Context& c : s.wide_contexts()) add_thread_proc(c.m, c.p);
  st.events_by_type = by_type_;
  st.gcs = st.events_by_type[EvGCBegin];
  for (int t = 0; t < 256; t++) st.events_by_kind[static_cast<size_t>(kind_of_type(static_cast<uint8_t>(t)))] += st.events_by_type[t];
  st.goroutines = ids_->goroutines.size();
  st.procs = procs.size();
  st.threads = threads.size();
  return st;
}

TraceStats compute_stats(const ReadResult& r, const std::array<uint64_t, 256>* events_by_type) {
  StatsCounter c;
  const EventStore& s = r.store;
  if (events_by_type) {
    c.count_ids(s, 0, s.size());
    c.by_type_ = *events_by_type;
  } else {
    c.add(s, 0, s.size());
  }
  return c.finish(r);
}

std::string stats_json(const TraceStats& st, bool pretty) {
  std::string out;
  JsonWriter w(out, pretty);
  w.begin_object();
  w.key("format").begin_object();
  // (No version when the header is not a trace's: the file is not one.)
  if (st.go_minor > 0) {
    w.field("go_version", fmt("1.%d", st.go_minor));
    w.field("family", st.legacy ? "v1" : "v2");
  } else {
    w.key("go_version").null();
    w.key("family").null();
  }
  w.end_object();
  w.field("bytes", st.bytes);
  w.field("bytes_used", st.bytes_used);
  w.field("generations", st.generations);
  w.field("events", st.events);
  w.key("events_by_kind").begin_object();
  for (size_t k = 0; k < st.events_by_kind.size(); k++) {
    if (st.events_by_kind[k]) w.field(to_string(static_cast<EventKind>(k)), st.events_by_kind[k]);
  }
  w.end_object();
  w.key("events_by_type").begin_object();
  for (int t = 0; t < 256; t++) {
    if (!st.events_by_type[t]) continue;
    w.field(t == EvSyncOut ? std::string("Sync") : event_name(static_cast<uint8_t>(t)), st.events_by_type[t]);
  }
  w.end_object();
  w.field("goroutines", st.goroutines);
  w.field("procs", st.procs);
  w.field("threads", st.threads);
  w.field("gcs", st.gcs);
  w.field("stacks", st.stacks);
  w.field("strings", st.strings);
  w.key("time").begin_object();
  w.field("start", st.start);
  w.field("end", st.end);
  w.field("duration", st.end - st.start);
  auto wall = [&](const char* key, const std::optional<WallTime>& t) {
    w.key(key);
    if (!t) {
      w.null();
      return;
    }
    std::string text;
    append_rfc3339_nano(text, *t);
    w.value(text);
  };
  wall("wall_start", st.wall_start);
  wall("wall_end", st.wall_end);
  w.end_object();
  w.key("error");
  if (st.error) {
    w.value(*st.error);
  } else {
    w.null();
  }
  w.end_object();
  if (pretty) out += '\n';
  return out;
}

namespace {

std::string human_duration(int64_t ns) {
  double v = static_cast<double>(ns);
  if (v >= 1e9) return fmt("%.3f s", v / 1e9);
  if (v >= 1e6) return fmt("%.3f ms", v / 1e6);
  if (v >= 1e3) return fmt("%.3f µs", v / 1e3);
  return fmt("%lld ns", (long long)ns);
}

}  // namespace

std::string stats_text(const TraceStats& st) {
  std::string out;
  if (st.go_minor > 0)
    out += fmt("format       Go 1.%d (%s)\n", st.go_minor, st.legacy ? "v1, converted to the Go 1.22 event model" : "v2");
  else
    out += "format       unknown (no Go execution trace header)\n";
  out += fmt("bytes        %llu\n", (unsigned long long)st.bytes);
  // A file with no trace header has no unread part to speak of: its error says it all.
  if (st.go_minor > 0 && st.bytes_used != st.bytes) {
    const char* where = st.bytes_used > 0 ? "after the last complete generation"
                        : st.legacy       ? "all of it: a v1 trace is read whole"
                                          : "all of it: no generation was read to its end";
    out += fmt("bytes unread %llu (%s)\n", (unsigned long long)(st.bytes - st.bytes_used), where);
  }
  out += fmt("generations  %llu\n", (unsigned long long)st.generations);
  out += fmt("duration     %s (%lld .. %lld ns)\n", human_duration(st.end - st.start).c_str(), (long long)st.start,
             (long long)st.end);
  if (st.wall_start && st.wall_end) {
    std::string from, to;
    append_rfc3339_nano(from, *st.wall_start);
    append_rfc3339_nano(to, *st.wall_end);
    out += "wall clock   " + from + " .. " + to + "\n";
  }
  out += fmt("goroutines   %llu\nprocs        %llu\nthreads      %llu\nGCs          %llu\n", (unsigned long long)st.goroutines,
             (unsigned long long)st.procs, (unsigned long long)st.threads, (unsigned long long)st.gcs);
  out += fmt("stacks       %llu\nstrings      %llu\n", (unsigned long long)st.stacks, (unsigned long long)st.strings);
  out += fmt("events       %llu\n", (unsigned long long)st.events);
  for (size_t k = 0; k < st.events_by_kind.size(); k++) {
    if (st.events_by_kind[k]) {
      out += fmt("  %-17s %llu\n", std::string(to_string(static_cast<EventKind>(k))).c_str(),
                 (unsigned long long)st.events_by_kind[k]);
    }
  }
  if (st.error) out += "error        " + *st.error + "\n";
  return out;
}

}  // namespace gotrace
