// Embind bindings of native/core. They only convert: bytes in, JSON strings and typed
// arrays out. Every failure comes back as a message (the JS wrapper throws it as an
// Error), so the module stays usable after one.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/flame_graph.h"
#include "gotrace/analysis/goroutines.h"
#include "gotrace/analysis/mmu.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/profile_selection.h"
#include "gotrace/analysis/regions.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/analysis/tasks.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/analysis/timeline_group.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/analysis/wake_index.h"
#include "gotrace/event_format.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"
#include "gotrace/wall_clock.h"

using emscripten::val;
using namespace gotrace;
using namespace gotrace::analysis;

namespace {

// Copies a vector into a new JS typed array (the JS side owns the copy).
template <class T>
val typed_copy(const std::vector<T>& v) {
  val view(emscripten::typed_memory_view(v.size(), v.data()));
  return view.call<val>("slice");
}

// Integers (times, ids, event indices) as doubles: exact below 2^53.
template <class T>
val f64_copy(const std::vector<T>& v) {
  std::vector<double> d(v.begin(), v.end());
  return typed_copy(d);
}

// Enum codes as bytes.
template <class E>
val u8_copy(const std::vector<E>& v) {
  std::vector<uint8_t> d(v.size());
  for (size_t i = 0; i < v.size(); i++) d[i] = static_cast<uint8_t>(v[i]);
  return typed_copy(d);
}

// String ids as indexes into a table of their texts (built here, sent once); id 0 ("")
// is -1 when `zero_is_none`.
class LocalStrings {
 public:
  LocalStrings(const EventStore& s, bool zero_is_none) : s_(s), zero_is_none_(zero_is_none) {}
  int32_t operator()(StringID id) {
    if (id == 0 && zero_is_none_) return -1;
    auto [it, fresh] = index_.try_emplace(id, static_cast<int32_t>(texts_.size()));
    if (fresh) texts_.emplace_back(s_.strings.get(id));
    return it->second;
  }
  val texts() const {
    val a = val::array();
    for (const std::string& t : texts_) a.call<void>("push", val(t));
    return a;
  }

 private:
  const EventStore& s_;
  bool zero_is_none_;
  std::unordered_map<StringID, int32_t> index_;
  std::vector<std::string> texts_;
};

val string_array(const std::vector<std::string_view>& v) {
  val a = val::array();
  for (std::string_view t : v) a.call<void>("push", val(std::string(t)));
  return a;
}

std::optional<TrackKind> slice_track_kind(const std::string& name) {
  for (size_t k = 0; k < kTrackKinds; k++)
    if (to_string(static_cast<TrackKind>(k)) == name) return static_cast<TrackKind>(k);
  return std::nullopt;
}

std::string what_of(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory (the trace needs more memory than is available)";
  return e.what();
}

class WasmTrace {
 public:
  // Reads `size` bytes at `address` (allocated by the caller with _malloc and freed
  // here once read). `progress(bytesDone, bytesTotal, events)` is called as generations
  // complete; returning false cancels.
  WasmTrace(uintptr_t address, double size, val progress) {
    auto* bytes = reinterpret_cast<uint8_t*>(address);
    try {
      ReadOptions options;
      if (!progress.isUndefined() && !progress.isNull()) {
        options.on_progress = [&progress](const ReadProgress& p) {
          val r = progress(static_cast<double>(p.bytes_done), static_cast<double>(p.bytes_total),
                           static_cast<double>(p.events));
          return !(r.isFalse());
        };
      }
      result_ = read_trace(std::span<const uint8_t>(bytes, static_cast<size_t>(size)), options);
    } catch (const std::exception& e) {
      fatal_ = what_of(e);
    }
    std::free(bytes);
  }

  // The reader's error ("" when the whole trace was read). Events before it are kept.
  std::string error() const {
    if (!fatal_.empty()) return fatal_;
    return result_.error ? result_.error->what() : "";
  }
  bool usable() const { return fatal_.empty(); }

  double event_count() const { return static_cast<double>(result_.store.size()); }

  // Computed once (a pass over the events): the app asks for it on several pages.
  val stats() const {
    return guard([&] {
      if (stats_json_.empty()) stats_json_ = stats_json(compute_stats(result_, &events_by_type()), false);
      return val(stats_json_);
    });
  }

  // A page of events: index >= from, at most limit of them, optionally only those of
  // one goroutine / proc / thread (-2 = any) and of the given kinds (bit mask over
  // EventKind). Columns come back as typed arrays, Go's text of each event as strings.
  val events(double from, double limit, double goroutine, double proc, double thread, double kind_mask) const {
    return guard([&] {
      const EventStore& s = result_.store;
      std::vector<double> index, time, g, p, m;
      std::vector<uint8_t> kind;
      val text = val::array();
      auto mask = static_cast<uint32_t>(kind_mask);
      size_t i = from < 0 ? 0 : static_cast<size_t>(from);
      size_t want = limit < 0 ? 0 : static_cast<size_t>(limit);
      std::string line;
      for (; i < s.size() && index.size() < want; i++) {
        EventView ev(s, i);
        if (goroutine != -2 && ev.goroutine() != static_cast<GoID>(goroutine)) continue;
        if (proc != -2 && ev.proc() != static_cast<ProcID>(proc)) continue;
        if (thread != -2 && ev.thread() != static_cast<ThreadID>(thread)) continue;
        if (mask && !(mask & (1u << static_cast<unsigned>(ev.kind())))) continue;
        index.push_back(static_cast<double>(i));
        time.push_back(static_cast<double>(ev.time()));
        g.push_back(static_cast<double>(ev.goroutine()));
        p.push_back(static_cast<double>(ev.proc()));
        m.push_back(static_cast<double>(ev.thread()));
        kind.push_back(static_cast<uint8_t>(ev.kind()));
        line.clear();
        append_go_event_string(line, s, i, listing_of(s));
        text.call<void>("push", val(line));
      }
      val page = val::object();
      page.set("index", typed_copy(index));
      page.set("time", typed_copy(time));
      page.set("goroutine", typed_copy(g));
      page.set("proc", typed_copy(p));
      page.set("thread", typed_copy(m));
      page.set("kind", typed_copy(kind));
      page.set("text", text);
      page.set("next", static_cast<double>(i < s.size() ? i : s.size()));
      return page;
    });
  }


