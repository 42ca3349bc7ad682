// A goroutine's page on demand (summarize_goroutine_life): a trace held a part at a time
// gives any goroutine the whole trace's summary by reading its generations again, one
// generation's events held at once. Held here to the whole trace's summary, goroutine by
// goroutine, on every v2 corpus trace, each asked from a generation in the middle of its
// life (so that its first and last generations are found from there).
#include <catch2/catch.hpp>

#include <algorithm>

#include "corpus.h"
#include "gotrace/analysis/goroutine_life.h"
#include "gotrace/analysis/summary_json.h"
#include "gotrace/json_writer.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::string json_of(const Summary& s, const GoroutineSummary& g) {
  std::string out;
  JsonWriter w(out);
  goroutine_json(w, s, g);
  return out;
}

// "" when equal, else where they first differ, with what follows in each.
std::string first_difference(const std::string& got, const std::string& want) {
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) i++;
  if (i == got.size() && i == want.size()) return "";
  const size_t from = i > 60 ? i - 60 : 0;
  return "at " + std::to_string(i) + ": got ..." + got.substr(from, 160) + " | want ..." + want.substr(from, 160);
}

// The generation whose events span time t.
size_t generation_at(const EventStore& store, Time t) {
  size_t g = 0;
  while (g + 1 < store.generations.size() && store.time(store.generations[g + 1].first_event) <= t) g++;
  return g;
}

struct Checked {
  size_t traces = 0, goroutines = 0, regions = 0, generations_read = 0, longest_life = 0;
  size_t most_held = 0;  // events the store held at once, at most
};

}  // namespace

TEST_CASE("a goroutine's summary read again over its generations is the whole trace's",
          "[analysis][generations][corpus]") {
  Checked checked;
  for_each_v2_trace_with_resume_points([&](const std::string& name, const std::vector<uint8_t>& bytes,
                                           const ReadResult& whole) {
    if (whole.store.generations.size() < 2) return;
    INFO(name);
    checked.traces++;
    const Summary summary = summarize(whole.store);
    // Every goroutine of the small traces; of the others, 64 spread over the ids.
    const size_t step = std::max<size_t>(1, summary.goroutines.size() / 64);
    for (size_t k = 0; k < summary.goroutines.size(); k += step) {
      const GoroutineSummary& g = summary.goroutines[k];
      INFO("goroutine " << g.id);
      const Time born = g.creation_time ? g.creation_time : summary.first_time;
      const Time gone = g.end_time ? g.end_time : summary.last_time;
      const size_t mid = generation_at(whole.store, born + (gone - born) / 2);
      const GoroutineLife life = summarize_goroutine_life(bytes, whole.store, g.id, mid, mid);
      REQUIRE(life.goroutine());
      CHECK(first_difference(json_of(life.summary, *life.goroutine()), json_of(summary, g)) == "");
      checked.goroutines++;
      checked.regions += g.regions.size();
      const size_t read = life.generations.last - life.generations.first + 1;
      checked.generations_read += read;
      checked.longest_life = std::max(checked.longest_life, read);
      const EventStore& held = life.tables->store;
      checked.most_held = std::max(checked.most_held, held.size() - held.first_held());
      // One generation's events at a time (and the rest of the store's chunk of 2^16).
      uint64_t largest = 0;
      for (size_t gen = life.generations.first; gen <= life.generations.last; gen++)
        largest = std::max(largest, whole.store.generations[gen].event_count);
      CHECK(held.size() - held.first_held() <= largest + (size_t{1} << 16));
    }
  });
  WARN(checked.traces << " traces, " << checked.goroutines << " goroutines (" << checked.regions << " regions), "
                      << checked.generations_read << " generations read, the longest life " << checked.longest_life
                      << " generations; at most " << checked.most_held << " events held at once");
  // The whole corpus's figures, then the sample's (corpus_sampled).
  const bool sample = corpus_sampled();
  CHECK(checked.traces > (sample ? 20 : 25));           // 29; 22
  CHECK(checked.goroutines > (sample ? 500 : 700));     // 758; 566
  CHECK(checked.longest_life > (sample ? 600 : 1000));  // 1,384; 700
}
