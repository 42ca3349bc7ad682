// The goroutine, task and region summaries of a whole trace read streamed (each
// generation's events handed on, then released: streamed_read.h, stepped_read.h): what
// the goroutine, task and region views show of all of a trace too large to hold whole.
// Beside the summary it keeps the little those views read of events (each region's
// start stack, each task log's fields), taken as the events go by.
#pragma once

#include <cstddef>
#include <memory>

#include "gotrace/event_store.h"
#include "gotrace/summary_views.h"

namespace gotrace {

class StreamedSummary {
 public:
  // Over the streamed read's store, which keeps its string and stack tables.
  explicit StreamedSummary(const EventStore& store);
  ~StreamedSummary();
  StreamedSummary(const StreamedSummary&) = delete;
  StreamedSummary& operator=(const StreamedSummary&) = delete;

  // Events [from, to) of the store, which follow those added before, while it holds them.
  void add(size_t from, size_t to);
  // After the last events (at the trace's end, or where its read broke off): the summary
  // is made, and views() answers.
  void finish();
  bool finished() const;
  // The views of the whole summary; a logic_error before finish().
  SummaryViews& views();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gotrace
