// The whole trace's goroutine, task and region summaries from a streamed read
// (StreamedSummary): what `gotrace goroutines`, `tasks` and `regions` print, made
// holding the summaries and the trace's string and stack tables rather than every event.
#pragma once

#include <memory>
#include <string>

#include "gotrace/reader.h"
#include "gotrace/streamed_summary.h"

namespace gotrace::cli {

struct SummarizedTrace {
  ReadResult read;  // its store: the tables the summaries name, the events released
  std::unique_ptr<StreamedSummary> summary;  // finished
  SummaryViews& views() { return summary->views(); }
};

// Reads the file at `path` streamed, summarizing it ("-": standard input).
std::unique_ptr<SummarizedTrace> read_summarized(const std::string& path);

}  // namespace gotrace::cli
