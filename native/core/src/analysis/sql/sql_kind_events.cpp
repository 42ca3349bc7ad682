// sql_kind_events(): the events of the tables of single events, one pass for them all.
#include "gotrace/analysis/sql_tables.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {

SqlKindEvents sql_kind_events(const EventStore& store, const std::array<uint64_t, 256>* events_by_type) {
  SqlKindEvents out;
  // Each kind's list, by the kind of each type (null: a type no table lists).
  std::array<std::vector<size_t>*, 256> list_of{};
  for (size_t t = 0; t < list_of.size(); t++) {
    switch (kind_of_type(static_cast<uint8_t>(t))) {
      case EventKind::Log: list_of[t] = &out.logs; break;
      case EventKind::Metric: list_of[t] = &out.metrics; break;
      case EventKind::StackSample: list_of[t] = &out.samples; break;
      case EventKind::Label: list_of[t] = &out.labels; break;
      case EventKind::RangeBegin:
      case EventKind::RangeActive:
      case EventKind::RangeEnd: list_of[t] = &out.ranges; break;
      default: break;
    }
  }
  // The transitions whose resource is a proc (EventView::state_transition's).
  for (uint8_t t : {v2::EvProcStart, v2::EvProcStop, v2::EvProcSteal, v2::EvProcStatus}) list_of[t] = &out.procs;
  if (events_by_type) {
    // Each list takes its memory at once: the counts of its types, added up in its capacity.
    for (size_t t = 0; t < list_of.size(); t++)
      if (list_of[t]) list_of[t]->reserve(list_of[t]->capacity() + (*events_by_type)[t]);
  }
  store.for_each_chunk(0, store.size(), [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++)
      if (std::vector<size_t>* list = list_of[col.type(i)]) list->push_back(i);
  });
  return out;
}

}  // namespace gotrace::analysis
