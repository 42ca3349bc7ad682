// TraceSession's results that cross to JavaScript as typed arrays: pages of events, the
// timeline's tracks and queries, a slice's details, flame graphs.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "gotrace/analysis/timeline_details.h"
#include "gotrace/analysis/timeline_group.h"
#include "gotrace/event_format.h"
#include "gotrace/event_view.h"
#include "gotrace/session.h"
#include "gotrace/wall_clock.h"

namespace gotrace {

using namespace gotrace::analysis;

namespace {

// String ids as indexes into a table of their texts (sent once); id 0 ("") is -1 when
// `zero_is_none`.
class LocalStrings {
 public:
  LocalStrings(const EventStore& s, bool zero_is_none) : s_(s), zero_is_none_(zero_is_none) {}
  int32_t operator()(StringID id) {
    if (id == 0 && zero_is_none_) return -1;
    auto [it, fresh] = index_.try_emplace(id, static_cast<int32_t>(texts_.size()));
    if (fresh) texts_.emplace_back(s_.strings.get(id));
    return it->second;
  }
  Value texts() { return Value(std::move(texts_)); }

 private:
  const EventStore& s_;
  bool zero_is_none_;
  std::unordered_map<StringID, int32_t> index_;
  Value::Strings texts_;
};

std::optional<TrackKind> slice_track_kind(std::string_view name) {
  for (size_t k = 0; k < kTrackKinds; k++)
    if (to_string(static_cast<TrackKind>(k)) == name) return static_cast<TrackKind>(k);
  return std::nullopt;
}

SeriesKind series_kind(std::string_view name) {
  for (size_t i = 0; i < kSeriesKinds; i++)
    if (to_string(static_cast<SeriesKind>(i)) == name) return static_cast<SeriesKind>(i);
  throw std::runtime_error("unknown series '" + std::string(name) + "'");
}

// A slice track's rectangles as timeline() gives them: the goroutine each proc or thread
// runs, the label of a goroutine's wait or an STW's kind (strings of `s`).
Value slices_value(const EventStore& s, TrackKind k, SliceRects& r) {
  Value out = Value::object();
  const bool exec = k == TrackKind::Proc || k == TrackKind::Thread;
  const bool labelled = k == TrackKind::Goroutine || k == TrackKind::STW;
  std::vector<double> goroutine(r.size(), -1);
  std::vector<int32_t> label(r.size(), -1);
  LocalStrings labels(s, true);
  for (size_t i = 0; i < r.size(); i++) {
    if (exec) goroutine[i] = static_cast<double>(r.detail[i]);
    if (labelled) label[i] = labels(static_cast<StringID>(r.detail[i]));
  }
  out.set("type", "slices");
  out.set("start", f64_column(r.start));
  out.set("end", f64_column(r.end));
  out.set("state", u8_column(r.state));
  out.set("count", std::move(r.count));
  out.set("goroutine", std::move(goroutine));
  out.set("label", std::move(label));
  out.set("labels", labels.texts());
  Value time_in = Value::array();
  for (const auto& col : r.time_in) time_in.push(f64_column(col));
  out.set("timeIn", std::move(time_in));
  return out;
}

// A group's activity as timeline() gives it (`size`: its goroutines).
Value activity_value(GroupActivity& r, size_t size) {
  Value out = Value::object();
  out.set("type", "activity");
  out.set("from", static_cast<double>(r.from));
  out.set("step", r.ns_per_pixel);
  out.set("size", static_cast<double>(size));
  for (SliceState st : {SliceState::Running, SliceState::Runnable, SliceState::Waiting, SliceState::Syscall})
    out.set(std::string(to_string(st)), std::move(r.in[static_cast<size_t>(st)]));
  return out;
}

Value series_value(SeriesPoints& r) {
  Value out = Value::object();
  out.set("type", "series");
  out.set("exact", r.exact);
  out.set("time", f64_column(r.time));
  out.set("value", f64_column(r.value));
  out.set("min", f64_column(r.min));
  out.set("max", f64_column(r.max));
  return out;
}

// A clock snapshot: trace time (ns), monotonic clock (ns), and the wall clock as Go
// prints it (RFC 3339, UTC) and as ms since the epoch (a Date's value).
Value clock_value(const ClockSnapshot& c) {
  Value o = Value::object();
  o.set("trace", static_cast<double>(c.trace));
  o.set("mono", static_cast<double>(c.mono));
  const WallTime wall = snapshot_wall(c);
  std::string text;
  append_rfc3339_nano(text, wall);
  o.set("wall", text);
  o.set("wallMs", static_cast<double>(wall.sec) * 1e3 + static_cast<double>(wall.nsec) / 1e6);
  return o;
}

std::string event_text(const EventStore& s, size_t i) {
  std::string text;
  append_go_event_string(text, s, i, listing_of(s));
  return text;
}

}  // namespace

Value timeline_overview_query(const TimelineOverview& o, const EventStore& s, std::string_view kind, double id,
                              std::string_view arg, double t0, double t1, double pixels) {
  const TimelineView v = TraceSession::view_of(t0, t1, pixels);
  if (kind == "series") {
    SeriesPoints r = o.series(series_kind(arg), v);
    return series_value(r);
  }
  if (kind == "group") {  // `arg`: the group's name (its start function)
    GroupActivity r = o.group_activity(arg, v);
    return activity_value(r, 0);
  }
  const auto k = slice_track_kind(kind);
  if (!k || !o.has(*k)) {
    throw std::runtime_error("the whole trace's timeline has proc, thread, gc, stw and sweep tracks, the series and the goroutine groups, not '" +
                             std::string(kind) + "' (open the part that holds the time for it)");
  }
  SliceRects r = o.slices({*k, static_cast<int64_t>(id)}, v);
  return slices_value(s, *k, r);
}

Value TraceSession::events_page(double from, double limit, double goroutine, double proc, double thread,
                                double kind_mask) {
  const EventStore& s = read_.store;
  std::vector<double> index, time, g, p, m;
  std::vector<uint8_t> kind;
  Value::Strings text;
  auto mask = static_cast<uint32_t>(kind_mask);
  size_t i = from < 0 ? 0 : static_cast<size_t>(from);
  size_t want = limit < 0 ? 0 : static_cast<size_t>(limit);
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
    text.push_back(event_text(s, i));
  }
  Value page = Value::object();
  page.set("index", std::move(index));
  page.set("time", std::move(time));
  page.set("goroutine", std::move(g));
  page.set("proc", std::move(p));
  page.set("thread", std::move(m));
  page.set("kind", std::move(kind));
  page.set("text", std::move(text));
  page.set("next", static_cast<double>(i < s.size() ? i : s.size()));
  return page;
}

