// Embind bindings of native/core. They only convert: bytes in; the TraceSession's JSON
// strings, typed arrays and objects out. Every failure comes back as a message (the JS
// wrapper throws it as an Error), so the module stays usable after one.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "gotrace/analysis/goroutine_life.h"
#include "gotrace/error.h"
#include "gotrace/json_writer.h"
#include "gotrace/reader.h"
#include "gotrace/session.h"
#include "gotrace/stats.h"
#include "gotrace/stepped_read.h"
#include "gotrace/streamed_mmu.h"
#include "gotrace/streamed_profiles.h"
#include "gotrace/streamed_summary.h"
#include "gotrace/analysis/mmu_json.h"

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

val to_js(const Value& v) {
  return std::visit(
      [](const auto& x) -> val {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return val::null();
        } else if constexpr (std::is_same_v<T, Value::Strings>) {
          val a = val::array();
          for (const std::string& s : x) a.call<void>("push", val(s));
          return a;
        } else if constexpr (std::is_same_v<T, Value::Items>) {
          val a = val::array();
          for (const Value& item : x) a.call<void>("push", to_js(item));
          return a;
        } else if constexpr (std::is_same_v<T, Value::Fields>) {
          val o = val::object();
          for (const auto& [key, field] : x) o.set(key, to_js(field));
          return o;
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>) {
          return val(x);
        } else {
          return typed_copy(x);
        }
      },
      v.data());
}

// A number JavaScript may leave out (checked by index.js): null or undefined is none (a
// bucket's lower bound: every instance of the type; a region type's pc: every region of
// the name).
template <class T>
std::optional<T> optional_number(const val& v) {
  if (v.isNull() || v.isUndefined()) return std::nullopt;
  return static_cast<T>(v.as<double>());
}

std::string what_of(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory (the trace needs more memory than is available)";
  return e.what();
}

// Runs f; any C++ exception becomes {error: message}.
template <class F>
val guard(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    val err = val::object();
    err.set("error", what_of(e));
    return err;
  }
}

// A group's page from the bindings' arguments (a negative limit: every row).
std::string group_page_json(SummaryAnswers& v, const std::string& name, const std::string& column, bool descending,
                            double offset, double limit) {
  const size_t from = offset > 0 ? static_cast<size_t>(offset) : 0;
  const std::optional<size_t> count = limit < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(limit));
  return v.goroutine_group_page_json(name, column, descending, from, count);
}

// A profile selection {goroutines?, group?, region?, regionPc?, range?}.
ProfileSelection profile_selection(val selection) {
  ProfileSelection sel;
  if (selection.isUndefined() || selection.isNull()) return sel;
  val goroutines = selection["goroutines"];
  if (!goroutines.isUndefined() && !goroutines.isNull())
    for (double g : emscripten::vecFromJSArray<double>(goroutines)) sel.goroutines.push_back(static_cast<GoID>(g));
  val group = selection["group"];
  if (group.isString()) sel.group = group.as<std::string>();
  val region = selection["region"];
  if (region.isString()) sel.region = region.as<std::string>();
  val region_pc = selection["regionPc"];
  if (region_pc.isNumber()) sel.region_pc = static_cast<uint64_t>(region_pc.as<double>());
  val range = selection["range"];
  if (!range.isUndefined() && !range.isNull())
    sel.range = Interval{static_cast<Time>(range[0].as<double>()), static_cast<Time>(range[1].as<double>())};
  return sel;
}

// The analyses a session builds, in the order to compute them ahead of requests:
// [{name, piecewise, needs, ahead}] (needs: a name or null).
val analyses() {
  val list = val::array();
  for (const AnalysisInfo& a : kAnalyses) {
    val o = val::object();
    o.set("name", std::string(a.name));
    o.set("piecewise", a.piecewise);
    o.set("needs", a.needs ? val(std::string(info(*a.needs).name)) : val::null());
    o.set("ahead", a.ahead);
    list.call<void>("push", o);
  }
  return list;
}

// The SQL tables and their columns (analysis/sql_tables.h): [{name, columns: [{name, type,
// values?}]}], values: the closed set a VARCHAR column's strings come from.
val sql_tables_js() { return to_js(TraceSession::sql_tables()); }

