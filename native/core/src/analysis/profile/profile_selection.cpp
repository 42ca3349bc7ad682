#include "gotrace/analysis/profile_selection.h"

#include <algorithm>

#include "gotrace/analysis/profile_filter.h"
#include "gotrace/analysis/regions.h"

namespace gotrace::analysis {

Profile select_profile(const EventStore& store, const Summary& summary, ProfileType type,
                       const ProfileSelection& selection) {
  return std::move(select_profiles(store, summary, {&type, 1}, selection)[0]);
}

std::vector<Profile> select_profiles(const EventStore& store, const Summary& summary,
                                     std::span<const ProfileType> types, const ProfileSelection& selection) {
  std::vector<GoID> ids = selection.goroutines;
  std::sort(ids.begin(), ids.end());
  auto selected = [&](const GoroutineSummary& g) {
    if (!ids.empty() && !std::binary_search(ids.begin(), ids.end(), g.id)) return false;
    return !selection.group || g.name == *selection.group;
  };
  // A selection no goroutine matches: empty profiles.
  auto none = [&] {
    std::vector<Profile> empty;
    for (ProfileType type : types) empty.push_back({type, {}});
    return empty;
  };
  if (summary.goroutines.empty()) return none();
  // Every goroutine, from its first run to its end: read from the summary as it goes.
  if (ids.empty() && !selection.group && !selection.region) {
    return compute_profiles(store, types, ProfileFilter{nullptr, selection.range, &summary});
  }
  GoroutineIntervals intervals;
  if (selection.region) {
    // The store holds every event here: the start events' stacks are its own.
    const StoreEvents events(store);
    const std::optional<RegionsAtPc> at =
        selection.region_pc ? std::optional<RegionsAtPc>(RegionsAtPc{store, events, *selection.region_pc}) : std::nullopt;
    GoroutineIntervals in_regions = region_type_intervals(summary, *selection.region, at ? &*at : nullptr);
    for (size_t k = 0; k < in_regions.goroutines(); k++) {
      const GoID g = in_regions.goroutine(k);
      const GoroutineSummary* gs = summary.goroutine(g);
      if (gs && !selected(*gs)) continue;
      for (const Interval& iv : in_regions.of(g)) intervals.add(g, iv);
    }
  } else {
    for (const GoroutineSummary& g : summary.goroutines) {
      if (!selected(g)) continue;
      // As goroutine_group_intervals: alive at the end counts until the last event.
      intervals.add(g.id, lifetime(g, summary.last_time));
    }
  }
  if (intervals.goroutines() == 0) return none();
  return compute_profiles(store, types, ProfileFilter{&intervals, selection.range});
}

}  // namespace gotrace::analysis