// The stack an event shows: a state transition's (the goroutine changing state, as Go
// prints it), else the event's own.
StackID TraceSession::event_stack(size_t i) const {
  EventView ev(read_.store, i);
  if (ev.kind() == EventKind::StateTransition) {
    StateTransition st = ev.state_transition();
    if (st.has_stack && st.stack) return st.stack;
  }
  return ev.stack();
}

Value TraceSession::frames(StackID id) const {
  const EventStore& s = read_.store;
  Value a = Value::array();
  for (FrameID f : s.stacks.frames(id)) {
    const Frame& fr = s.stacks.frame(f);
    Value o = Value::object();
    o.set("func", std::string(s.strings.get(fr.func)));
    o.set("file", std::string(s.strings.get(fr.file)));
    o.set("line", static_cast<double>(fr.line));
    o.set("pc", static_cast<double>(fr.pc));
    a.push(std::move(o));
  }
  return a;
}

Value TraceSession::event_at(double index) {
  const EventStore& s = read_.store;
  if (!(index >= 0) || index >= static_cast<double>(s.size()))
    throw std::runtime_error("no event " + std::to_string(static_cast<long long>(index)) + " (the trace has " +
                             std::to_string(s.size()) + ")");
  const auto i = static_cast<size_t>(index);
  EventView ev(s, i);
  Value out = Value::object();
  out.set("index", index);
  out.set("time", static_cast<double>(ev.time()));
  out.set("kind", static_cast<double>(ev.kind()));
  out.set("goroutine", static_cast<double>(ev.goroutine()));
  out.set("proc", static_cast<double>(ev.proc()));
  out.set("thread", static_cast<double>(ev.thread()));
  out.set("text", event_text(s, i));
  out.set("stack", frames(event_stack(i)));
  if (ev.kind() == EventKind::Sync) {
    const SyncInfo sync = ev.sync();
    Value details = Value::object();
    details.set("n", static_cast<double>(sync.n));
    details.set("clock", sync.clock ? clock_value(*sync.clock) : Value());
    out.set("sync", std::move(details));
  }
  return out;
}

