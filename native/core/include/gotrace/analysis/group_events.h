// Events by goroutine group: how many events the goroutines of each start function
// emitted, by kind: which groups of goroutines a trace's volume comes from.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/event_store.h"
#include "gotrace/json_writer.h"

namespace gotrace::analysis {

inline constexpr size_t kEventKinds = static_cast<size_t>(EventKind::Experimental) + 1;

struct GroupEvents {
  std::string_view name;  // the goroutines' start function ("" if never seen with a stack)
  size_t goroutines = 0;
  uint64_t events = 0;
  std::array<uint64_t, kEventKinds> by_kind{};  // by EventKind
};

struct GroupEventCounts {
  std::vector<GroupEvents> groups;  // most events first, then by name
  uint64_t without_goroutine = 0;   // events on no goroutine (the runtime's, a proc's)
};

// Each event counts for the goroutine it happened on (its context's).
GroupEventCounts group_event_counts(const EventStore& store, const Summary& summary);

// `gotrace group-events --json`: {"groups": [{"name", "goroutines", "events", "by_kind":
// {kind: count} (kinds with events)}], "without_goroutine"}.
void group_events_json(JsonWriter& w, const GroupEventCounts& counts);

}  // namespace gotrace::analysis