// A read's progress reported to `progress(bytesDone, bytesTotal, events)` (which returns
// false to cancel), when one is given; `progress` must outlive the read.
std::function<bool(const ReadProgress&)> progress_callback(const val& progress) {
  if (progress.isUndefined() || progress.isNull()) return nullptr;
  return [&progress](const ReadProgress& p) {
    val r = progress(static_cast<double>(p.bytes_done), static_cast<double>(p.bytes_total), static_cast<double>(p.events));
    return !(r.isFalse());
  };
}

// A trace of `size` bytes that `read(offset, length, address)` copies into the core's
// memory at `address` (returning whether it could); `read_js` must outlive the source.
TraceSource source_of(double size, const val& read_js) {
  TraceSource source;
  source.size = static_cast<uint64_t>(size);
  source.read = [&read_js](uint64_t offset, size_t n, uint8_t* out) {
    return read_js(static_cast<double>(offset), static_cast<double>(n), reinterpret_cast<uintptr_t>(out)).as<bool>();
  };
  return source;
}

class WasmTrace {
 public:
  // Reads `size` bytes at `address` (allocated by the caller with _malloc and freed
  // here once read). `progress(bytesDone, bytesTotal, events)` is called as generations
  // complete; returning false cancels.
  WasmTrace(uintptr_t address, double size, val progress) {
    auto* bytes = reinterpret_cast<uint8_t*>(address);
    read(progress, [&](ReadResult& r, const ReadOptions& o) {
      read_trace_into(std::span<const uint8_t>(bytes, static_cast<size_t>(size)), r, o);
    });
    std::free(bytes);
  }

  // Reads `size` bytes from `read(offset, length, address)`, which copies them into the
  // core's memory at `address` and returns whether it could: a Go 1.22+ trace is read a
  // window at a time (about a generation), so its bytes are never all in memory.
  static WasmTrace* from_source(double size, val read_js, val progress) {
    const TraceSource source = source_of(size, read_js);
    auto* t = new WasmTrace();
    t->read(progress, [&](ReadResult& r, const ReadOptions& o) { read_trace_into(source, r, o); });
    return t;
  }

  // Generations [first, last] of the trace `whole` was read from (read_generations).
  static WasmTrace* of_generations(const TraceSource& source, const EventStore& whole, size_t first, size_t last,
                                   val progress) {
    auto* t = new WasmTrace();
    t->read(progress, [&](ReadResult& r, const ReadOptions& o) { read_generations(source, whole, first, last, r, o); });
    return t;
  }

  // A trace that could not be opened, saying why (error()).
  static WasmTrace* failed(std::string why) {
    auto* t = new WasmTrace();
    t->fatal_ = std::move(why);
    t->session_ = std::make_unique<TraceSession>(ReadResult{});
    return t;
  }

  // The reader's error ("" when the whole trace was read). Events before it are kept.
  std::string error() const {
    if (!fatal_.empty()) return fatal_;
    return session_->read().error ? session_->read().error->what() : "";
  }
  bool usable() const { return fatal_.empty(); }
  double event_count() const { return static_cast<double>(session_->store().size()); }

  val stats() { return guard([&] { return val(session_->stats_json()); }); }
  val events(double from, double limit, double goroutine, double proc, double thread, double kind_mask) {
    return guard([&] { return to_js(session_->events_page(from, limit, goroutine, proc, thread, kind_mask)); });
  }
  val event_at(double index) { return guard([&] { return to_js(session_->event_at(index)); }); }
  val clock_snapshots() { return guard([&] { return to_js(session_->clock_snapshots()); }); }
  val goroutines() { return guard([&] { return val(session_->goroutines_json()); }); }
  val tasks() { return guard([&] { return val(session_->tasks_json()); }); }
  val regions() { return guard([&] { return val(session_->regions_json()); }); }

  val prepare(std::string what) {
    return guard([&] {
      session_->prepare(what);
      return val::null();
    });
  }
  val advance(std::string what, double events) {
    const size_t n = events >= 1 ? static_cast<size_t>(std::min(events, 1e15)) : 1;
    return guard([&] { return val(session_->advance(what, n)); });
  }

