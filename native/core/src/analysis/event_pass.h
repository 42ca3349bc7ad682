// One pass over the events for several analyses at once. Each event is decoded once —
// its kind, time and context, and its state transition or range — and handed to every
// consumer, so `gotrace analysis` reads the store once for the summaries and all three
// MMU flag sets. A consumer has these members:
//
//   void begin_event(Time t);   // before each event
//   void end_event(Time t);     // after each event
//   void sync(Time t);
//   void transition(size_t i, Time t, const Context& ctx, const StateTransition& st);
//   void range(size_t i, EventKind kind, Time t, const Context& ctx, const RangeRef& r);
//   void other(size_t i, EventKind kind, Time t, const Context& ctx);  // any other kind
#pragma once

#include "gotrace/event_slices.h"
#include "gotrace/event_store.h"
#include "gotrace/event_view.h"
#include "event_kinds.h"
#include "analysis/summary/range_names.h"
#include "transition.h"

namespace gotrace::analysis::detail {

// Event i (of the given type, at time t) to every consumer, begin_event and end_event
// included.
template <class... Consumers>
[[gnu::always_inline]] inline void pass_event(const EventStore& store, RangeNames& names,
                                              const std::array<EventKind, 256>& kinds, size_t i, uint8_t type, Time t,
                                              Consumers&... consumers) {
  const EventKind kind = kinds[type];
  (consumers.begin_event(t), ...);
  switch (kind) {
    case EventKind::StateTransition: {
      const StateTransition st = read_transition(store, i, type);
      const Context& ctx = store.context(i);
      (consumers.transition(i, t, ctx, st), ...);
      break;
    }
    case EventKind::RangeBegin:
    case EventKind::RangeActive:
    case EventKind::RangeEnd: {
      const RangeRef r = names.get(store, i);
      const Context& ctx = store.context(i);
      (consumers.range(i, kind, t, ctx, r), ...);
      break;
    }
    case EventKind::Sync:
      (consumers.sync(t), ...);
      break;
    default: {
      const Context& ctx = store.context(i);
      (consumers.other(i, kind, t, ctx), ...);
      break;
    }
  }
  (consumers.end_event(t), ...);
}

// Events [begin, end) to every consumer, in order.
template <class... Consumers>
void run_event_pass_between(const EventStore& store, RangeNames& names, size_t begin, size_t end,
                            Consumers&... consumers) {
  const auto& kinds = event_kinds();
  // In slices (event_slices.h): a WebAssembly engine optimizes the loop between them.
  for_each_event_slice_between(begin, end, [&](size_t from, size_t to) {
    for (size_t i = from; i < to; i++) pass_event(store, names, kinds, i, store.type(i), store.time(i), consumers...);
  });
}

template <class... Consumers>
void run_event_pass(const EventStore& store, RangeNames& names, Consumers&... consumers) {
  run_event_pass_between(store, names, 0, store.size(), consumers...);
}

}  // namespace gotrace::analysis::detail