  // `gotrace goroutines --json`.
  val goroutines() const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      goroutines_json(w, s, goroutine_groups(s));
      return val(out);
    });
  }

  // `gotrace tasks --json`.
  val tasks() const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      tasks_json(w, result_.store, s, task_types(s));
      return val(out);
    });
  }

  // `gotrace regions --json`.
  val regions() const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      regions_json(w, s, region_types(result_.store, s));
      return val(out);
    });
  }

  // Computes an analysis now, so that the calls that need it answer at once later:
  // "summary", "goroutineGroups" (each group's goroutines in order too), "taskTypes",
  // "regionTypes", "timeline", "goroutineLanes" (the timeline's goroutine tracks,
  // otherwise built on their first query), "wakes" (the index of wake edges),
  // "flame:TYPE" (the whole trace's flame graph of a profile type), "flames" (those of
  // every type, their profiles in one pass over the events) or "mmu" (the curve for the
  // default flags: STW, background, assist and sweep).
  val prepare(std::string what) const {
    return guard([&] {
      prepare_now(what);
      return val::null();
    });
  }

  // The next piece of a long analysis, about `events` events' worth of work: "summary",
  // "timeline", "goroutineLanes" (which builds the timeline first), "wakes" or "mmu";
  // true once it is complete. Any other analysis prepare() knows is computed whole.
  val advance(std::string what, double events) const {
    return guard([&] { return val(advance_now(what, events >= 1 ? static_cast<size_t>(std::min(events, 1e15)) : 1)); });
  }

  // The goroutine groups without their goroutines: {"count", "groups": [...]}.
  val goroutine_groups_part() const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.field("count", static_cast<uint64_t>(s.goroutines.size()));
      w.key("groups").begin_array();
      for (const GoroutineGroup& g : groups()) goroutine_group_json(w, s, g);
      w.end_array();
      w.end_object();
      return val(out);
    });
  }

  // One group's goroutines sorted by a column, rows [offset, offset + limit) of them
  // (limit < 0: all): {"group", "count", "maxTotal", "first", "last", "rows": [...]}, or
  // "null" for no such group.
  val goroutine_group_page(std::string name, std::string column, bool descending, double offset,
                           double limit) const {
    return guard([&] {
      const Summary& s = summary();
      const GoroutineGroup* group = nullptr;
      size_t k = 0;
      for (; k < groups().size() && !group; k++)
        if (groups()[k].name == name) group = &groups()[k];
      if (!group) return val(std::string("null"));
      std::optional<GoroutineSort> by = parse_goroutine_sort(column);
      if (!by) by = GoroutineSort::Total;
      if (!sorted_ || sorted_->name != name || sorted_->by != *by || sorted_->descending != descending) {
        sorted_ = SortedGroup{name, *by, descending, sorted_goroutines(s, members_of(k - 1), *by, descending)};
      }
      const auto& rows = sorted_->rows;
      int64_t max_total = 1;
      Time first = 0, last = 0;
      bool any_start = false, alive = false;
      for (const GoroutineSummary* g : rows) {
        max_total = std::max(max_total, g->stats.total);
        if (Time t = g->start_time ? g->start_time : g->creation_time) {
          first = any_start ? std::min(first, t) : t;
          any_start = true;
        }
        if (g->end_time) last = std::max(last, g->end_time);
        else alive = true;
      }
      const size_t from = offset > 0 ? std::min(rows.size(), static_cast<size_t>(offset)) : 0;
      const size_t to = limit < 0 ? rows.size() : std::min(rows.size(), from + static_cast<size_t>(limit));
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.key("group");
      goroutine_group_json(w, s, *group);
      w.field("count", static_cast<uint64_t>(rows.size()));
      w.field("maxTotal", max_total);
      w.key("first");
      if (any_start) w.value(first);
      else w.null();
      w.key("last");
      if (alive || rows.empty()) w.null();
      else w.value(last);
      w.key("rows").begin_array();
      for (size_t i = from; i < to; i++) goroutine_row_json(w, s, *rows[i]);
      w.end_array();
      w.end_object();
      return val(out);
    });
  }

  // One goroutine and its group: {"goroutine", "group"}, or "null".
  val goroutine_part(double id) const {
    return guard([&] {
      const Summary& s = summary();
      const GoroutineSummary* g = s.goroutine(static_cast<GoID>(id));
      if (!g || static_cast<double>(g->id) != id) return val(std::string("null"));
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.key("goroutine");
      goroutine_json(w, s, *g);
      w.field("group", g->name);
      w.end_object();
      return val(out);
    });
  }

  // The task types: {"types": [...]} as in `gotrace tasks --json`.
  val task_types_part() const {
    return guard([&] {
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.key("types");
      task_types_json(w, tasks_by_type());
      w.end_object();
      return val(out);
    });
  }

  // The complete tasks of a type in the histogram bucket whose lower bound is `min`.
  val tasks_in_bucket_part(std::string name, double min) const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      w.begin_array();
      for (const TaskSummary* t : tasks_in_bucket(s, name, bucket_of_min(min))) task_entry_json(w, result_.store, s, *t);
      w.end_array();
      return val(out);
    });
  }

  // One task as `gotrace tasks --json` lists it, or "null".
  val task_part(double id) const {
    return guard([&] {
      const Summary& s = summary();
      const TaskSummary* t = s.task(static_cast<TaskID>(id));
      if (!t || static_cast<double>(t->id) != id) return val(std::string("null"));
      std::string out;
      JsonWriter w(out);
      task_entry_json(w, result_.store, s, *t);
      return val(out);
    });
  }

  // The region types: {"types": [...]} as in `gotrace regions --json`.
  val region_types_part() const {
    return guard([&] {
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.key("types");
      region_types_json(w, regions_by_type());
      w.end_object();
      return val(out);
    });
  }

  // The regions of a type in the histogram bucket whose lower bound is `min`.
  val regions_in_bucket_part(std::string name, double min) const {
    return guard([&] {
      const Summary& s = summary();
      std::string out;
      JsonWriter w(out);
      w.begin_array();
      for (const RegionSummary* r : regions_in_bucket(s, name, bucket_of_min(min))) region_entry_json(w, s, *r);
      w.end_array();
      return val(out);
    });
  }

  // Task logs whose category or message contains `text`: [{"task", "time", "goroutine",
  // "category", "message"}], at most `limit`.
  val task_logs_matching(std::string text, double limit) const {
    return guard([&] {
      const Summary& s = summary();
      const EventStore& store = result_.store;
      std::string out;
      JsonWriter w(out);
      w.begin_array();
      for (auto [t, i] : logs_matching(store, s, text, limit > 0 ? static_cast<size_t>(limit) : 0)) {
        EventView ev(store, i);
        Log l = ev.log();
        w.begin_object();
        w.field("task", t->id);
        w.field("time", ev.time());
        w.field("goroutine", ev.goroutine());
        w.field("category", l.category);
        w.field("message", l.message);
        w.end_object();
      }
      w.end_array();
      return val(out);
    });
  }

  // Who woke goroutine `id` and whom it woke over [t0, t1]: the wake edges the timeline
  // draws at `pixels` (at most `limit` of them), counted per goroutine without sending
  // them: {"wokenBy": [{"goroutine", "count", "first"}], "woke": [...], "sampled"}, most
  // first, then by goroutine.
  val goroutine_wakeups(double id, double t0, double t1, double pixels, double limit) const {
    return guard([&] {
      if (!(pixels >= 1) || pixels > 1e7) throw std::runtime_error("pixels must be between 1 and 10000000");
      TimelineView v{static_cast<Time>(t0), static_cast<Time>(t1), static_cast<uint32_t>(pixels)};
      WakeEdges r = query_wake_edges(timeline(), v, static_cast<uint32_t>(std::clamp(limit, 0.0, 4e9)));
      return val(wake_counts_json(count_wakeups(r, static_cast<int64_t>(id)), r.sampled));
    });
  }

  // The same, every edge (never sampled), from the index of wake edges: {"wokenBy",
  // "woke", "sampled": false}.
  val wakeups(double id, double t0, double t1) const {
    return guard([&] {
      return val(wake_counts_json(wakes().count(static_cast<int64_t>(id), static_cast<Time>(t0), static_cast<Time>(t1)), false));
    });
  }

  static std::string wake_counts_json(const WakeCounts& c, bool sampled) {
    std::string out;
    JsonWriter w(out);
    auto list = [&](const char* key, const std::vector<WakeCount>& l) {
      w.key(key).begin_array();
      for (const WakeCount& e : l) {
        w.begin_object();
        w.field("goroutine", e.goroutine);
        w.field("count", static_cast<int64_t>(e.count));
        w.field("first", e.first);
        w.end_object();
      }
      w.end_array();
    };
    w.begin_object();
    list("wokenBy", c.woken_by);
    list("woke", c.woke);
    w.field("sampled", sampled);
    w.end_object();
    return out;
  }

  // `gotrace mmu --json --curve` for these windows: {"mmu": ..., "plot": ...}.
  val mmu(val windows, double flags, double worst) const {
    return guard([&] {
      std::vector<double> ws = emscripten::vecFromJSArray<double>(windows);
      const auto f = static_cast<unsigned>(flags);
      const MmuCurve& curve = mmu_curve(f);
      std::vector<MmuWindowResult> results;
      for (double w : ws) {
        if (!(w >= 1)) throw std::runtime_error("an MMU window must be at least 1 ns");
        results.push_back(mmu_window(curve, static_cast<int64_t>(w), static_cast<int>(worst), kMudQuantiles));
      }
      std::string out;
      JsonWriter w(out);
      w.begin_object();
      w.key("mmu");
      mmu_json(w, f, curve, results, kMudQuantiles);
      w.key("plot");
      mmu_plot_json(w, mmu_plot(curve, false));
      w.end_object();
      return val(out);
    });
  }

  // The profile of a type for a selection {goroutines?, group?, region?, range?}, gzipped.
  val pprof(std::string type, val selection) const {
    return guard([&] { return typed_copy(write_pprof(profile(type, selection))); });
  }

  val flame(std::string type, val selection) const {
    return guard([&] {
      const ProfileType t = profile_type(type);
      const ProfileSelection sel = profile_selection(selection);
      const bool whole = sel.goroutines.empty() && !sel.group && !sel.region && !sel.range;
      FlameGraph picked = whole ? FlameGraph{} : flame_graph(build_pprof_profile(result_.store, select_profile(result_.store, summary(), t, sel)));
      const FlameGraph& f = whole ? whole_flame(t) : picked;
      val out = val::object();
      val names = val::array();
      for (const std::string& n : f.names) names.call<void>("push", val(n));
      out.set("names", names);
      out.set("name", typed_copy(f.name));
      out.set("parent", typed_copy(f.parent));
      out.set("depth", typed_copy(f.depth));
      out.set("self", f64_copy(f.self_ns));
      out.set("value", f64_copy(f.total_ns));
      out.set("selfCount", f64_copy(f.self_count));
      out.set("count", f64_copy(f.total_count));
      return out;
    });
  }

  val tracks() const {
    return guard([&] {
      TrackList t = list_tracks(timeline());
      val out = val::object();
      out.set("start", static_cast<double>(t.start));
      out.set("end", static_cast<double>(t.end));
      out.set("procs", f64_copy(t.procs));
      out.set("threads", f64_copy(t.threads));
      val g = val::object();
      g.set("id", f64_copy(t.goroutines));
      g.set("group", typed_copy(t.goroutine_group));
      g.set("groups", string_array(t.groups));
      out.set("goroutines", g);
      out.set("gc", t.gc);
      out.set("stw", t.stw);
      out.set("sweep", f64_copy(t.sweeps));
      out.set("assist", f64_copy(t.assists));
      out.set("regions", f64_copy(t.region_goroutines));
      out.set("taskRows", t.task_rows);
      out.set("logs", static_cast<double>(t.logs));
      out.set("samples", static_cast<double>(t.samples));
      out.set("network", static_cast<double>(t.network));
      out.set("syscalls", static_cast<double>(t.syscalls));
      val series = val::array();
      for (SeriesKind k : t.series) series.call<void>("push", val(std::string(to_string(k))));
      out.set("series", series);
      return out;
    });
  }

  // One query of the timeline: `kind` a slice track kind or regions, tasks, logs,
  // samples, series, edges; `id` the track's id; `arg` the series name or what instants
  // group by; `limit` the most wake edges.
  val timeline_query(std::string kind, double id, std::string arg, double t0, double t1, double pixels,
                     double limit) const {
    return guard([&] {
      const TimelineIndex& index = timeline();
      const EventStore& s = result_.store;
      if (!(pixels >= 1) || pixels > 1e7) throw std::runtime_error("pixels must be between 1 and 10000000");
      TimelineView v{static_cast<Time>(t0), static_cast<Time>(t1), static_cast<uint32_t>(pixels)};
      val out = val::object();
      if (auto k = slice_track_kind(kind)) {
        SliceRects r = query_slices(index, {*k, static_cast<int64_t>(id)}, v);
        const bool exec = *k == TrackKind::Proc || *k == TrackKind::Thread;
        const bool labelled = *k == TrackKind::Goroutine || *k == TrackKind::STW;
        std::vector<double> goroutine(r.size(), -1);
        std::vector<int32_t> label(r.size(), -1);
        LocalStrings labels(s, true);
        for (size_t i = 0; i < r.size(); i++) {
          if (exec) goroutine[i] = static_cast<double>(r.detail[i]);
          if (labelled) label[i] = labels(static_cast<StringID>(r.detail[i]));
        }
        out.set("type", std::string("slices"));
        out.set("start", f64_copy(r.start));
        out.set("end", f64_copy(r.end));
        out.set("state", u8_copy(r.state));
        out.set("count", typed_copy(r.count));
        out.set("goroutine", typed_copy(goroutine));
        out.set("label", typed_copy(label));
        out.set("labels", labels.texts());
        val time_in = val::array();
        for (const auto& col : r.time_in) time_in.call<void>("push", f64_copy(col));
        out.set("timeIn", time_in);
      } else if (kind == "regions" || kind == "tasks") {
        SpanRects r = kind == "regions" ? query_regions(index, static_cast<GoID>(id), v) : query_tasks(index, v);
        LocalStrings names(s, false);
        std::vector<uint32_t> name(r.size());
        for (size_t i = 0; i < r.size(); i++) name[i] = static_cast<uint32_t>(names(r.name[i]));
        out.set("type", std::string("spans"));
        out.set("start", f64_copy(r.start));
        out.set("end", f64_copy(r.end));
        out.set("row", typed_copy(r.row));
        out.set("count", typed_copy(r.count));
        out.set("task", f64_copy(r.task));
        out.set("name", typed_copy(name));
        out.set("names", names.texts());
      } else if (auto instants = instant_kind(kind)) {
        ResourceKind by = arg == "goroutine" ? ResourceKind::Goroutine
                          : arg == "thread"  ? ResourceKind::Thread
                          : arg.empty() || arg == "proc" ? ResourceKind::Proc
                                                         : throw std::runtime_error("instants group by proc, goroutine or thread, not '" + arg + "'");
        InstantMarks r = query_instants(index, *instants, by, v);
        out.set("type", std::string("instants"));
        out.set("time", f64_copy(r.time));
        out.set("resource", f64_copy(r.resource));
        out.set("count", typed_copy(r.count));
        out.set("event", f64_copy(r.event));
      } else if (kind == "series") {
        std::optional<SeriesKind> series;
        for (size_t i = 0; i < kSeriesKinds; i++)
          if (to_string(static_cast<SeriesKind>(i)) == arg) series = static_cast<SeriesKind>(i);
        if (!series) throw std::runtime_error("unknown series '" + arg + "'");
        SeriesPoints r = query_series(index, *series, v);
        out.set("type", std::string("series"));
        out.set("exact", r.exact);
        out.set("time", f64_copy(r.time));
        out.set("value", f64_copy(r.value));
        out.set("min", f64_copy(r.min));
        out.set("max", f64_copy(r.max));
      } else if (kind == "group") {
        // `id`: the index of a goroutine group in tracks().goroutines.groups.
        const auto& members = timeline_group_members();
        if (!(id >= 0) || id >= static_cast<double>(members.size()))
          throw std::runtime_error("no goroutine group " + std::to_string(static_cast<long long>(id)));
        GroupActivity r = query_group_activity(index, members[static_cast<size_t>(id)], v);
        out.set("type", std::string("activity"));
        out.set("from", static_cast<double>(r.from));
        out.set("step", r.ns_per_pixel);
        out.set("size", static_cast<double>(members[static_cast<size_t>(id)].size()));
        for (SliceState st : {SliceState::Running, SliceState::Runnable, SliceState::Waiting, SliceState::Syscall})
          out.set(std::string(to_string(st)), f64_copy(r.in[static_cast<size_t>(st)]));
      } else if (kind == "edges") {
        const uint32_t lim = limit >= 0 ? static_cast<uint32_t>(std::min(limit, 4e9)) : v.pixels * 2;
        WakeEdges r = query_wake_edges(index, v, lim);
        LocalStrings reasons(s, true);
        std::vector<int32_t> reason(r.size());
        for (size_t i = 0; i < r.size(); i++) reason[i] = reasons(r.reason[i]);
        out.set("type", std::string("edges"));
        out.set("sampled", r.sampled);
        out.set("fromTime", f64_copy(r.from_time));
        out.set("toTime", f64_copy(r.to_time));
        out.set("kind", u8_copy(r.kind));
        out.set("goroutine", f64_copy(r.goroutine));
        out.set("fromGoroutine", f64_copy(r.from_goroutine));
        out.set("fromProc", f64_copy(r.from_proc));
        out.set("fromThread", f64_copy(r.from_thread));
        out.set("toProc", f64_copy(r.to_proc));
        out.set("toThread", f64_copy(r.to_thread));
        out.set("reason", typed_copy(reason));
        out.set("reasons", reasons.texts());
      } else {
        throw std::runtime_error("unknown track kind '" + kind + "'");
      }
      return out;
    });
  }

  // The slice of a slice track at a time, or null.
  val slice_at_time(std::string kind, double id, double time) const {
    return guard([&] {
      auto k = slice_track_kind(kind);
      if (!k) throw std::runtime_error("'" + kind + "' is not a slice track");
      std::optional<SliceAt> at = slice_at(timeline(), {*k, static_cast<int64_t>(id)}, static_cast<Time>(time));
      if (!at) return val::null();
      const EventStore& s = result_.store;
      const bool exec = *k == TrackKind::Proc || *k == TrackKind::Thread;
      const bool labelled = *k == TrackKind::Goroutine || *k == TrackKind::STW;
      auto label_of = [&](int64_t detail) { return labelled ? std::string(s.strings.get(static_cast<StringID>(detail))) : std::string(); };
      auto goroutine_of = [&](int64_t detail) {
        return *k == TrackKind::Goroutine || *k == TrackKind::MarkAssist ? static_cast<double>(id)
               : exec                                                  ? static_cast<double>(detail)
                                                                       : -1.0;
      };
      val out = val::object();
      val track = val::object();
      track.set("kind", kind);
      track.set("id", static_cast<double>(at->track.id));
      out.set("track", track);
      out.set("start", static_cast<double>(at->start));
      out.set("end", static_cast<double>(at->end));
      out.set("duration", static_cast<double>(at->end - at->start));
      out.set("state", std::string(to_string(at->state)));
      out.set("label", label_of(at->detail));
      out.set("goroutine", goroutine_of(at->detail));
      out.set("event", static_cast<double>(at->begin_event));
      std::string text;
      append_go_event_string(text, s, at->begin_event, listing_of(s));
      out.set("eventText", text);
      out.set("stack", frames(event_stack(at->begin_event)));
      const bool open = at->end_event == kNoSliceEvent;
      out.set("endEvent", open ? -1.0 : static_cast<double>(at->end_event));
      out.set("endStack", open ? val::array() : frames(event_stack(at->end_event)));
      if (at->wake) {
        val w = val::object();
        w.set("goroutine", static_cast<double>(s.context(at->wake_event).g));
        w.set("time", static_cast<double>(s.time(at->wake_event)));
        w.set("event", static_cast<double>(at->wake_event));
        w.set("kind", std::string(to_string(*at->wake)));
        w.set("stack", frames(event_stack(at->wake_event)));
        out.set("wokenBy", w);
      } else {
        out.set("wokenBy", val::null());
      }
      if (at->has_next) {
        val n = val::object();
        n.set("start", static_cast<double>(at->next_start));
        n.set("state", std::string(to_string(at->next_state)));
        n.set("goroutine", goroutine_of(at->next_detail));
        n.set("label", label_of(at->next_detail));
        out.set("next", n);
      } else {
        out.set("next", val::null());
      }
      return out;
    });
  }

  // One event: its columns, Go's text of it and its stack.
  val event_at(double index) const {
    return guard([&] {
      const EventStore& s = result_.store;
      if (!(index >= 0) || index >= static_cast<double>(s.size()))
        throw std::runtime_error("no event " + std::to_string(static_cast<long long>(index)) + " (the trace has " +
                                 std::to_string(s.size()) + ")");
      const auto i = static_cast<size_t>(index);
      EventView ev(s, i);
      val out = val::object();
      out.set("index", index);
      out.set("time", static_cast<double>(ev.time()));
      out.set("kind", static_cast<int>(ev.kind()));
      out.set("goroutine", static_cast<double>(ev.goroutine()));
      out.set("proc", static_cast<double>(ev.proc()));
      out.set("thread", static_cast<double>(ev.thread()));
      std::string text;
      append_go_event_string(text, s, i, listing_of(s));
      out.set("text", text);
      out.set("stack", frames(event_stack(i)));
      if (ev.kind() == EventKind::Sync) {
        const SyncInfo sync = ev.sync();
        val details = val::object();
        details.set("n", static_cast<double>(sync.n));
        details.set("clock", sync.clock ? clock_object(*sync.clock) : val::null());
        out.set("sync", details);
      }
      return out;
    });
  }

  // The clock snapshot of each generation that has one (Go 1.25+ traces).
  val clock_snapshots() const {
    return guard([&] {
      val out = val::array();
      for (const GenerationInfo& g : result_.store.generations) {
        if (!g.clock) continue;
        val c = clock_object(*g.clock);
        c.set("generation", static_cast<double>(g.number));
        out.call<void>("push", c);
      }
      return out;
    });
  }
 private:
  // A clock snapshot for JavaScript: trace time (ns), monotonic clock (ns), and the wall
  // clock as Go prints it (RFC 3339, UTC) and as ms since the epoch (a Date's value).
  static val clock_object(const ClockSnapshot& c) {
    val o = val::object();
    o.set("trace", static_cast<double>(c.trace));
    o.set("mono", static_cast<double>(c.mono));
    const WallTime wall = snapshot_wall(c);
    std::string text;
    append_rfc3339_nano(text, wall);
    o.set("wall", text);
    o.set("wallMs", static_cast<double>(wall.sec) * 1e3 + static_cast<double>(wall.nsec) / 1e6);
    return o;
  }
  void prepare_now(const std::string& what) const {
    if (what == "summary") summary();
    else if (what == "goroutineGroups") for (size_t k = 0; k < groups().size(); k++) members_of(k);
    else if (what == "taskTypes") tasks_by_type();
    else if (what == "regionTypes") regions_by_type();
    else if (what == "timeline") timeline();
    else if (what == "goroutineLanes") timeline().build_goroutine_lanes();
    else if (what == "wakes") wakes();
    else if (what.starts_with("flame:")) whole_flame(profile_type(what.substr(6)));
    else if (what == "flames") {
      prepare_whole_profiles();
      for (ProfileType t : kProfileTypes) whole_flame(t);
    }
    else if (what == "mmu") mmu_curve(kDefaultMmuFlags);
    else throw std::runtime_error("nothing to prepare called '" + what + "'");
  }
  bool advance_now(const std::string& what, size_t events) const {
    if (what == "summary") return advance_summary(events);
    if (what == "timeline") return advance_timeline(events);
    if (what == "wakes") return advance_piece(wakes_, wakes_build_, events, &events_by_type());
    if (what == "mmu") return advance_piece(mmu_curves_[kDefaultMmuFlags], mmu_build_, events, kDefaultMmuFlags);
    if (what == "goroutineLanes") {
      if (!timeline_) {
        advance_timeline(events);  // the timeline first: the lanes are not begun
        return false;
      }
      return timeline_->build_goroutine_lanes(events);
    }
    prepare_now(what);
    return true;
  }
  // The next piece, up to `events` events, of an analysis built a piece at a time by
  // `build` (SummaryBuild, TimelineIndexBuild); true once `done` holds it.
  template <class Build, class Result, class... Args>
  bool advance_piece(std::unique_ptr<Result>& done, std::unique_ptr<Build>& build, size_t events, Args... args) const {
    if (done) return true;
    if (!build) build = std::make_unique<Build>(result_.store, args...);
    if (!build->step(events)) return false;
    done = std::make_unique<Result>(build->take());
    build.reset();
    return true;
  }
  bool advance_summary(size_t events) const {
    return advance_piece(summary_, summary_build_, events, &events_by_type());
  }
  // The count of events of each type, which the stats and the summary both need: once.
  const std::array<uint64_t, 256>& events_by_type() const {
    if (!events_by_type_) events_by_type_ = result_.store.count_by_type();
    return *events_by_type_;
  }
  const Summary& summary() const {
    while (!advance_summary(SIZE_MAX)) {
    }
    return *summary_;
  }
  // The groups, each group's goroutines put in order when it is first shown.
  const std::vector<GoroutineGroup>& groups() const {
    if (!groups_) {
      groups_ = std::make_unique<std::vector<GoroutineGroup>>(goroutine_groups_unordered(summary()));
      group_members_.assign(groups_->size(), {});
    }
    return *groups_;
  }
  const std::vector<const GoroutineSummary*>& members_of(size_t k) const {
    GoroutineGroup& g = (*groups_)[k];
    if (group_members_[k].size() != g.members.size()) {
      order_members(summary(), g);
      group_members_[k] = group_members(summary(), g);
    }
    return group_members_[k];
  }
  const std::vector<TaskTypeStats>& tasks_by_type() const {
    if (!task_types_) task_types_ = std::make_unique<std::vector<TaskTypeStats>>(task_types(summary()));
    return *task_types_;
  }
  const std::vector<RegionTypeStats>& regions_by_type() const {
    if (!region_types_)
      region_types_ = std::make_unique<std::vector<RegionTypeStats>>(region_types(result_.store, summary()));
    return *region_types_;
  }
  // The MMU curve of a flag set, kept: the view asks again with other windows.
  static constexpr unsigned kDefaultMmuFlags = 1 | 2 | 4 | 8;
  // The default flags' curve is also built a piece at a time (advance): a build under
  // way is carried on.
  const MmuCurve& mmu_curve(unsigned flags) const {
    auto& slot = mmu_curves_[flags];
    if (flags == kDefaultMmuFlags) {
      while (!advance_piece(slot, mmu_build_, SIZE_MAX, kDefaultMmuFlags)) {
      }
    }
    if (!slot) slot = std::make_unique<MmuCurve>(mutator_utilization(result_.store, flags));
    return *slot;
  }
  bool advance_timeline(size_t events) const { return advance_piece(timeline_, timeline_build_, events); }
  const TimelineIndex& timeline() const {
    while (!advance_timeline(SIZE_MAX)) {
    }
    return *timeline_;
  }
  const WakeIndex& wakes() const {
    while (!advance_piece(wakes_, wakes_build_, SIZE_MAX, &events_by_type())) {
    }
    return *wakes_;
  }

  PprofProfile profile(const std::string& type, val selection) const {
    const ProfileSelection sel = profile_selection(selection);
    const ProfileType t = profile_type(type);
    if (sel.goroutines.empty() && !sel.group && !sel.region && !sel.range) return build_pprof_profile(result_.store, whole_profile(t));
    return build_pprof_profile(result_.store, select_profile(result_.store, summary(), t, sel));
  }

  // The whole trace's profile of a type, kept.
  const Profile& whole_profile(ProfileType t) const {
    auto& slot = whole_profiles_[static_cast<size_t>(t)];
    if (!slot) slot = select_profile(result_.store, summary(), t, {});
    return *slot;
  }
  // Those not computed yet of every type, in one pass over the events (a request for
  // one type computes that one alone: sooner).
  void prepare_whole_profiles() const {
    std::vector<ProfileType> missing;
    for (ProfileType t : kProfileTypes)
      if (!whole_profiles_[static_cast<size_t>(t)]) missing.push_back(t);
    if (missing.empty()) return;
    std::vector<Profile> computed = select_profiles(result_.store, summary(), missing, {});
    for (Profile& p : computed) whole_profiles_[static_cast<size_t>(p.type)] = std::move(p);
  }

  // The whole trace's flame graph of a type, kept: the profiles view opens on it.
  const FlameGraph& whole_flame(ProfileType t) const {
    auto& slot = whole_flames_[static_cast<size_t>(t)];
    if (!slot) slot = std::make_unique<FlameGraph>(flame_graph(build_pprof_profile(result_.store, whole_profile(t))));
    return *slot;
  }

  static ProfileType profile_type(const std::string& type) {
    std::optional<ProfileType> t = parse_profile_type(type);
    if (!t) throw std::runtime_error("unknown profile type '" + type + "' (net, sync, syscall or sched)");
    return *t;
  }

  static ProfileSelection profile_selection(val selection) {
    ProfileSelection sel;
    if (!selection.isUndefined() && !selection.isNull()) {
      val goroutines = selection["goroutines"];
      if (!goroutines.isUndefined() && !goroutines.isNull())
        for (double g : emscripten::vecFromJSArray<double>(goroutines)) sel.goroutines.push_back(static_cast<GoID>(g));
      val group = selection["group"];
      if (group.isString()) sel.group = group.as<std::string>();
      val region = selection["region"];
      if (region.isString()) sel.region = region.as<std::string>();
      val range = selection["range"];
      if (!range.isUndefined() && !range.isNull())
        sel.range = Interval{static_cast<Time>(range[0].as<double>()), static_cast<Time>(range[1].as<double>())};
    }
    return sel;
  }

  // The stack an event shows: a state transition's (the goroutine changing state, as Go
  // prints it), else the event's own.
  StackID event_stack(size_t i) const {
    EventView ev(result_.store, i);
    if (ev.kind() == EventKind::StateTransition) {
      StateTransition st = ev.state_transition();
      if (st.has_stack && st.stack) return st.stack;
    }
    return ev.stack();
  }

  val frames(StackID id) const {
    const EventStore& s = result_.store;
    val a = val::array();
    for (FrameID f : s.stacks.frames(id)) {
      const Frame& fr = s.stacks.frame(f);
      val o = val::object();
      o.set("func", std::string(s.strings.get(fr.func)));
      o.set("file", std::string(s.strings.get(fr.file)));
      o.set("line", static_cast<double>(fr.line));
      o.set("pc", static_cast<double>(fr.pc));
      a.call<void>("push", o);
    }
    return a;
  }

  // Runs f; any C++ exception becomes {error: message}.
  template <class F>
  val guard(F&& f) const {
    try {
      return f();
    } catch (const std::exception& e) {
      val err = val::object();
      err.set("error", what_of(e));
      return err;
    }
  }

  ReadResult result_;
  std::string fatal_;
  mutable std::string stats_json_;  // empty until stats() is asked for
  mutable std::optional<std::array<uint64_t, 256>> events_by_type_;  // events_by_type()
  mutable std::unique_ptr<Summary> summary_;
  mutable std::unique_ptr<SummaryBuild> summary_build_;  // while advance() builds it
  mutable std::unique_ptr<TimelineIndex> timeline_;
  mutable std::unique_ptr<TimelineIndexBuild> timeline_build_;
  mutable std::unique_ptr<WakeIndex> wakes_;
  mutable std::unique_ptr<WakeIndexBuild> wakes_build_;
  mutable std::array<std::optional<Profile>, std::size(kProfileTypes)> whole_profiles_;
  mutable std::array<std::unique_ptr<FlameGraph>, std::size(kProfileTypes)> whole_flames_;
  // The goroutines of each group of tracks(), by the group's index there.
  const std::vector<std::vector<GoID>>& timeline_group_members() const {
    if (!timeline_groups_) {
      TrackList t = list_tracks(timeline());
      timeline_groups_ = std::make_unique<std::vector<std::vector<GoID>>>(t.groups.size());
      for (size_t i = 0; i < t.goroutines.size(); i++) (*timeline_groups_)[t.goroutine_group[i]].push_back(t.goroutines[i]);
    }
    return *timeline_groups_;
  }
  mutable std::unique_ptr<std::vector<std::vector<GoID>>> timeline_groups_;
  mutable std::unique_ptr<std::vector<GoroutineGroup>> groups_;
  mutable std::vector<std::vector<const GoroutineSummary*>> group_members_;  // of each group shown, in its order
  mutable std::unordered_map<unsigned, std::unique_ptr<MmuCurve>> mmu_curves_;
  mutable std::unique_ptr<UtilizationBuild> mmu_build_;  // of the default flags' curve
  mutable std::unique_ptr<std::vector<TaskTypeStats>> task_types_;
  mutable std::unique_ptr<std::vector<RegionTypeStats>> region_types_;
  // The last group sorted for a page (paging through it sorts once).
  struct SortedGroup {
    std::string name;
    GoroutineSort by = GoroutineSort::Total;
    bool descending = true;
    std::vector<const GoroutineSummary*> rows;
  };
  mutable std::optional<SortedGroup> sorted_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(gotrace_core) {
  emscripten::class_<WasmTrace>("WasmTrace")
      .constructor<uintptr_t, double, val>()
      .function("error", &WasmTrace::error)
      .function("usable", &WasmTrace::usable)
      .function("eventCount", &WasmTrace::event_count)
      .function("stats", &WasmTrace::stats)
      .function("events", &WasmTrace::events)
      .function("eventAt", &WasmTrace::event_at)
      .function("clockSnapshots", &WasmTrace::clock_snapshots)
      .function("goroutines", &WasmTrace::goroutines)
      .function("tasks", &WasmTrace::tasks)
      .function("regions", &WasmTrace::regions)
      .function("prepare", &WasmTrace::prepare)
      .function("advance", &WasmTrace::advance)
      .function("goroutineGroups", &WasmTrace::goroutine_groups_part)
      .function("goroutineGroupPage", &WasmTrace::goroutine_group_page)
      .function("goroutine", &WasmTrace::goroutine_part)
      .function("taskTypes", &WasmTrace::task_types_part)
      .function("tasksInBucket", &WasmTrace::tasks_in_bucket_part)
      .function("task", &WasmTrace::task_part)
      .function("regionTypes", &WasmTrace::region_types_part)
      .function("regionsInBucket", &WasmTrace::regions_in_bucket_part)
      .function("taskLogsMatching", &WasmTrace::task_logs_matching)
      .function("goroutineWakeups", &WasmTrace::goroutine_wakeups)
      .function("wakeups", &WasmTrace::wakeups)
      .function("mmu", &WasmTrace::mmu)
      .function("pprof", &WasmTrace::pprof)
      .function("flame", &WasmTrace::flame)
      .function("tracks", &WasmTrace::tracks)
      .function("timeline", &WasmTrace::timeline_query)
      .function("sliceAt", &WasmTrace::slice_at_time);
}
