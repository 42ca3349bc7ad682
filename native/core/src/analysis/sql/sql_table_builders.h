// The builder of each table (one file per family), which sql_table() dispatches to.
#pragma once

#include <span>
#include <stdexcept>
#include <string_view>

#include "gotrace/analysis/sql_tables.h"
#include "gotrace/event_store.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable traces_table(const SqlSource& src);
SqlTable events_table(const SqlSource& src, size_t from, size_t to);
SqlTable goroutines_table(const SqlSource& src);
SqlTable goroutine_blocks_table(const SqlSource& src);
SqlTable g_transitions_table(const SqlSource& src, size_t from, size_t to);
// The g_transitions rows of `intervals` (summarize_intervals's, or a batch of them as
// they are counted), their reasons indexing `block_reasons`.
SqlTable g_transitions_rows(const EventStore& s, int64_t trace_id, std::span<const std::string_view> block_reasons,
                            std::span<const GoInterval> intervals);
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

// A table of a row per event of `events` (a list of SqlKindEvents): its trace_id, event
// and time columns filled, the others empty, sized for the rows.
SqlTable single_events_table(const SqlSource& src, std::string_view name, const std::vector<size_t>& events);

// The events of the tables of single events (SqlSource::kinds); throws without them.
inline const SqlKindEvents& kind_events(const SqlSource& src) {
  if (!src.kinds) throw std::logic_error("the tables of single events need their events found");
  return *src.kinds;
}

}  // namespace gotrace::analysis::detail