  val analysis_json(std::string name) { return guard([&] { return val(session_->json(name)); }); }
  val goroutine_groups() { return views([](SummaryAnswers& v) { return v.goroutine_groups_json(); }); }
  val goroutine_group_page(std::string name, std::string column, bool descending, double offset, double limit) {
    return views([&](SummaryAnswers& v) { return group_page_json(v, name, column, descending, offset, limit); });
  }
  val goroutine(double id) { return views([&](SummaryAnswers& v) { return v.goroutine_json(id); }); }
  val task_types() { return views([](SummaryAnswers& v) { return v.task_types_json(); }); }
  val tasks_in_bucket(std::string name, val min) {
    return views([&](SummaryAnswers& v) { return v.tasks_in_bucket_json(name, optional_number<double>(min)); });
  }
  val task(double id) { return views([&](SummaryAnswers& v) { return v.task_json(id); }); }
  val region_types() { return views([](SummaryAnswers& v) { return v.region_types_json(); }); }
  val regions_in_bucket(std::string name, double min, val pc) {
    return views([&](SummaryAnswers& v) { return v.regions_in_bucket_json(name, min, optional_number<uint64_t>(pc)); });
  }
  val task_logs_matching(std::string text, double limit) {
    return views([&](SummaryAnswers& v) { return v.task_logs_matching_json(text, limit > 0 ? static_cast<size_t>(limit) : 0); });
  }
  val goroutine_wakeups(double id, double t0, double t1, double pixels, double limit) {
    return guard([&] { return val(session_->goroutine_wakeups_json(id, t0, t1, pixels, limit)); });
  }
  val wakeups(double id, double t0, double t1) {
    return guard([&] { return val(session_->wakeups_json(id, t0, t1)); });
  }
  val mmu(val windows, double flags, double worst) {
    return guard([&] {
      std::vector<double> ws = emscripten::vecFromJSArray<double>(windows);
      return val(session_->mmu_json(ws, static_cast<unsigned>(flags), static_cast<int>(worst)));
    });
  }
  val pprof(std::string type, val selection) {
    return guard([&] {
      const ProfileSelection sel = profile_selection(selection);
      return typed_copy(session_->pprof(type, sel));
    });
  }
  val flame(std::string type, val selection) {
    return guard([&] {
      const ProfileSelection sel = profile_selection(selection);
      return to_js(session_->flame(type, sel));
    });
  }
  val sql_schema() { return guard([&] { return to_js(session_->sql_schema()); }); }
  val sql_table(std::string name, double trace_id, std::string path, double offset, double limit, bool int64_bytes) {
    return guard([&] {
      const size_t from = offset > 0 ? static_cast<size_t>(offset) : 0;
      const std::optional<size_t> count = limit < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(limit));
      return to_js(session_->sql_table_value(name, static_cast<int64_t>(trace_id), path, from, count, int64_bytes));
    });
  }
  // A table as a Parquet file: `write(bytes)` receives it a row group at a time, a view of
  // the module's memory to copy before returning. rows: [from, to) of events and
  // g_transitions (to < 0: to the end). Returns null, or {error}.
  val sql_parquet(std::string name, double trace_id, std::string path, double from, double to, val write) {
    return guard([&] {
      const std::optional<size_t> end = to < 0 ? std::nullopt : std::optional<size_t>(static_cast<size_t>(to));
      session_->sql_parquet(name, static_cast<int64_t>(trace_id), path, from > 0 ? static_cast<size_t>(from) : 0, end,
                            [&](std::span<const uint8_t> bytes) {
                              write(val(emscripten::typed_memory_view(bytes.size(), bytes.data())));
                            });
      return val::null();
    });
  }
  val tracks() { return guard([&] { return to_js(session_->tracks()); }); }
  val timeline(std::string kind, double id, std::string arg, double t0, double t1, double pixels, double limit) {
    return guard([&] { return to_js(session_->timeline_query(kind, id, arg, t0, t1, pixels, limit)); });
  }
  val slice_at(std::string kind, double id, double time) {
    return guard([&] { return to_js(session_->slice_at(kind, id, time)); });
  }

  val critical_path(std::string kind, std::string which, double from, double to) {
    return guard([&] {
      auto time = [](double t) { return std::isnan(t) ? std::nullopt : std::optional<Time>(static_cast<Time>(t)); };
      return val(session_->critical_path_json(kind, which, time(from), time(to)));
    });
  }
  // pc: NaN for none.
  val critical_paths(std::string kind, std::string name, double pc, double min, double max, double slowest) {
    return guard([&] {
      analysis::PathTypeSelection which;
      which.kind = kind;
      which.name = name;
      if (!std::isnan(pc)) which.pc = static_cast<uint64_t>(pc);
      which.min_ns = min > 0 ? static_cast<int64_t>(min) : 0;
      which.max_ns = std::isfinite(max) ? static_cast<int64_t>(max) : INT64_MAX;
      which.slowest_percent = slowest;
      return val(session_->path_aggregate_json(which));
    });
  }
  // Changes from `before` to this trace.
  val diff_from(WasmTrace& before, double top) {
    return guard([&] { return val(TraceSession::diff_json(*before.session_, *session_, top > 0 ? static_cast<size_t>(top) : 20)); });
  }
  val diff_pprof_from(WasmTrace& before, std::string type) {
    return guard([&] { return typed_copy(TraceSession::diff_pprof(*before.session_, *session_, type)); });
  }

 private:
  WasmTrace() = default;
  // f(the summary's views)'s JSON.
  template <class F>
  val views(F&& f) {
    return guard([&] { return val(f(session_->views())); });
  }
  // Reads with `read_into(result, options)`, reporting progress(bytesDone, bytesTotal,
  // events) after each generation (false cancels).
  template <class ReadInto>
  void read(const val& progress, ReadInto read_into) {
    ReadResult result;
    try {
      ReadOptions options;
      options.on_progress = progress_callback(progress);
      read_into(result, options);
    } catch (const std::exception& e) {
      fatal_ = what_of(e);
    }
    session_ = std::make_unique<TraceSession>(std::move(result));
  }

  std::unique_ptr<TraceSession> session_;
  std::string fatal_;
};

