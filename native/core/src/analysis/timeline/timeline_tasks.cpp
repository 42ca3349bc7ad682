// User tasks on the timeline. cmd/trace gives every task a row of its own, which a trace
// with many thousands of tasks cannot show; here tasks share rows, each placed on the
// lowest row free at its start (interval partitioning), so rows = the most tasks alive
// at once.
#include <algorithm>
#include <queue>

#include "gotrace/analysis/timeline_query.h"
#include "gotrace/event_slices.h"
#include "gotrace/event_view.h"
#include "timeline_data.h"
#include "timeline_families.h"
#include "timeline_span_merger.h"

namespace gotrace::analysis {
namespace detail {

constexpr size_t kTaskBlock = 64;

void build_tasks(TimelineData& d) {
  const EventStore& s = *d.store;
  struct Task {
    uint32_t begin = kAbsent, end = kAbsent;
    Time start = 0, finish = 0;
  };
  std::vector<Task> tasks;
  FlatMap<uint32_t> by_id;
  const auto& kinds = event_kinds();
  // A chunk's columns at a time (EventStore::ChunkColumns), in slices (event_slices.h).
  auto pass = [&](const EventStore::ChunkColumns& col, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
      const EventKind k = kinds[col.type(i)];
      if (k != EventKind::TaskBegin && k != EventKind::TaskEnd) [[likely]] continue;
      auto [slot, inserted] = by_id.try_emplace(EventView(s, i).task().id);
      if (inserted) {
        *slot = static_cast<uint32_t>(tasks.size());
        tasks.emplace_back();
      }
      Task& t = tasks[*slot];
      (k == EventKind::TaskBegin ? t.begin : t.end) = static_cast<uint32_t>(i);
    }
  };
  for_each_event_slice(s.size(), [&](size_t from, size_t to) { s.for_each_chunk(from, to, pass); });
  for (Task& t : tasks) {
    t.start = t.begin != kAbsent ? s.time(t.begin) : d.start;
    t.finish = t.end != kAbsent ? s.time(t.end) : d.end;
  }
  std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) {
    return a.start != b.start ? a.start < b.start : a.finish < b.finish;
  });

  TaskSpans& out = d.tasks;
  for (auto* v : {&out.start, &out.end}) v->reserve(tasks.size());
  for (auto* v : {&out.event, &out.row}) v->reserve(tasks.size());
  out.block_end.reserve(tasks.size() / kTaskBlock + 1);
  using Busy = std::pair<Time, uint32_t>;  // (end, row)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
  Time end_max = INT64_MIN;
  for (const Task& t : tasks) {
    while (!busy.empty() && busy.top().first <= t.start) {
      free.push(busy.top().second);
      busy.pop();
    }
    uint32_t row;
    if (free.empty()) {
      row = out.rows++;
    } else {
      row = free.top();
      free.pop();
    }
    busy.push({t.finish, row});
    end_max = std::max(end_max, t.finish);
    out.start.push_back(t.start);
    out.end.push_back(t.finish);
    out.event.push_back(t.begin != kAbsent ? t.begin : t.end);
    out.row.push_back(row);
    if (out.start.size() % kTaskBlock == 0) out.block_end.push_back(end_max);
  }
  if (out.start.size() % kTaskBlock != 0) out.block_end.push_back(end_max);
}

}  // namespace detail

uint32_t task_rows(const TimelineIndex& index) { return index.data().tasks.rows; }

SpanRects query_tasks(const TimelineIndex& index, const TimelineView& view) {
  using namespace detail;
  SpanRects out;
  const TimelineData& d = index.data();
  const TaskSpans& t = d.tasks;
  if (view.to <= view.from || view.pixels == 0) return out;
  const EventStore& s = *d.store;
  // The first block of tasks that can reach into the view: block_end never decreases.
  auto b = std::lower_bound(t.block_end.begin(), t.block_end.end(), view.from);
  SpanMerger merger(view, out, [&](uint32_t e) {
    // TaskBegin and TaskEnd: extra a..a+2 = id, parent, name (event_view.h).
    return std::pair<uint64_t, StringID>{s.extra(s.a(e)), static_cast<StringID>(s.extra(s.a(e) + 2))};
  });
  for (size_t k = static_cast<size_t>(b - t.block_end.begin()) * kTaskBlock; k < t.start.size(); k++) {
    if (t.start[k] >= view.to) break;  // tasks are by start
    merger.add(t.start[k], t.end[k], t.row[k], t.event[k], true);
  }
  merger.finish();
  return out;
}

}  // namespace gotrace::analysis
