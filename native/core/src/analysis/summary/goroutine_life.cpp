#include "gotrace/analysis/goroutine_life.h"

#include "gotrace/error.h"
#include "gotrace/streamed_read.h"
#include "summarizer.h"

namespace gotrace::analysis {
namespace {

template <class Read>
GoroutineLife summarize_life(const EventStore& whole, GoID id, size_t first, size_t last, Read read_streamed_run) {
  GoroutineLife life;
  life.generations = generations_of_goroutine(whole, id, first, last);
  life.tables = std::make_unique<ReadResult>();
  detail::RangeNames names;
  std::unique_ptr<detail::Summarizer> summarizer;
  read_streamed_run(life.generations, *life.tables, [&](const EventStore& store, size_t from, size_t to) {
    if (!summarizer) {  // on the store, once its first generation is read
      summarizer = std::make_unique<detail::Summarizer>(store, names);
      summarizer->archive_ended();
      summarizer->keep_only(id);
    }
    summarizer->run(names, from, to);
  });
  if (!life.tables->ok()) throw *life.tables->error;
  if (!summarizer) return life;
  const ArchivedSummary kept = summarizer->finish_archived(life.summary);
  if (kept.goroutines.empty()) return life;
  GoroutineSummary g;
  kept.goroutine(0, g, life.summary.regions);  // g.regions numbers them from 0
  life.summary.goroutines.push_back(std::move(g));
  return life;
}

}  // namespace

GoroutineLife summarize_goroutine_life(const TraceSource& source, const EventStore& whole, GoID id, size_t first,
                                       size_t last) {
  return summarize_life(whole, id, first, last, [&](GenerationRun run, ReadResult& r, const EventConsumer& consume) {
    read_generations_streamed(source, whole, run.first, run.last, r, consume);
  });
}

GoroutineLife summarize_goroutine_life(std::span<const uint8_t> bytes, const EventStore& whole, GoID id, size_t first,
                                       size_t last) {
  return summarize_life(whole, id, first, last, [&](GenerationRun run, ReadResult& r, const EventConsumer& consume) {
    read_generations_streamed(bytes, whole, run.first, run.last, r, consume);
  });
}

}  // namespace gotrace::analysis
