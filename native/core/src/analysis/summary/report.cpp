#include "gotrace/analysis/report.h"

#include <algorithm>
#include <array>

#include "summarizer.h"
#include "analysis/mmu/utilization.h"

namespace gotrace::analysis {

// The summaries' pass and the three flag sets' pass, each with its own names of ranges
// (the one pass both had cost as much as the two, each of which reads the columns it
// needs directly), so that they may run at once.
struct ReportBuilder::Passes {
  Passes(const EventStore& store, const std::array<uint64_t, 256>& expected, uint64_t events_bound)
      : summarizer(store, names, &expected), utilization(store, utilization_names, kReportFlagSets, events_bound) {}
  detail::RangeNames names;  // the report's
  detail::Summarizer summarizer;
  detail::RangeNames utilization_names;
  detail::UtilizationPass utilization;
};

// How many events of each type the trace is expected to have: the store's, scaled by the
// file's size to what was read of it when the store holds only its first generations.
// (Natively, room reserved and not touched costs no memory; past the estimate, the
// summaries' arrays grow.)
std::array<uint64_t, 256> detail::expected_events(const EventStore& store) {
  std::array<uint64_t, 256> n = store.count_by_type(store.first_held(), store.size());
  const uint64_t read = store.generations.empty() ? 0 : store.generations.back().file_offset + store.generations.back().file_bytes;
  if (read == 0 || read >= store.format.file_bytes) return n;
  const double scale = 1.25 * static_cast<double>(store.format.file_bytes) / static_cast<double>(read);
  for (uint64_t& v : n) v = static_cast<uint64_t>(static_cast<double>(v) * scale);
  return n;
}

ReportBuilder::ReportBuilder(const EventStore& store, SummaryKeeping keeping)
    // The MMU's work budget (UtilizationPass) from the file's size when the store does
    // not hold every event yet: an event takes at least a byte.
    : store_(store),
      passes_(std::make_unique<Passes>(store, detail::expected_events(store),
                                       std::max<uint64_t>(store.size(), store.format.file_bytes))) {
  if (keeping == SummaryKeeping::Archived) passes_->summarizer.archive_ended();
  archived_ = keeping == SummaryKeeping::Archived;
}
ReportBuilder::~ReportBuilder() = default;

void ReportBuilder::add(size_t from, size_t to) {
  add_summaries(from, to);
  add_utilization(from, to);
}

void ReportBuilder::add_summaries(size_t from, size_t to) {
  passes_->summarizer.run(passes_->names, from, to);
  events_ += to - from;
}

void ReportBuilder::add_utilization(size_t from, size_t to) {
  passes_->utilization.run(passes_->utilization_names, from, to);
}

Report ReportBuilder::finish(std::string error) {
  Report r;
  r.error = std::move(error);
  r.events = events_;
  if (archived_) {
    r.archived = std::make_shared<ArchivedSummary>(passes_->summarizer.finish_archived(r.summary));
  } else {
    r.summary = passes_->summarizer.finish();
  }
  auto utils = passes_->utilization.finish();
  for (size_t k = 0; k < utils.size(); k++) {
    MmuCurve curve(std::move(utils[k]));
    MmuValues v;
    v.flags = kReportFlagSets[k];
    for (int64_t w : kReportWindows) v.by_window.push_back({w, curve.mmu(w)});
    r.mmu.push_back(std::move(v));
  }
  return r;
}

uint64_t Report::region_count() const {
  if (archived) return archived->regions;
  uint64_t n = 0;
  for (const GoroutineSummary& g : summary.goroutines) n += g.regions.size();
  return n;
}

Report analyze(const EventStore& store, std::string error) {
  ReportBuilder b(store);
  b.add(0, store.size());
  return b.finish(std::move(error));
}

}  // namespace gotrace::analysis