// A trace too large to hold whole, read once for what is shown of it before and while a
// part of it is open: its stats and its generations (when, how many events, how many
// bytes), each with its resume point; any run of the generations read so far opens as a
// trace of its own, read again from the source (read_generations): the events the whole
// trace has there. The read goes a few generations at a time, when asked (advance), so
// that a host can show a part while the rest is read.
class WasmTraceIndex {
 public:
  // As WasmTrace::fromSource, reading nothing yet; the source is read again for each part.
  // `summary_bytes`: the budget of the whole trace's summaries (StreamedSummary), held
  // in arrays up to `held_bytes` as the first generation foretells them, else archived;
  // `archived`: put away as each ends whatever it foretells; `read_bytes`: what each read
  // of the source asks for at least (TraceSource::read_ahead).
  static WasmTraceIndex* from_source(double size, val read_js, val progress, double summary_bytes, double held_bytes,
                                     bool archived, double read_bytes) {
    auto* index = new WasmTraceIndex(size, std::move(read_js), std::move(progress), summary_bytes, held_bytes, archived);
    if (read_bytes >= 1) index->source_.read_ahead = static_cast<size_t>(std::min(read_bytes, 1e9));
    return index;
  }

  // Reads up to `generations` more: false once the whole trace is read (or the read
  // ended at a problem: error()).
  bool advance(double generations) {
    if (!read_) return false;
    try {
      if (read_->advance(generations >= 1 ? static_cast<size_t>(generations) : 1)) return true;
      hand_on(result_.store);  // what follows the last generation (Go 1.27's final Sync)
    } catch (const std::exception& e) {
      fatal_ = what_of(e);
    }
    read_.reset();
    summary_.finish();  // of what was read, where the read broke off
    mmu_.finish();
    overview_.finish();
    return false;
  }
  bool complete() const { return !read_; }
  // Where in the file the next read of its bytes begins, of the first read or the
  // profiles' second (-1 once both are over): what a source reads ahead, sequentially.
  double read_offset() const {
    if (read_) return static_cast<double>(read_->next_offset());
    if (profiles_read_) return static_cast<double>(profiles_read_->next_offset());
    return profiles_done() ? -1 : 0;  // the second read begins at the start
  }

