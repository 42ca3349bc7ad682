// The session's critical paths and diffs: built on the first request that needs them.
#include <cmath>

#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/session.h"

namespace gotrace {

using namespace analysis;

const CriticalPathIndex& TraceSession::critical_paths() {
  if (!critical_paths_) critical_paths_ = std::make_unique<CriticalPathIndex>(build_critical_path_index(store(), summary()));
  return *critical_paths_;
}

CriticalPath TraceSession::critical_path(std::string_view kind, std::string_view which, std::optional<Time> from,
                                         std::optional<Time> to) {
  const PathInterval i = path_interval(store(), summary(), kind, which, from, to);
  return analysis::critical_path(critical_paths(), i.goroutine, i.from, i.to, i.end_event);
}

std::string TraceSession::critical_path_json(std::string_view kind, std::string_view which, std::optional<Time> from,
                                             std::optional<Time> to, bool pretty) {
  const CriticalPath path = critical_path(kind, which, from, to);
  return json_of(pretty, [&](JsonWriter& w) { analysis::critical_path_json(w, store(), summary(), path); });
}

PathAggregate TraceSession::path_aggregate(const PathTypeSelection& which) {
  return aggregate_paths(critical_paths(), store(), summary(), which);
}

std::string TraceSession::path_aggregate_json(const PathTypeSelection& which, bool pretty) {
  const PathAggregate a = path_aggregate(which);
  return json_of(pretty, [&](JsonWriter& w) { analysis::path_aggregate_json(w, a); });
}

const TraceFigures& TraceSession::diff_figures() {
  if (!diff_figures_) diff_figures_ = std::make_unique<TraceFigures>(trace_figures(store(), summary()));
  return *diff_figures_;
}

std::string TraceSession::diff_json(TraceSession& before, TraceSession& after, size_t top, bool pretty) {
  const TraceFigures& a = before.diff_figures();
  const TraceFigures& b = after.diff_figures();
  return json_of(pretty, [&](JsonWriter& w) { trace_diff_json(w, a, b, top); });
}

std::vector<uint8_t> TraceSession::diff_pprof(TraceSession& before, TraceSession& after, std::string_view type) {
  const TraceFigures& a = before.diff_figures();
  const TraceFigures& b = after.diff_figures();
  auto x = a.profiles.find(std::string(type)), y = b.profiles.find(std::string(type));
  if (x == a.profiles.end() || y == b.profiles.end()) {
    throw std::invalid_argument("a differential profile is of net, sync, syscall, sched or cpu, not '" +
                                std::string(type) + "'");
  }
  return write_pprof(differential_profile(x->second, y->second));
}

}  // namespace gotrace
