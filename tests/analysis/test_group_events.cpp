// Events by goroutine group: every event counted once, for the group of the goroutine
// it happened on, and the groups those of the goroutine summary.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/group_events.h"
#include "gotrace/session.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

TEST_CASE("events by goroutine group count every event once", "[group-events][corpus]") {
  for (std::string name : {"go123-annotations-stress", "go122-workload", "go121-workload"}) {
    DYNAMIC_SECTION(name) {
      TraceSession session(read_trace(read_bytes(corpus_path(name + ".trace"))));
      REQUIRE(session.read().ok());
      const GroupEventCounts& c = session.group_events();
      const Summary& s = session.summary();
      // The groups are the summary's: as many goroutines in each.
      std::map<std::string_view, size_t> goroutines;
      for (const GoroutineSummary& g : s.goroutines) goroutines[g.name]++;
      REQUIRE(c.groups.size() == goroutines.size());
      uint64_t events = c.without_goroutine;
      for (size_t k = 0; k < c.groups.size(); k++) {
        const GroupEvents& g = c.groups[k];
        CHECK(g.goroutines == goroutines[g.name]);
        uint64_t by_kind = 0;
        for (uint64_t n : g.by_kind) by_kind += n;
        CHECK(by_kind == g.events);
        if (k > 0) CHECK(c.groups[k - 1].events >= g.events);
        events += g.events;
      }
      CHECK(events == session.store().size());
      CHECK(c.without_goroutine < session.store().size());
      const std::string json = session.json("groupEvents");
      CHECK(json.starts_with("{\"groups\":[{\"name\":"));
      CHECK(json.find("\"without_goroutine\":" + std::to_string(c.without_goroutine) + "}") != std::string::npos);
    }
  }
}
