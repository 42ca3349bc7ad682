// The builder of each table (one file per family), which sql_table() dispatches to.
#pragma once

#include "gotrace/analysis/sql_tables.h"
#include "gotrace/event_store.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable traces_table(const SqlSource& src);
SqlTable events_table(const SqlSource& src, size_t from, size_t to);
SqlTable goroutines_table(const SqlSource& src);
SqlTable goroutine_blocks_table(const SqlSource& src);
SqlTable g_transitions_table(const SqlSource& src, size_t from, size_t to);
SqlTable p_transitions_table(const SqlSource& src);
SqlTable tasks_table(const SqlSource& src);
SqlTable regions_table(const SqlSource& src);
SqlTable logs_table(const SqlSource& src);
SqlTable ranges_table(const SqlSource& src);
SqlTable metrics_table(const SqlSource& src);
SqlTable cpu_samples_table(const SqlSource& src);
SqlTable stacks_table(const SqlSource& src);
SqlTable frames_table(const SqlSource& src);
SqlTable labels_table(const SqlSource& src);

// Calls f(i) for each event of a kind, in order.
template <class F>
void for_each_of_kind(const EventStore& s, EventKind kind, F&& f) {
  s.for_each_chunk(0, s.size(), [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++)
      if (kind_of_type(col.type(i)) == kind) f(i);
  });
}

}  // namespace gotrace::analysis::detail
