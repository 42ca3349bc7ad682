#include "gotrace/analysis/report.h"

#include "analysis/event_pass.h"
#include "summarizer.h"
#include "analysis/mmu/utilization.h"

namespace gotrace::analysis {

// One pass over the events for the summaries and the three flag sets.
struct ReportBuilder::Passes {
  Passes(const EventStore& store, uint64_t events_bound)
      : summarizer(store, names), utilization(store, names, kReportFlagSets, events_bound) {}
  detail::RangeNames names;
  detail::Summarizer summarizer;
  detail::UtilizationPass utilization;
};

ReportBuilder::ReportBuilder(const EventStore& store, uint64_t events_bound)
    : store_(store), passes_(std::make_unique<Passes>(store, events_bound)) {}
ReportBuilder::~ReportBuilder() = default;

void ReportBuilder::add(size_t from, size_t to) {
  detail::run_event_pass_between(store_, passes_->names, from, to, passes_->summarizer, passes_->utilization);
  events_ += to - from;
}

Report ReportBuilder::finish(std::string error) {
  Report r;
  r.error = std::move(error);
  r.events = events_;
  r.summary = passes_->summarizer.finish();
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

Report analyze(const EventStore& store, std::string error) {
  ReportBuilder b(store, store.size());
  b.add(0, store.size());
  return b.finish(std::move(error));
}

}  // namespace gotrace::analysis
