// TraceSession: what each analysis needs, and its build, at once or a piece at a time.
#include "gotrace/session.h"

#include <stdexcept>
#include <string>

#include "gotrace/analysis/timeline_details.h"

namespace gotrace {

using namespace gotrace::analysis;

const AnalysisInfo& info(Analysis a) {
  for (const AnalysisInfo& i : kAnalyses)
    if (i.id == a) return i;
  throw std::logic_error("an analysis missing from kAnalyses");
}

std::optional<Analysis> parse_analysis(std::string_view name) {
  for (const AnalysisInfo& i : kAnalyses)
    if (i.name == name) return i.id;
  return std::nullopt;
}

// The builds under way a piece at a time.
struct TraceSession::Builds {
  std::unique_ptr<SummaryBuild> summary;
  std::unique_ptr<TimelineIndexBuild> timeline;
  std::unique_ptr<WakeIndexBuild> wakes;
  std::unique_ptr<UtilizationBuild> mmu;  // of the default flags' curve
};

TraceSession::TraceSession(ReadResult read) : read_(std::move(read)), builds_(std::make_unique<Builds>()) {}
TraceSession::~TraceSession() = default;

void TraceSession::prepare(Analysis a) {
  switch (a) {
    case Analysis::Summary: summary(); break;
    case Analysis::GoroutineGroups:
      for (size_t k = 0; k < groups().size(); k++) members_of(k);
      break;
    case Analysis::TaskTypes: task_types(); break;
    case Analysis::RegionTypes: region_types(); break;
    case Analysis::Timeline: timeline(); break;
    case Analysis::GoroutineLanes: timeline().build_goroutine_lanes(); break;
    case Analysis::Wakes: wakes(); break;
    case Analysis::Flames:
      prepare_whole_profiles();
      for (ProfileType t : kProfileTypes) whole_flame(t);
      break;
    case Analysis::Mmu: mmu_curve(kDefaultMmuFlags); break;
    case Analysis::GroupEvents: group_events(); break;
    case Analysis::CriticalPaths: critical_paths(); break;
    case Analysis::DiffFigures: diff_figures(); break;
  }
}

ProfileType TraceSession::profile_type(std::string_view type) {
  std::optional<ProfileType> t = parse_profile_type(type);
  if (!t) throw std::runtime_error("unknown profile type '" + std::string(type) + "' (net, sync, syscall or sched)");
  return *t;
}

void TraceSession::prepare(std::string_view name) {
  if (name.starts_with("flame:")) {
    whole_flame(profile_type(name.substr(6)));
    return;
  }
  std::optional<Analysis> a = parse_analysis(name);
  if (!a) throw std::runtime_error("nothing to prepare called '" + std::string(name) + "'");
  prepare(*a);
}

template <class Build, class Result, class... Args>
bool TraceSession::advance_piece(std::unique_ptr<Result>& done, std::unique_ptr<Build>& build, size_t events,
                                 Args... args) {
  if (done) return true;
  if (!build) build = std::make_unique<Build>(read_.store, args...);
  if (!build->step(events)) return false;
  done = std::make_unique<Result>(build->take());
  build.reset();
  return true;
}

bool TraceSession::advance(Analysis a, size_t events) {
  switch (a) {
    case Analysis::Summary: return advance_piece(summary_, builds_->summary, events, &events_by_type());
    case Analysis::Timeline: return advance_piece(timeline_, builds_->timeline, events);
    case Analysis::Wakes: return advance_piece(wakes_, builds_->wakes, events, &events_by_type());
    case Analysis::Mmu: return advance_piece(mmu_curves_[kDefaultMmuFlags], builds_->mmu, events, kDefaultMmuFlags);
    case Analysis::GoroutineLanes:
      if (!timeline_) {
        advance(Analysis::Timeline, events);  // the timeline first: the lanes are not begun
        return false;
      }
      return timeline_->build_goroutine_lanes(events);
    default:
      prepare(a);
      return true;
  }
}

bool TraceSession::advance(std::string_view name, size_t events) {
  std::optional<Analysis> a = parse_analysis(name);
  if (!a) {
    prepare(name);
    return true;
  }
  return advance(*a, events);
}

const std::array<uint64_t, 256>& TraceSession::events_by_type() {
  if (!events_by_type_) events_by_type_ = read_.store.count_by_type();
  return *events_by_type_;
}

const std::string& TraceSession::stats_json() {
  if (stats_json_.empty()) stats_json_ = gotrace::stats_json(compute_stats(read_, &events_by_type()), false);
  return stats_json_;
}

const Summary& TraceSession::summary() {
  while (!advance(Analysis::Summary, SIZE_MAX)) {
  }
  return *summary_;
}

SummaryViews& TraceSession::views() {
  if (!views_) {
    const Summary& s = summary();
    store_events_ = std::make_unique<StoreEvents>(read_.store);
    views_ = std::make_unique<SummaryViews>(read_.store, s, *store_events_);
  }
  return *views_;
}

const std::vector<GoroutineGroup>& TraceSession::groups() { return views().groups(); }
const std::vector<const GoroutineSummary*>& TraceSession::members_of(size_t k) { return views().members_of(k); }
const std::vector<TaskTypeStats>& TraceSession::task_types() { return views().task_types(); }
const std::vector<RegionTypeStats>& TraceSession::region_types() { return views().region_types(); }

const GroupEventCounts& TraceSession::group_events() {
  if (!group_events_) group_events_ = std::make_unique<GroupEventCounts>(group_event_counts(read_.store, summary()));
  return *group_events_;
}

// The default flags' curve is also built a piece at a time (advance): a build under way
// is carried on.
const MmuCurve& TraceSession::mmu_curve(unsigned flags) {
  auto& slot = mmu_curves_[flags];
  if (flags == kDefaultMmuFlags) {
    while (!advance(Analysis::Mmu, SIZE_MAX)) {
    }
  }
  if (!slot) slot = std::make_unique<MmuCurve>(mutator_utilization(read_.store, flags));
  return *slot;
}

const TimelineIndex& TraceSession::timeline() {
  while (!advance(Analysis::Timeline, SIZE_MAX)) {
  }
  return *timeline_;
}

const WakeIndex& TraceSession::wakes() {
  while (!advance(Analysis::Wakes, SIZE_MAX)) {
  }
  return *wakes_;
}

const Profile& TraceSession::whole_profile(ProfileType t) {
  auto& slot = whole_profiles_[static_cast<size_t>(t)];
  if (!slot) slot = select_profile(read_.store, summary(), t, {});
  return *slot;
}

// Those not computed yet of every type, in one pass over the events (a request for one
// type computes that one alone: sooner).
void TraceSession::prepare_whole_profiles() {
  std::vector<ProfileType> missing;
  for (ProfileType t : kProfileTypes)
    if (!whole_profiles_[static_cast<size_t>(t)]) missing.push_back(t);
  if (missing.empty()) return;
  std::vector<Profile> computed = select_profiles(read_.store, summary(), missing, {});
  for (Profile& p : computed) whole_profiles_[static_cast<size_t>(p.type)] = std::move(p);
}

const FlameGraph& TraceSession::whole_flame(ProfileType t) {
  auto& slot = whole_flames_[static_cast<size_t>(t)];
  if (!slot) slot = std::make_unique<FlameGraph>(flame_graph(build_pprof_profile(read_.store, whole_profile(t))));
  return *slot;
}

const std::vector<std::vector<GoID>>& TraceSession::timeline_group_members() {
  if (!timeline_groups_) {
    TrackList t = list_tracks(timeline());
    timeline_groups_ = std::make_unique<std::vector<std::vector<GoID>>>(t.groups.size());
    for (size_t i = 0; i < t.goroutines.size(); i++) (*timeline_groups_)[t.goroutine_group[i]].push_back(t.goroutines[i]);
  }
  return *timeline_groups_;
}

}  // namespace gotrace
