// TraceSession's JSON results: the analyses' own writers (analysis_json.h, summary_pages.h,
// timeline_json.h) over what the session keeps.
#include <algorithm>
#include <stdexcept>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/summary_pages.h"
#include "gotrace/analysis/timeline_json.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/session.h"

namespace gotrace {

using namespace gotrace::analysis;

std::string TraceSession::goroutines_json(bool pretty) {
  const Summary& s = summary();
  return json_of(pretty, [&](JsonWriter& w) { analysis::goroutines_json(w, s, goroutine_groups(s)); });
}

std::string TraceSession::tasks_json(bool pretty) {
  const Summary& s = summary();
  return json_of(pretty, [&](JsonWriter& w) { analysis::tasks_json(w, read_.store, s, analysis::task_types(s)); });
}

std::string TraceSession::regions_json(bool pretty) {
  const Summary& s = summary();
  return json_of(pretty, [&](JsonWriter& w) { analysis::regions_json(w, s, analysis::region_types(read_.store, s)); });
}

bool TraceSession::has_own_json(Analysis a) {
  switch (a) {
    case Analysis::GoroutineGroups:
    case Analysis::TaskTypes:
    case Analysis::RegionTypes:
    case Analysis::GroupEvents: return true;
    default: return false;
  }
}

// (The cases of has_own_json.)
std::string TraceSession::json(Analysis a, bool pretty) {
  switch (a) {
    case Analysis::GoroutineGroups: return views().goroutine_groups_json(pretty);
    case Analysis::TaskTypes: return views().task_types_json(pretty);
    case Analysis::RegionTypes: return views().region_types_json(pretty);
    case Analysis::GroupEvents: return json_of(pretty, [&](JsonWriter& w) { group_events_json(w, group_events()); });
    default: throw std::runtime_error("the analysis '" + std::string(info(a).name) + "' has no JSON of its own");
  }
}

std::string TraceSession::json(std::string_view name, bool pretty) {
  std::optional<Analysis> a = parse_analysis(name);
  if (!a) throw std::runtime_error("no analysis called '" + std::string(name) + "'");
  return json(*a, pretty);
}

TimelineView TraceSession::view_of(double t0, double t1, double pixels) {
  if (!(pixels >= 1) || pixels > 1e7) throw std::runtime_error("pixels must be between 1 and 10000000");
  return TimelineView{static_cast<Time>(t0), static_cast<Time>(t1), static_cast<uint32_t>(pixels)};
}

std::string TraceSession::goroutine_wakeups_json(double id, double t0, double t1, double pixels, double limit) {
  const TimelineView v = view_of(t0, t1, pixels);
  WakeEdges r = query_wake_edges(timeline(), v, static_cast<uint32_t>(std::clamp(limit, 0.0, 4e9)));
  return json_of(false, [&](JsonWriter& w) { wake_counts_json(w, count_wakeups(r, static_cast<int64_t>(id)), r.sampled); });
}

std::string TraceSession::wakeups_json(double id, double t0, double t1) {
  const WakeCounts c = wakes().count(static_cast<int64_t>(id), static_cast<Time>(t0), static_cast<Time>(t1));
  return json_of(false, [&](JsonWriter& w) { wake_counts_json(w, c, false); });
}

std::string TraceSession::mmu_json(std::span<const double> windows, unsigned flags, int worst) {
  return mmu_view_json(mmu_curve(flags), flags, windows, worst);
}

static bool whole_trace(const ProfileSelection& sel) {
  return sel.goroutines.empty() && !sel.group && !sel.region && !sel.range;
}

std::vector<uint8_t> TraceSession::pprof(std::string_view type, const ProfileSelection& selection) {
  const ProfileType t = profile_type(type);
  if (whole_trace(selection)) return write_pprof(build_pprof_profile(read_.store, whole_profile(t)));
  return write_pprof(build_pprof_profile(read_.store, select_profile(read_.store, summary(), t, selection)));
}

}  // namespace gotrace