  std::string error() const {
    if (!fatal_.empty()) return fatal_;
    return result_.error ? result_.error->what() : "";
  }
  // The whole trace's stats, once it is read (before: of the generations read so far).
  val stats() const { return val(stats_json(counter_.finish(result_), false)); }
  // [{number, start, end, events, bytes}]: each generation's first and last event's time.
  // While the read goes on, the last generation read is left out: where it ends is known
  // once the next begins.
  val generations() const {
    val list = val::array();
    for (size_t k = 0; k < known(); k++) {
      const GenerationInfo& g = result_.store.generations[k];
      val o = val::object();
      o.set("number", static_cast<double>(g.number));
      o.set("start", static_cast<double>(spans_[k].start));
      o.set("end", static_cast<double>(spans_[k].end));
      o.set("events", static_cast<double>(g.event_count));
      o.set("bytes", static_cast<double>(g.file_bytes));
      list.call<void>("push", o);
    }
    return list;
  }
  WasmTrace* open_part(double first, double last, val progress) {
    const auto a = static_cast<size_t>(first), b = static_cast<size_t>(last);
    if (first < 0 || b < a || b >= known()) {
      return WasmTrace::failed(std::string("no generations ") + std::to_string(a) + " to " + std::to_string(b) +
                               " read yet: " + std::to_string(known()) + " are");
    }
    return WasmTrace::of_generations(source_, result_.store, a, b, progress);
  }
  // The whole trace's goroutine, task and region views (TraceSession's of a whole read),
  // summarized as the read went: {"error"} until the read is over.
  val goroutine_groups() { return whole([](SummaryAnswers& v) { return v.goroutine_groups_json(); }); }
  val goroutine_group_page(std::string name, std::string column, bool descending, double offset, double limit) {
    return whole([&](SummaryAnswers& v) { return group_page_json(v, name, column, descending, offset, limit); });
  }
  val goroutine(double id) { return whole([&](SummaryAnswers& v) { return v.goroutine_json(id); }); }
  // The whole trace's MMU (TraceSession::mmu_json's answer), of the default flags, the
  // curve made as the read went: {"error"} until the read is over, and for other flags.
  val mmu(val windows, double flags, double worst) {
    return guard([&] {
      if (static_cast<unsigned>(flags) != mmu_.flags())
        throw TraceError("the whole trace's MMU is of the default flags (STW, background and assist marking, sweeping)");
      std::vector<double> ws = emscripten::vecFromJSArray<double>(windows);
      return val(mmu_view_json(mmu_.curve(), mmu_.flags(), ws, static_cast<int>(worst)));
    });
  }
  // The whole trace's timeline zoomed out (TimelineOverview), queried as WasmTrace's
  // timeline is, for the tracks it has: {"error"} until the read is over.
  val timeline(std::string kind, double id, std::string arg, double t0, double t1, double pixels) {
    return guard([&] {
      if (!overview_.finished()) throw TraceError("the trace is still being read: its whole timeline is made as it is read");
      return to_js(timeline_overview_query(overview_, result_.store, kind, id, arg, t0, t1, pixels));
    });
  }
  // {start, end, bucket, bytes, groups, procs, threads, sweep}: the whole timeline's first
  // and last event's time, its detail (ns per bucket), what it holds, its goroutine
  // groups' names and the ids of its proc, thread and sweep tracks; {"error"} until the
  // read is over.
  val timeline_extent() {
    return guard([&] {
      if (!overview_.finished()) throw TraceError("the trace is still being read: its whole timeline is made as it is read");
      val o = val::object();
      o.set("start", static_cast<double>(overview_.start()));
      o.set("end", static_cast<double>(overview_.end()));
      o.set("bucket", static_cast<double>(overview_.bucket_ns()));
      o.set("bytes", static_cast<double>(overview_.memory()));
      val groups = val::array();
      for (std::string_view g : overview_.groups()) groups.call<void>("push", std::string(g));
      o.set("groups", groups);
      auto ids = [&](analysis::TrackKind kind) {
        val out = val::array();
        for (int64_t id : overview_.ids(kind)) out.call<void>("push", static_cast<double>(id));
        return out;
      };
      o.set("procs", ids(analysis::TrackKind::Proc));
      o.set("threads", ids(analysis::TrackKind::Thread));
      o.set("sweep", ids(analysis::TrackKind::Sweep));
      return o;
    });
  }
  // Why the whole trace's summaries were let go ("" while kept).
  std::string summary_given_up() const { return summary_.given_up(); }
  // The bytes the whole trace's summaries take (archived, where the first generation
  // foretold that held ones would pass their budget).
  double summary_bytes() const { return static_cast<double>(summary_.bytes()); }
  bool summary_archived() const { return summary_.archived(); }
  val task_types() { return whole([](SummaryAnswers& v) { return v.task_types_json(); }); }
  val tasks_in_bucket(std::string name, val min) {
    return whole([&](SummaryAnswers& v) { return v.tasks_in_bucket_json(name, optional_number<double>(min)); });
  }
  val task(double id) { return whole([&](SummaryAnswers& v) { return v.task_json(id); }); }
  val region_types() { return whole([](SummaryAnswers& v) { return v.region_types_json(); }); }
  val task_logs_matching(std::string text, double limit) {
    return whole([&](SummaryAnswers& v) { return v.task_logs_matching_json(text, limit > 0 ? static_cast<size_t>(limit) : 0); });
  }
  val regions_in_bucket(std::string name, double min, val pc) {
    return whole([&](SummaryAnswers& v) { return v.regions_in_bucket_json(name, min, optional_number<uint64_t>(pc)); });
  }

