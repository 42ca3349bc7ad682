// gotrace timeline: one query of the timeline index, as the viewer would ask it — for
// looking at what the viewer gets, and at how long it takes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "command.h"
#include "output.h"
#include "file_io.h"
#include "gotrace/analysis/timeline_json.h"
#include "gotrace/reader.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// --track=KIND[:ARG]
struct TrackSpec {
  std::string kind;
  std::string arg;
};

TrackSpec parse_track(const std::string& s) {
  auto colon = s.find(':');
  if (colon == std::string::npos) return {s, ""};
  return {s.substr(0, colon), s.substr(colon + 1)};
}

std::optional<TrackKind> slice_kind(const std::string& name) {
  for (size_t k = 0; k < kTrackKinds; k++)
    if (to_string(static_cast<TrackKind>(k)) == name) return static_cast<TrackKind>(k);
  return std::nullopt;
}

ResourceKind resource_by(const std::string& arg) {
  if (arg.empty() || arg == "proc") return ResourceKind::Proc;
  if (arg == "goroutine") return ResourceKind::Goroutine;
  if (arg == "thread") return ResourceKind::Thread;
  throw std::runtime_error("instants group by goroutine, proc or thread, not '" + arg + "'");
}

std::optional<SeriesKind> series_kind(const std::string& name) {
  for (size_t k = 0; k < kSeriesKinds; k++)
    if (to_string(static_cast<SeriesKind>(k)) == name) return static_cast<SeriesKind>(k);
  return std::nullopt;
}

// Runs one query, writing its JSON unless `w` is null; returns the number of rectangles
// or points.
size_t run_query(const TimelineIndex& index, const TrackSpec& t, const TimelineView& v, uint32_t limit, JsonWriter* w) {
  const EventStore& s = index.store();
  if (auto kind = slice_kind(t.kind)) {
    if (t.arg == "*") {  // every track of the kind: one screen of them
      size_t n = 0;
      if (w) w->begin_array();
      for (int64_t id : index.ids(*kind)) {
        SliceRects r = query_slices(index, {*kind, id}, v);
        if (w) slices_json(*w, s, *kind, r);
        n += r.size();
      }
      if (w) w->end_array();
      return n;
    }
    int64_t id = t.arg.empty() ? 0 : parse_whole("track", t.arg);
    SliceRects r = query_slices(index, {*kind, id}, v);
    if (w) slices_json(*w, s, *kind, r);
    return r.size();
  }
  if (t.kind == "regions") {
    SpanRects r = query_regions(index, parse_whole("track", t.arg), v);
    if (w) spans_json(*w, s, r);
    return r.size();
  }
  if (t.kind == "tasks") {
    SpanRects r = query_tasks(index, v);
    if (w) spans_json(*w, s, r);
    return r.size();
  }
  if (auto kind = instant_kind(t.kind)) {
    InstantMarks r = query_instants(index, *kind, resource_by(t.arg), v);
    if (w) instants_json(*w, r);
    return r.size();
  }
  if (t.kind == "edges") {
    WakeEdges r = query_wake_edges(index, v, limit);
    if (w) wake_edges_json(*w, s, r);
    return r.size();
  }
  if (t.kind == "series") {
    auto k = series_kind(t.arg);
    if (!k) throw std::runtime_error("unknown series '" + t.arg + "' (see --help)");
    SeriesPoints r = query_series(index, *k, v);
    if (w) series_json(*w, r);
    return r.size();
  }
  throw std::runtime_error("unknown track '" + t.kind + "' (see --help)");
}

void print_ids(const TimelineIndex& index) {
  for (size_t k = 0; k < kTrackKinds; k++) {
    auto ids = index.ids(static_cast<TrackKind>(k));
    std::printf("%s (%zu):", std::string(to_string(static_cast<TrackKind>(k))).c_str(), ids.size());
    for (size_t i = 0; i < ids.size() && i < 32; i++) std::printf(" %lld", static_cast<long long>(ids[i]));
    std::printf(ids.size() > 32 ? " ...\n" : "\n");
  }
}