Value TraceSession::clock_snapshots() {
  Value out = Value::array();
  for (const GenerationInfo& g : read_.store.generations) {
    if (!g.clock) continue;
    Value c = clock_value(*g.clock);
    c.set("generation", static_cast<double>(g.number));
    out.push(std::move(c));
  }
  return out;
}

Value TraceSession::flame(std::string_view type, const ProfileSelection& sel) {
  const ProfileType t = profile_type(type);
  const bool whole = sel.goroutines.empty() && !sel.group && !sel.region && !sel.range;
  FlameGraph picked =
      whole ? FlameGraph{} : flame_graph(build_pprof_profile(read_.store, select_profile(read_.store, summary(), t, sel)));
  return flame_value(whole ? whole_flame(t) : picked);
}

Value TraceSession::flame_value(const FlameGraph& f) {
  Value out = Value::object();
  out.set("names", Value::Strings(f.names));
  out.set("name", f.name);
  out.set("parent", f.parent);
  out.set("depth", f.depth);
  out.set("self", f64_column(f.self_ns));
  out.set("value", f64_column(f.total_ns));
  out.set("selfCount", f64_column(f.self_count));
  out.set("count", f64_column(f.total_count));
  return out;
}

Value TraceSession::tracks() {
  TrackList t = list_tracks(timeline());
  Value out = Value::object();
  out.set("start", static_cast<double>(t.start));
  out.set("end", static_cast<double>(t.end));
  out.set("procs", f64_column(t.procs));
  out.set("threads", f64_column(t.threads));
  Value g = Value::object();
  g.set("id", f64_column(t.goroutines));
  g.set("group", t.goroutine_group);
  g.set("groups", Value::Strings(t.groups.begin(), t.groups.end()));
  out.set("goroutines", std::move(g));
  out.set("gc", t.gc);
  out.set("stw", t.stw);
  out.set("sweep", f64_column(t.sweeps));
  out.set("assist", f64_column(t.assists));
  out.set("regions", f64_column(t.region_goroutines));
  out.set("taskRows", static_cast<double>(t.task_rows));
  out.set("logs", static_cast<double>(t.logs));
  out.set("samples", static_cast<double>(t.samples));
  out.set("network", static_cast<double>(t.network));
  out.set("syscalls", static_cast<double>(t.syscalls));
  Value::Strings series;
  for (SeriesKind k : t.series) series.emplace_back(to_string(k));
  out.set("series", std::move(series));
  return out;
}

Value TraceSession::timeline_query(std::string_view kind, double id, std::string_view arg, double t0, double t1,
                                   double pixels, double limit) {
  const TimelineIndex& index = timeline();
  const EventStore& s = read_.store;
  const TimelineView v = view_of(t0, t1, pixels);
  Value out = Value::object();
  if (auto k = slice_track_kind(kind)) {
    SliceRects r = query_slices(index, {*k, static_cast<int64_t>(id)}, v);
    out = slices_value(s, *k, r);
  } else if (kind == "regions" || kind == "tasks") {
    SpanRects r = kind == "regions" ? query_regions(index, static_cast<GoID>(id), v) : query_tasks(index, v);
    LocalStrings names(s, false);
    std::vector<uint32_t> name(r.size());
    for (size_t i = 0; i < r.size(); i++) name[i] = static_cast<uint32_t>(names(r.name[i]));
    out.set("type", "spans");
    out.set("start", f64_column(r.start));
    out.set("end", f64_column(r.end));
    out.set("row", std::move(r.row));
    out.set("count", std::move(r.count));
    out.set("task", f64_column(r.task));
    out.set("name", std::move(name));
    out.set("names", names.texts());
  } else if (auto instants = instant_kind(kind)) {
    ResourceKind by = arg == "goroutine" ? ResourceKind::Goroutine
                      : arg == "thread"  ? ResourceKind::Thread
                      : arg.empty() || arg == "proc"
                          ? ResourceKind::Proc
                          : throw std::runtime_error("instants group by proc, goroutine or thread, not '" +
                                                     std::string(arg) + "'");
    InstantMarks r = query_instants(index, *instants, by, v);
    out.set("type", "instants");
    out.set("time", f64_column(r.time));
    out.set("resource", f64_column(r.resource));
    out.set("count", std::move(r.count));
    out.set("event", f64_column(r.event));
  } else if (kind == "series") {
    SeriesPoints r = query_series(index, series_kind(arg), v);
    out = series_value(r);
  } else if (kind == "group") {
    // `id`: the index of a goroutine group in tracks().goroutines.groups.
    const auto& members = timeline_group_members();
    if (!(id >= 0) || id >= static_cast<double>(members.size()))
      throw std::runtime_error("no goroutine group " + std::to_string(static_cast<long long>(id)));
    GroupActivity r = query_group_activity(index, members[static_cast<size_t>(id)], v);
    out = activity_value(r, members[static_cast<size_t>(id)].size());
  } else if (kind == "edges") {
    const uint32_t lim = limit >= 0 ? static_cast<uint32_t>(std::min(limit, 4e9)) : v.pixels * 2;
    WakeEdges r = query_wake_edges(index, v, lim);
    LocalStrings reasons(s, true);
    std::vector<int32_t> reason(r.size());
    for (size_t i = 0; i < r.size(); i++) reason[i] = reasons(r.reason[i]);
    out.set("type", "edges");
    out.set("sampled", r.sampled);
    out.set("fromTime", f64_column(r.from_time));
    out.set("toTime", f64_column(r.to_time));
    out.set("kind", u8_column(r.kind));
    out.set("goroutine", f64_column(r.goroutine));
    out.set("fromGoroutine", f64_column(r.from_goroutine));
    out.set("fromProc", f64_column(r.from_proc));
    out.set("fromThread", f64_column(r.from_thread));
    out.set("toProc", f64_column(r.to_proc));
    out.set("toThread", f64_column(r.to_thread));
    out.set("reason", std::move(reason));
    out.set("reasons", reasons.texts());
  } else {
    throw std::runtime_error("unknown track kind '" + std::string(kind) + "'");
  }
  return out;
}