  // The whole trace's profiles are made in a second read of it, once the first is over
  // (a profile counts its goroutines' times from the first read's summary): this reads
  // up to `generations` more of it, and is false once they are made or cannot be (their
  // error then says why); before the first read is over, it reads nothing (true).
  bool advance_profiles(double generations) {
    if (profiles_done()) return false;
    if (!complete()) return true;
    try {
      if (!profiles_read_) start_profiles();
      if (profiles_read_->advance(generations >= 1 ? static_cast<size_t>(generations) : 1)) return true;
      hand_to_profiles(profiles_result_->store);
      profiles_->finish();
    } catch (const std::exception& e) {
      profiles_error_ = what_of(e);
      profiles_.reset();
    }
    profiles_read_.reset();
    profiles_result_.reset();
    return false;
  }
  // The whole trace's flame graph and pprof of a profile type (WasmTrace's of a whole
  // read, with no selection): {"error"} until made.
  val flame(std::string type) {
    return guard([&] { return to_js(TraceSession::flame_value(made_profiles().flame(TraceSession::profile_type(type)))); });
  }
  val pprof(std::string type) {
    return guard([&] { return typed_copy(made_profiles().pprof(TraceSession::profile_type(type))); });
  }

  // Goroutine `id`, seen in generations [first, last], over its whole life (its
  // generations read again, one at a time): goroutine_life_json, or {"error"}. While the
  // read goes on, a life that ends in the generations read is known (the generation being
  // read began without the goroutine); one that goes on is not yet.
  std::string goroutine_life(double id, double first, double last) {
    std::string out;
    try {
      const auto a = static_cast<size_t>(first), b = static_cast<size_t>(last);
      if (first < 0 || b < a || b >= known()) throw TraceError("no such generations");
      const GoID goid = static_cast<GoID>(id);
      if (!complete() && generations_of_goroutine(result_.store, goid, a, b).last >= known())
        throw TraceError("the trace is still being read: the goroutine lives on past the generations read");
      const GoroutineLife life = summarize_goroutine_life(source_, result_.store, goid, a, b);
      JsonWriter w(out);
      goroutine_life_json(w, life);
    } catch (const std::exception& e) {
      out.clear();
      JsonWriter w(out);
      w.begin_object().field("error", what_of(e)).end_object();
    }
    return out;
  }

