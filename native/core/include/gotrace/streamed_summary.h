// The goroutine, task and region summaries of a whole trace read streamed (each
// generation's events handed on, then released: streamed_read.h, stepped_read.h): what
// the goroutine, task and region views show of all of a trace too large to hold whole.
// Beside the summary it keeps the little those views read of events (each region's
// start stack, each task log's fields), taken as the events go by. The summaries are
// held in arrays (SummaryViews) or, for a trace whose first events foretell more than
// the budget holds so, put away in an archive as they end (ArchivedSummaryViews: a fifth
// of the bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gotrace/event_store.h"
#include "gotrace/analysis/profile.h"
#include "gotrace/summary_answers.h"
#include "gotrace/summary_views.h"

namespace gotrace {

class StreamedSummary {
 public:
  // How the summaries are kept: held in arrays, put away in an archive, or held where
  // the first events foretell that the arrays take at most `held_at_most` (and the
  // budget) and archived where not.
  enum class Keeping { Held, Archived, Fitting };
  // Over the streamed read's store, which keeps its string and stack tables. Past
  // `budget` bytes of summaries (as the first events foretell them, or as they grow), it
  // gives up and lets them go (given_up() says why).
  explicit StreamedSummary(const EventStore& store, size_t budget = SIZE_MAX, Keeping keeping = Keeping::Fitting,
                           size_t held_at_most = SIZE_MAX);
  ~StreamedSummary();
  StreamedSummary(const StreamedSummary&) = delete;
  StreamedSummary& operator=(const StreamedSummary&) = delete;

  // Events [from, to) of the store, which follow those added before, while it holds them.
  void add(size_t from, size_t to);
  // After the last events (at the trace's end, or where its read broke off): the summary
  // is made, and views() answers.
  void finish();
  bool finished() const;
  // Why there is no summary, when the budget was passed ("" otherwise).
  const std::string& given_up() const;
  // Whether the summaries are put away in an archive (decided by the first events).
  bool archived() const;
  // The bytes the summaries and what is kept of events take now.
  size_t bytes() const;
  // The views of the whole summary; a runtime_error before finish() ("still being read")
  // or once given up (given_up()'s reason).
  SummaryAnswers& views();
  // The same of summaries held in arrays; a runtime_error also when archived.
  SummaryViews& held_views();
  // Each goroutine's first run and end, as a profile counts them (streamed_profiles.h);
  // the same runtime_errors as views().
  analysis::GoroutineLifetimes lifetimes();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gotrace
