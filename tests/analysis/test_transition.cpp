// The analyses read state transitions with their own inlined decoder: it must agree
// with the event model (EventView::state_transition) on every event of the corpus.
#include <catch2/catch.hpp>

#include "../../native/core/src/analysis/transition.h"
#include "corpus.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::test;

TEST_CASE("the analyses decode transitions as the event model does", "[analysis]") {
  for (const auto& name : corpus_traces({"go122-workload", "go123-*", "*_1_1[19]_good", "*_1_21_good"})) {
    if (name == "go123-workload-large") continue;
    DYNAMIC_SECTION(name) {
      ReadResult r = read_trace(read_bytes(corpus_path(name + ".trace")));
      size_t transitions = 0, mismatches = 0;
      for (size_t i = 0; i < r.store.size(); i++) {
        EventView ev(r.store, i);
        if (ev.kind() != EventKind::StateTransition) continue;
        transitions++;
        StateTransition a = analysis::detail::read_transition(r.store, i, r.store.type(i));
        StateTransition b = ev.state_transition();
        bool same = a.resource == b.resource && a.reason == b.reason && a.has_stack == b.has_stack &&
                    a.stack == b.stack && a.old_state == b.old_state && a.new_state == b.new_state;
        if (!same && mismatches++ < 5) FAIL_CHECK("event " << i << " (type " << int(r.store.type(i)) << ") decodes differently");
      }
      CHECK(mismatches == 0);
      if (r.ok()) CHECK(transitions > 0);
    }
  }
}