 private:
  WasmTraceIndex(double size, val read_js, val progress, double summary_bytes, double held_bytes, bool archived)
      : read_js_(std::move(read_js)),
        progress_(std::move(progress)),
        source_(source_of(size, read_js_)),
        summary_(result_.store, bytes_or_unbounded(summary_bytes),
                 archived ? StreamedSummary::Keeping::Archived : StreamedSummary::Keeping::Fitting,
                 bytes_or_unbounded(held_bytes)) {
    ReadOptions options;
    options.resume_points = true;
    options.on_progress = progress_callback(progress_);
    // Each generation's events are counted and timed, then released.
    options.on_generation = [this](EventStore& store) {
      hand_on(store);
      return true;
    };
    read_ = std::make_unique<SteppedRead>(source_, result_, std::move(options));
  }

  static size_t bytes_or_unbounded(double bytes) {
    return bytes >= 0 && bytes < 1e15 ? static_cast<size_t>(bytes) : SIZE_MAX;
  }

  // f(the whole trace's summary views)'s JSON, once the read is over (views() says why
  // not before, or once the summaries were let go).
  template <class F>
  val whole(F&& f) {
    return guard([&] { return val(f(summary_.views())); });
  }

  bool profiles_done() const { return !profiles_error_.empty() || (profiles_ && profiles_->finished()); }
  StreamedProfiles& made_profiles() {
    if (!profiles_error_.empty()) throw TraceError(profiles_error_);
    if (!profiles_done()) throw TraceError("the trace is still being read: its profiles are made in a second read");
    return *profiles_;
  }
  // The second read, over the same source: its events go through the profiles' pass and
  // are let go.
  void start_profiles() {
    summary_.views();  // says why not, once let go
    profiles_result_ = std::make_unique<ReadResult>();
    // Archived summaries are read back for their goroutines' lifetimes; held ones read.
    profiles_ = summary_.archived()
                    ? std::make_unique<StreamedProfiles>(result_.store, summary_.lifetimes(), profiles_result_->store)
                    : std::make_unique<StreamedProfiles>(result_.store, summary_.held_views().summary(),
                                                         profiles_result_->store);
    profiles_handed_ = 0;
    // The same trace read again finds every string and stack in the first read's tables:
    // shared, not made a second time (the 925 MB trace's strings alone take ~80 MiB).
    profiles_result_->store.begin_with_tables_of(result_.store);
    ReadOptions options;
    options.on_generation = [this](EventStore& store) {
      hand_to_profiles(store);
      return true;
    };
    profiles_read_ = std::make_unique<SteppedRead>(source_, *profiles_result_, std::move(options));
  }
  void hand_to_profiles(EventStore& store) {
    profiles_->add(profiles_handed_, store.size());
    profiles_handed_ = store.size();
    store.release_before(profiles_handed_);
  }

  void hand_on(EventStore& store) {
    const size_t from = handed_, to = store.size();
    counter_.add(store, from, to);
    summary_.add(from, to);
    mmu_.add(from, to);
    overview_.add(from, to);
    if (from < to && !store.generations.empty()) {
      const size_t k = store.generations.size() - 1;
      if (spans_.size() <= k) spans_.resize(k + 1, Span{store.time(from), store.time(to - 1)});
      spans_[k].end = store.time(to - 1);
    }
    handed_ = to;
    store.release_before(to);
  }
  size_t known() const {
    const size_t n = std::min(result_.store.generations.size(), spans_.size());
    return complete() || n == 0 ? n : n - 1;
  }

  struct Span {
    Time start, end;
  };
  val read_js_;
  val progress_;
  TraceSource source_;
  ReadResult result_;
  std::unique_ptr<SteppedRead> read_;  // null once the read is over
  StatsCounter counter_;
  StreamedSummary summary_;
  StreamedMmu mmu_{result_.store, TraceSession::kDefaultMmuFlags};
  analysis::TimelineOverview overview_{result_.store};
  size_t handed_ = 0;  // events counted and summarized so far
  std::unique_ptr<ReadResult> profiles_result_;  // the second read's, while it goes
  std::unique_ptr<SteppedRead> profiles_read_;
  std::unique_ptr<StreamedProfiles> profiles_;
  size_t profiles_handed_ = 0;
  std::string profiles_error_;
  std::vector<Span> spans_;
  std::string fatal_;
};

