#include "gotrace/stats.h"

#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "gotrace/flat_map.h"
#include "gotrace/id_map.h"
#include "gotrace/json_writer.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"

namespace gotrace {
using namespace v2;

namespace {

// v1 traces put some events on pseudo-procs (timer, netpoll, syscall, GC: 1000000+).
constexpr ProcID kFirstPseudoProc = 1000000;

}  // namespace

TraceStats compute_stats(const ReadResult& r, const std::array<uint64_t, 256>* events_by_type) {
  const EventStore& s = r.store;
  TraceStats st;
  st.go_minor = s.format.go_minor;
  st.legacy = s.format.legacy;
  st.bytes = s.format.file_bytes;
  st.generations = s.generations.size();
  st.events = s.size();
  st.stacks = s.stacks.size() - 1;
  st.strings = s.strings.size() - 1;
  if (st.events) {
    st.start = s.time(0);
    st.end = s.time(st.events - 1);
  }
  if (r.error) st.error = r.error->what();
  st.bytes_used = 0;
  for (const GenerationInfo& g : s.generations) {
    st.bytes_used = std::max<uint64_t>(st.bytes_used, g.file_offset + g.file_bytes);
  }
  if (r.ok()) st.bytes_used = st.bytes;

  // Goroutine ids are small and nearly consecutive: an array indexed by id answers for
  // most (one hash insert per event was most of the cost of stats on a large trace).
  IdMap<uint8_t, 0> goroutines;
  size_t goroutine_count = 0;
  auto add_goroutine = [&](int64_t g) {
    if (goroutines.get(g) != 0) return;
    goroutines.set(g, 1);
    goroutine_count++;
  };
  FlatMap<uint8_t> procs, threads;
  auto add_thread_proc = [&](ThreadID m, ProcID p) {
    if (p != kNoProc && p < kFirstPseudoProc) procs[static_cast<uint64_t>(p)] = 1;
    if (m != kNoThread) threads[static_cast<uint64_t>(m)] = 1;
  };
  for (const auto& [m, p] : s.thread_procs()) add_thread_proc(m, p);
  for (const Context& c : s.wide_contexts()) add_thread_proc(c.m, c.p);
  GoID last_g = kNoGoroutine;
  for_each_event_slice(s.size(), [&](size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      if (GoID g = s.goroutine(i); g != last_g) {  // runs of one goroutine's events: one lookup
        last_g = g;
        if (g != kNoGoroutine) add_goroutine(g);
      }
      switch (s.type(i)) {
        case EvGoCreate:
        case EvGoCreateBlocked:
        case EvGoCreateSyscall:
        case EvGoStatus:
        case EvGoStatusStack:
        case EvGoStart:
        case EvGoUnblock:
          add_goroutine(static_cast<int64_t>(s.ab(i)));
          break;
        case EvProcStart:
        case EvProcStatus:
        case EvProcSteal:
          procs[s.ab(i)] = 1;
          break;
      }
    }
  });
  st.events_by_type = events_by_type ? *events_by_type : s.count_by_type();
  st.gcs = st.events_by_type[EvGCBegin];
  for (int t = 0; t < 256; t++) st.events_by_kind[static_cast<size_t>(kind_of_type(static_cast<uint8_t>(t)))] += st.events_by_type[t];
  st.goroutines = goroutine_count;
  st.procs = procs.size();
  st.threads = threads.size();
  return st;
}

std::string stats_json(const TraceStats& st, bool pretty) {
  std::string out;
  JsonWriter w(out, pretty);
  w.begin_object();
  w.key("format").begin_object();
  w.field("go_version", fmt("1.%d", st.go_minor));
  w.field("family", st.legacy ? "v1" : "v2");
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
  out += fmt("format       Go 1.%d (%s)\n", st.go_minor, st.legacy ? "v1, converted to the Go 1.22 event model" : "v2");
  out += fmt("bytes        %llu\n", (unsigned long long)st.bytes);
  if (st.bytes_used != st.bytes) {
    out += fmt("bytes unread %llu (after the last complete generation)\n", (unsigned long long)(st.bytes - st.bytes_used));
  }
  out += fmt("generations  %llu\n", (unsigned long long)st.generations);
  out += fmt("duration     %s (%lld .. %lld ns)\n", human_duration(st.end - st.start).c_str(), (long long)st.start,
             (long long)st.end);
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
