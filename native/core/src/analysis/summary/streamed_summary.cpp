// StreamedSummary: the summarizer over a streamed read, noting the events the views read
// later (Summarizer::note_events) and keeping what is read of them before they go
// (kept_events.h).
#include "gotrace/streamed_summary.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gotrace/archived_summary_views.h"
#include "gotrace/event_view.h"
#include "kept_events.h"
#include "summarizer.h"

namespace gotrace {

using namespace gotrace::analysis;

struct StreamedSummary::Impl {
  // Lets the summaries go, saying why.
  void give_up(std::string why) {
    given_up = "the whole trace's summaries would take more than " + std::to_string(budget >> 20) + " MiB (" + why + ")";
    summarizer.reset();
    kept = detail::KeptEvents(store);
  }
  // What the summarizer holds now, with what is kept of events.
  size_t bytes() const {
    size_t n = kept.bytes();
    if (summarizer) n += summarizer->summary_bytes() + summarizer->archived_bytes();
    if (archived) n += archived->archive.bytes() + (archived->goroutines.capacity() + archived->tasks.capacity()) * 8;
    if (summary) n += detail::Summarizer::bytes_for({summary->goroutines.capacity(), summary->tasks.capacity(), summary->regions.capacity()});
    return n;
  }
  // The first events foretell the summaries: held, archived or given up.
  void begin() {
    const std::array<uint64_t, 256> expected = detail::expected_events(store);
    const detail::Summarizer::Room room = detail::Summarizer::room_for(expected);
    const uint64_t held = detail::Summarizer::bytes_for(room);
    if (keeping == Keeping::Fitting) keeping = held <= std::min(budget, held_at_most) ? Keeping::Held : Keeping::Archived;
    const uint64_t foretold = keeping == Keeping::Held ? held : detail::Summarizer::archived_bytes_for(room);
    if (foretold > budget) {
      give_up("the first generation foretells " + std::to_string(foretold >> 20) + " MiB");
      return;
    }
    // Sized from the first events: held, its arrays; archived, where each will lie.
    summarizer = std::make_unique<detail::Summarizer>(store, names, keeping == Keeping::Held ? &expected : nullptr);
    if (keeping == Keeping::Archived) summarizer->archive_ended(&room);
    summarizer->note_events(&noted);
  }
  GoroutineLifetimes make_lifetimes() const {
    GoroutineLifetimes out;
    auto add = [&](const GoroutineSummary& g, Time last) { out.add(g.id, lifetime(g, last)); };
    if (archived) {
      out.reserve(archived->goroutines.size());
      GoroutineSummary g;
      std::vector<RegionSummary> regions;
      for (size_t k = 0; k < archived->goroutines.size(); k++) {
        archived->goroutine(k, g, regions);
        add(g, archived->last_time);
      }
    } else {
      out.reserve(summary->goroutines.size());
      for (const GoroutineSummary& g : summary->goroutines) add(g, summary->last_time);
    }
    return out;
  }
  Impl(const EventStore& s, size_t b, Keeping k, size_t h) : store(s), budget(b), held_at_most(h), keeping(k), kept(s) {}
  const EventStore& store;
  const size_t budget, held_at_most;
  Keeping keeping;
  std::string given_up;
  uint64_t events = 0;  // summarized so far
  detail::RangeNames names;
  std::unique_ptr<detail::Summarizer> summarizer;  // made with the first events (sized from them)
  detail::Summarizer::Noted noted;
  detail::KeptEvents kept;
  std::optional<Summary> summary;  // held, or archived: the names and times besides the archive
  std::optional<ArchivedSummary> archived;
  std::unique_ptr<SummaryAnswers> views;
};

StreamedSummary::StreamedSummary(const EventStore& store, size_t budget, Keeping keeping, size_t held_at_most)
    : impl_(std::make_unique<Impl>(store, budget, keeping, held_at_most)) {}
StreamedSummary::~StreamedSummary() = default;

void StreamedSummary::add(size_t from, size_t to) {
  Impl& m = *impl_;
  if (m.summary) throw std::logic_error("events added to a finished summary");
  if (!m.given_up.empty()) return;
  if (!m.summarizer) {
    m.begin();
    if (!m.given_up.empty()) return;
  }
  if (const size_t bytes = m.bytes(); bytes > m.budget) {
    m.give_up(std::to_string(bytes >> 20) + " MiB after " + std::to_string(m.events) + " events");
    return;
  }
  m.summarizer->run(m.names, from, to);
  m.events += to - from;
  for (uint64_t i : m.noted.region_starts) m.kept.keep_stack(i);
  for (uint64_t i : m.noted.logs) m.kept.keep_log(i);
  m.noted.region_starts.clear();
  m.noted.logs.clear();
}

void StreamedSummary::finish() {
  Impl& m = *impl_;
  if (m.summary || !m.given_up.empty()) return;
  if (!m.summarizer) m.begin();
  if (!m.given_up.empty()) return;
  if (const size_t bytes = m.bytes(); bytes > m.budget) {
    m.give_up(std::to_string(bytes >> 20) + " MiB");
    return;
  }
  if (m.keeping == Keeping::Archived) {
    m.summary.emplace();
    m.archived.emplace(m.summarizer->finish_archived(*m.summary));
    m.summarizer.reset();
    m.views = std::make_unique<ArchivedSummaryViews>(m.store, *m.archived, *m.summary, m.kept);
  } else {
    m.summary = m.summarizer->finish();
    m.views = std::make_unique<SummaryViews>(m.store, *m.summary, m.kept);
  }
  m.summarizer.reset();
}

bool StreamedSummary::finished() const { return impl_->summary.has_value(); }
const std::string& StreamedSummary::given_up() const { return impl_->given_up; }
bool StreamedSummary::archived() const { return impl_->keeping == Keeping::Archived; }
size_t StreamedSummary::bytes() const { return impl_->bytes(); }

SummaryAnswers& StreamedSummary::views() {
  if (!impl_->given_up.empty()) throw std::runtime_error(impl_->given_up);
  if (!impl_->views) throw std::runtime_error("the trace is still being read: its summary is made as the read goes");
  return *impl_->views;
}

SummaryViews& StreamedSummary::held_views() {
  SummaryAnswers& views = this->views();
  if (impl_->archived) throw std::logic_error("the whole trace's summaries are archived, not held");
  return static_cast<SummaryViews&>(views);
}

GoroutineLifetimes StreamedSummary::lifetimes() {
  views();  // says why not
  return impl_->make_lifetimes();
}

}  // namespace gotrace
