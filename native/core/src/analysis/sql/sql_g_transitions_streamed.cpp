// summarize_writing_g_transitions(): the goroutine summary made with its intervals
// written as the g_transitions table as they are counted, rather than kept.
#include <string>
#include <vector>

#include "analysis/sql/sql_table_builders.h"
#include "analysis/summary/range_names.h"
#include "analysis/summary/summarizer.h"
#include "gotrace/analysis/sql_parquet.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis {

std::optional<Summary> summarize_writing_g_transitions(const EventStore& store, int64_t trace_id,
                                                       const ParquetSink& sink,
                                                       const std::array<uint64_t, 256>* events_by_type) {
  // The file, held until the summary says it may be written: about 15 bytes an interval,
  // and about an interval per state transition.
  std::string file;
  if (events_by_type) {
    size_t transitions = 0;
    for (size_t t = 0; t < events_by_type->size(); t++)
      if (kind_of_type(static_cast<uint8_t>(t)) == EventKind::StateTransition) transitions += (*events_by_type)[t];
    file.reserve(transitions * 16 + 4096);
  }
  SqlParquetWriter writer(*find_sql_table("g_transitions"), [&](std::span<const uint8_t> bytes) {
    file.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  });
  detail::RangeNames names;
  detail::Summarizer summarizer(store, names, events_by_type);
  // A row group's worth at a time: the same row groups as write_sql_parquet's.
  std::vector<GoInterval> batch;
  batch.reserve(kParquetGroupRows);
  summarizer.stream_intervals(&batch, kParquetGroupRows, [&](std::span<const GoInterval> intervals) {
    writer.write(detail::g_transitions_rows(store, trace_id, summarizer.block_reasons(), intervals));
  });
  summarizer.run(names, 0, store.size());
  Summary summary = summarizer.finish();
  if (summarizer.reused_ids()) return std::nullopt;
  writer.finish();
  sink(std::span(reinterpret_cast<const uint8_t*>(file.data()), file.size()));
  return summary;
}

}  // namespace gotrace::analysis
