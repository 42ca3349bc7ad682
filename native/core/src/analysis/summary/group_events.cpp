#include "gotrace/analysis/group_events.h"

#include <algorithm>
#include <unordered_map>

#include "gotrace/event_view.h"

namespace gotrace::analysis {

GroupEventCounts group_event_counts(const EventStore& store, const Summary& summary) {
  GroupEventCounts out;
  std::unordered_map<std::string_view, uint32_t> group_of_name;
  std::unordered_map<GoID, uint32_t> group_of;
  for (const GoroutineSummary& g : summary.goroutines) {
    auto [it, fresh] = group_of_name.try_emplace(g.name, static_cast<uint32_t>(out.groups.size()));
    if (fresh) out.groups.push_back({g.name});
    out.groups[it->second].goroutines++;
    group_of.emplace(g.id, it->second);
  }
  for (size_t i = 0; i < store.size(); i++) {
    EventView ev(store, i);
    auto it = ev.goroutine() == kNoGoroutine ? group_of.end() : group_of.find(ev.goroutine());
    if (it == group_of.end()) {
      out.without_goroutine++;
      continue;
    }
    GroupEvents& g = out.groups[it->second];
    g.events++;
    g.by_kind[static_cast<size_t>(ev.kind())]++;
  }
  std::sort(out.groups.begin(), out.groups.end(), [](const GroupEvents& a, const GroupEvents& b) {
    return a.events != b.events ? a.events > b.events : a.name < b.name;
  });
  return out;
}

}  // namespace gotrace::analysis