// The allocator's bytes in use and free within the heap, for benchmarks: what the heap
// (which never shrinks) holds at a moment, where its size says only the peak.
val heap_use() {
  const struct mallinfo m = mallinfo();
  val out = val::object();
  out.set("inUse", static_cast<double>(m.uordblks));
  out.set("free", static_cast<double>(m.fordblks));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(gotrace_core) {
  emscripten::function("heapUse", &heap_use);
  emscripten::function("analyses", &analyses);
  emscripten::function("sqlTables", &sql_tables_js);
  emscripten::class_<WasmTrace>("WasmTrace")
      .constructor<uintptr_t, double, val>()
      .class_function("fromSource", &WasmTrace::from_source, emscripten::allow_raw_pointers())
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
      .function("analysis", &WasmTrace::analysis_json)
      .function("prepare", &WasmTrace::prepare)
      .function("advance", &WasmTrace::advance)
      .function("goroutineGroups", &WasmTrace::goroutine_groups)
      .function("goroutineGroupPage", &WasmTrace::goroutine_group_page)
      .function("goroutine", &WasmTrace::goroutine)
      .function("taskTypes", &WasmTrace::task_types)
      .function("tasksInBucket", &WasmTrace::tasks_in_bucket)
      .function("task", &WasmTrace::task)
      .function("regionTypes", &WasmTrace::region_types)
      .function("regionsInBucket", &WasmTrace::regions_in_bucket)
      .function("taskLogsMatching", &WasmTrace::task_logs_matching)
      .function("goroutineWakeups", &WasmTrace::goroutine_wakeups)
      .function("wakeups", &WasmTrace::wakeups)
      .function("mmu", &WasmTrace::mmu)
      .function("pprof", &WasmTrace::pprof)
      .function("flame", &WasmTrace::flame)
      .function("sqlSchema", &WasmTrace::sql_schema)
      .function("sqlTable", &WasmTrace::sql_table)
      .function("sqlParquet", &WasmTrace::sql_parquet)
      .function("tracks", &WasmTrace::tracks)
      .function("criticalPath", &WasmTrace::critical_path)
      .function("criticalPaths", &WasmTrace::critical_paths)
      .function("diffFrom", &WasmTrace::diff_from)
      .function("diffPprofFrom", &WasmTrace::diff_pprof_from)
      .function("timeline", &WasmTrace::timeline)
      .function("sliceAt", &WasmTrace::slice_at);
  emscripten::class_<WasmTraceIndex>("WasmTraceIndex")
      .class_function("fromSource", &WasmTraceIndex::from_source, emscripten::allow_raw_pointers())
      .function("advance", &WasmTraceIndex::advance)
      .function("complete", &WasmTraceIndex::complete)
      .function("readOffset", &WasmTraceIndex::read_offset)
      .function("error", &WasmTraceIndex::error)
      .function("stats", &WasmTraceIndex::stats)
      .function("generations", &WasmTraceIndex::generations)
      .function("openPart", &WasmTraceIndex::open_part, emscripten::allow_raw_pointers())
      .function("goroutineLife", &WasmTraceIndex::goroutine_life)
      .function("goroutineGroups", &WasmTraceIndex::goroutine_groups)
      .function("goroutineGroupPage", &WasmTraceIndex::goroutine_group_page)
      .function("goroutineSummary", &WasmTraceIndex::goroutine)
      .function("summaryGivenUp", &WasmTraceIndex::summary_given_up)
      .function("summaryBytes", &WasmTraceIndex::summary_bytes)
      .function("summaryArchived", &WasmTraceIndex::summary_archived)
      .function("mmu", &WasmTraceIndex::mmu)
      .function("timeline", &WasmTraceIndex::timeline)
      .function("timelineExtent", &WasmTraceIndex::timeline_extent)
      .function("advanceProfiles", &WasmTraceIndex::advance_profiles)
      .function("flame", &WasmTraceIndex::flame)
      .function("pprof", &WasmTraceIndex::pprof)
      .function("taskTypes", &WasmTraceIndex::task_types)
      .function("tasksInBucket", &WasmTraceIndex::tasks_in_bucket)
      .function("task", &WasmTraceIndex::task)
      .function("regionTypes", &WasmTraceIndex::region_types)
      .function("regionsInBucket", &WasmTraceIndex::regions_in_bucket)
      .function("taskLogsMatching", &WasmTraceIndex::task_logs_matching);
}
