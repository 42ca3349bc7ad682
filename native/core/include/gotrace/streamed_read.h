// Reading a trace in bounded memory: each generation's events are handed on as soon as
// they are ordered and released after, so a reader that needs each event once (stats,
// the summaries, the MMU) holds about one generation whatever the trace's size.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "gotrace/reader.h"

namespace gotrace {

// Events [from, to) of the store, in order; each call's follow the previous call's.
using EventConsumer = std::function<void(const EventStore& store, size_t from, size_t to)>;

// read_trace_into `result` (fresh; its store stays where it is, for consumers that keep
// a reference to it), handing the events to `consume` a generation at a time (an older
// trace, which has no generations, at the end) and releasing those it was handed. The
// store keeps the strings, stacks, contexts and generations, and the events of its last
// chunk. An exception `consume` throws ends the read and is rethrown; a problem with
// the trace ends it as read_trace's does, in `error`, after the consumer was handed
// every event read.
void read_streamed(std::span<const uint8_t> bytes, ReadResult& result, const EventConsumer& consume,
                   ReadOptions options = {});

// What read_streamed is made of, for readers that hand events on in a way of their own:
// read_trace_into `result` (fresh), calling hand_on(store, false) after each generation
// (before options.on_generation) and hand_on(store, true) once the read is over, also
// when it ended with a problem of the trace. An exception hand_on throws ends the read and
// is rethrown.
using HandOn = std::function<void(EventStore& store, bool over)>;
void read_handing_on(std::span<const uint8_t> bytes, ReadResult& result, const HandOn& hand_on,
                     ReadOptions options = {});

// read_generations (reader.h), streamed the same way: a run of generations of any length
// read again holding about one generation's events at a time.
void read_generations_streamed(std::span<const uint8_t> bytes, const EventStore& whole, size_t first, size_t last,
                               ReadResult& result, const EventConsumer& consume, ReadOptions options = {});
void read_generations_streamed(const TraceSource& source, const EventStore& whole, size_t first, size_t last,
                               ReadResult& result, const EventConsumer& consume, ReadOptions options = {});

}  // namespace gotrace