int run_timeline(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const bool stats = args.flag("stats");

  auto t0 = Clock::now();
  std::vector<uint8_t> bytes = read_file(args.positional()[0]);
  ReadResult r = read_trace(bytes);
  const double read_ms = ms_since(t0);
  if (!r.ok()) std::fprintf(stderr, "gotrace timeline: %s\n", r.error->what());
  bytes = {};

  auto t1 = Clock::now();
  TimelineIndex index = build_timeline_index(r.store, {!args.flag("no-threads")});
  const double build_ms = ms_since(t1);

  if (args.value("track") == "list" || !args.has_value("track")) {
    print_ids(index);
    if (!stats) return r.ok() ? 0 : 1;
  }
  TimelineView v;
  v.from = args.has_value("from") ? parse_whole("from", args.value("from")) : index.start();
  v.to = args.has_value("to") ? parse_whole("to", args.value("to")) : index.end() + 1;
  v.pixels = static_cast<uint32_t>(parse_bounded("pixels", args.value("pixels", "1000"), 1, 1'000'000'000));
  const auto limit = static_cast<uint32_t>(parse_bounded("limit", args.value("limit", std::to_string(uint64_t{v.pixels} * 2)), 0, UINT32_MAX));

  std::string json;
  size_t n = 0;
  if (args.has_value("track") && args.value("track") != "list") {
    TrackSpec t = parse_track(args.value("track"));
    JsonWriter w(json, !args.flag("json"));
    n = run_query(index, t, v, limit, &w);
    std::printf("%s\n", json.c_str());
    if (stats) {
      // The same query again, timed: best of several runs.
      double best = 1e300, best_json = 1e300;
      for (int i = 0; i < 20; i++) {
        auto q = Clock::now();
        run_query(index, t, v, limit, nullptr);
        best = std::min(best, ms_since(q));
        std::string scratch;
        JsonWriter sw(scratch);
        q = Clock::now();
        run_query(index, t, v, limit, &sw);
        best_json = std::min(best_json, ms_since(q));
      }
      std::fprintf(stderr, "query: %zu results in %.3f ms (%.3f ms with JSON; best of 20)\n", n, best, best_json);
    }
  }
  if (stats) {
    TimelineMemory m = index.memory();
    const double events = static_cast<double>(std::max<size_t>(1, r.store.size()));
    std::fprintf(stderr, "read %.1f ms: %zu events, store %.1f MiB (%.1f B/event)\n", read_ms, r.store.size(),
                 static_cast<double>(r.store.bytes_reserved()) / (1 << 20),
                 static_cast<double>(r.store.bytes_reserved()) / events);
    std::fprintf(stderr, "index %.1f ms: %.1f MiB (%.2f B/event)\n", build_ms,
                 static_cast<double>(m.total()) / (1 << 20), static_cast<double>(m.total()) / events);
    auto part = [&](const char* name, size_t b) {
      std::fprintf(stderr, "  %-10s %8.1f MiB %6.2f B/event\n", name, static_cast<double>(b) / (1 << 20),
                   static_cast<double>(b) / events);
    };
    part("goroutines", m.goroutines);
    part("procs", m.procs);
    part("threads", m.threads);
    part("ranges", m.ranges);
    part("regions", m.regions);
    part("tasks", m.tasks);
    part("instants", m.instants);
    part("series", m.series);
  }
  return r.ok() ? 0 : 1;
}

Register reg({
    "timeline",
    "query the timeline the viewer draws (slices, spans, counters) for a time range",
    "Usage: gotrace timeline FILE --track=TRACK [--from=NS] [--to=NS] [--pixels=N] [--json]\n\n"
    "Builds the timeline index of the trace and runs one query for the range [from, to)\n"
    "drawn in N pixels (default: the whole trace in 1000): what is at least a pixel wide\n"
    "comes back exactly, narrower things merged per pixel. Prints the result as JSON\n"
    "(indented unless --json).\n\n"
    "Tracks:\n"
    "  list                 the ids of every slice track (the default)\n"
    "  goroutine:G          goroutine G's states (running, runnable, waiting, syscall)\n"
    "                       (for any slice track, KIND:* queries every track of the kind)\n"
    "  proc:P, thread:M     the goroutines a proc or thread ran\n"
    "  gc, stw              GC mark phases, stop-the-world pauses\n"
    "  sweep:P, assist:G    GC sweeps on proc P, GC mark assists of goroutine G\n"
    "  regions:G, tasks     user regions of goroutine G, user tasks\n"
    "  logs[:BY], samples[:BY]  user logs, CPU samples; BY = proc (default), goroutine, thread\n"
    "  network[:BY]         goroutines blocked on the network made runnable (go tool\n"
    "                       trace's \"Network\" lane)\n"
    "  syscalls[:BY]        ends of syscalls that had lost their proc (\"Syscalls\" lane)\n"
    "  edges                which goroutine woke which (at most --limit, default 2 per pixel)\n"
    "  series:NAME          goroutines-running, goroutines-runnable, goroutines-waiting,\n"
    "                       goroutines-syscall, procs-running, heap-alloc, heap-goal, gomaxprocs\n\n"
    "  --no-threads         leave thread tracks out of the index\n"
    "  --stats              print on stderr the index's build time and memory, and the\n"
    "                       query's time\n",
    {"track", "from", "to", "pixels", "limit"},
    {"track", "from", "to", "pixels", "limit", "json", "stats", "no-threads"},
    run_timeline,
});

}  // namespace
}  // namespace gotrace::cli
