// StreamedSummary: the summarizer over a streamed read, noting the events the views read
// later (Summarizer::note_events) and keeping what is read of them before they go.
#include "gotrace/streamed_summary.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gotrace/event_view.h"
#include "summarizer.h"

namespace gotrace {

using namespace gotrace::analysis;

namespace {

// Kept facts of released events, by event index: noted in increasing order, so that a
// sorted vector answers lookups.
template <class T>
struct ByEvent {
  std::vector<uint64_t> events;
  std::vector<T> facts;
  void add(uint64_t event, T fact) {
    events.push_back(event);
    facts.push_back(fact);
  }
  const T* find(uint64_t event) const {
    auto it = std::lower_bound(events.begin(), events.end(), event);
    return it != events.end() && *it == event ? &facts[it - events.begin()] : nullptr;
  }
};

class KeptEvents final : public SummaryEvents {
 public:
  StackID stack(uint64_t event) const override {
    const StackID* s = stacks.find(event);
    return s ? *s : 0;
  }
  LogFields log(uint64_t event) const override {
    const LogFields* l = logs.find(event);
    if (!l) throw std::logic_error("a task's log that was not kept");
    return *l;
  }
  ByEvent<StackID> stacks;  // of region starts
  ByEvent<LogFields> logs;
};

}  // namespace

struct StreamedSummary::Impl {
  // Lets the summaries go, saying why.
  void give_up(std::string why) {
    given_up = "the whole trace's summaries would take more than " + std::to_string(budget >> 20) + " MiB (" + why + ")";
    summarizer.reset();
    kept = KeptEvents();
  }
  Impl(const EventStore& s, size_t b) : store(s), budget(b) {}
  const EventStore& store;
  const size_t budget;
  std::string given_up;
  uint64_t events = 0;  // summarized so far
  detail::RangeNames names;
  std::unique_ptr<detail::Summarizer> summarizer;  // made with the first events (sized from them)
  detail::Summarizer::Noted noted;
  KeptEvents kept;
  std::optional<Summary> summary;
  std::unique_ptr<SummaryViews> views;
};

StreamedSummary::StreamedSummary(const EventStore& store, size_t budget)
    : impl_(std::make_unique<Impl>(store, budget)) {}
StreamedSummary::~StreamedSummary() = default;

void StreamedSummary::add(size_t from, size_t to) {
  Impl& m = *impl_;
  if (m.summary) throw std::logic_error("events added to a finished summary");
  if (!m.given_up.empty()) return;
  if (!m.summarizer) {
    // Sized from the first generation, scaled to the file; given up before anything is
    // reserved when that is past the budget.
    const std::array<uint64_t, 256> expected = detail::expected_events(m.store);
    const uint64_t foretold = detail::Summarizer::bytes_for(detail::Summarizer::room_for(expected));
    if (foretold > m.budget) {
      m.give_up("the first generation foretells " + std::to_string(foretold >> 20) + " MiB");
      return;
    }
    m.summarizer = std::make_unique<detail::Summarizer>(m.store, m.names, &expected);
    m.summarizer->note_events(&m.noted);
  }
  if (m.summarizer->summary_bytes() > m.budget) {
    m.give_up(std::to_string(m.summarizer->summary_bytes() >> 20) + " MiB after " + std::to_string(m.events) + " events");
    return;
  }
  m.summarizer->run(m.names, from, to);
  m.events += to - from;
  for (uint64_t i : m.noted.region_starts) {
    if (StackID s = m.store.stack(i); s != 0) m.kept.stacks.add(i, s);
  }
  for (uint64_t i : m.noted.logs) m.kept.logs.add(i, StoreEvents(m.store).log(i));
  m.noted.region_starts.clear();
  m.noted.logs.clear();
}

void StreamedSummary::finish() {
  Impl& m = *impl_;
  if (m.summary || !m.given_up.empty()) return;
  if (!m.summarizer) m.summarizer = std::make_unique<detail::Summarizer>(m.store, m.names);
  if (m.summarizer->summary_bytes() > m.budget) {
    m.give_up(std::to_string(m.summarizer->summary_bytes() >> 20) + " MiB");
    return;
  }
  m.summary = m.summarizer->finish();
  m.summarizer.reset();
  m.views = std::make_unique<SummaryViews>(m.store, *m.summary, m.kept);
}

bool StreamedSummary::finished() const { return impl_->summary.has_value(); }
const std::string& StreamedSummary::given_up() const { return impl_->given_up; }

SummaryViews& StreamedSummary::views() {
  if (!impl_->given_up.empty()) throw std::runtime_error(impl_->given_up);
  if (!impl_->views) throw std::runtime_error("the trace is still being read: its summary is made as the read goes");
  return *impl_->views;
}

}  // namespace gotrace
