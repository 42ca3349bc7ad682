// The whole trace's goroutine, task and region summaries from a streamed read
// (StreamedSummary): what `gotrace goroutines`, `tasks` and `regions` print, made
// holding the summaries and the trace's string and stack tables rather than every event.
#pragma once

#include <memory>
#include <string>

#include "gotrace/reader.h"
#include "gotrace/streamed_summary.h"
#include "mapped_file.h"

namespace gotrace::cli {

struct SummarizedTrace {
  std::unique_ptr<MappedFile> file;  // kept for a second read
  ReadResult read;  // its store: the tables the summaries name, the events released
  std::unique_ptr<StreamedSummary> summary;  // finished
  Time first_time = 0, last_time = 0;  // of the first and last events read (0: none)
  SummaryViews& views() { return summary->held_views(); }
};

// Reads the file at `path` streamed, summarizing it ("-": standard input).
std::unique_ptr<SummarizedTrace> read_summarized(const std::string& path);

}  // namespace gotrace::cli