Value TraceSession::slice_at(std::string_view kind, double id, double time) {
  auto k = slice_track_kind(kind);
  if (!k) throw std::runtime_error("'" + std::string(kind) + "' is not a slice track");
  std::optional<SliceAt> at = analysis::slice_at(timeline(), {*k, static_cast<int64_t>(id)}, static_cast<Time>(time));
  if (!at) return Value();
  const EventStore& s = read_.store;
  const bool exec = *k == TrackKind::Proc || *k == TrackKind::Thread;
  const bool labelled = *k == TrackKind::Goroutine || *k == TrackKind::STW;
  auto label_of = [&](int64_t detail) {
    return labelled ? std::string(s.strings.get(static_cast<StringID>(detail))) : std::string();
  };
  auto goroutine_of = [&](int64_t detail) {
    return *k == TrackKind::Goroutine || *k == TrackKind::MarkAssist ? id
           : exec                                                  ? static_cast<double>(detail)
                                                                   : -1.0;
  };
  Value out = Value::object();
  Value track = Value::object();
  track.set("kind", std::string(kind));
  track.set("id", static_cast<double>(at->track.id));
  out.set("track", std::move(track));
  out.set("start", static_cast<double>(at->start));
  out.set("end", static_cast<double>(at->end));
  out.set("duration", static_cast<double>(at->end - at->start));
  out.set("state", std::string(to_string(at->state)));
  out.set("label", label_of(at->detail));
  out.set("goroutine", goroutine_of(at->detail));
  out.set("event", static_cast<double>(at->begin_event));
  out.set("eventText", event_text(s, at->begin_event));
  out.set("stack", frames(event_stack(at->begin_event)));
  const bool open = at->end_event == kNoSliceEvent;
  out.set("endEvent", open ? -1.0 : static_cast<double>(at->end_event));
  out.set("endStack", open ? Value::array() : frames(event_stack(at->end_event)));
  if (at->wake) {
    Value w = Value::object();
    w.set("goroutine", static_cast<double>(s.context(at->wake_event).g));
    w.set("time", static_cast<double>(s.time(at->wake_event)));
    w.set("event", static_cast<double>(at->wake_event));
    w.set("kind", std::string(to_string(*at->wake)));
    w.set("stack", frames(event_stack(at->wake_event)));
    out.set("wokenBy", std::move(w));
  } else {
    out.set("wokenBy", Value());
  }
  if (at->has_next) {
    Value n = Value::object();
    n.set("start", static_cast<double>(at->next_start));
    n.set("state", std::string(to_string(at->next_state)));
    n.set("goroutine", goroutine_of(at->next_detail));
    n.set("label", label_of(at->next_detail));
    out.set("next", std::move(n));
  } else {
    out.set("next", Value());
  }
  return out;
}

}  // namespace gotrace
