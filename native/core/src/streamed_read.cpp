#include "gotrace/streamed_read.h"

#include <exception>

namespace gotrace {

namespace {

// read_streamed with `read_into(result, options)` reading the trace.
template <class ReadInto>
void read_streamed_with(ReadInto read_into, ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  size_t done = 0;  // events handed on so far
  std::exception_ptr failed;
  auto hand_on = [&](EventStore& store) {
    const size_t to = store.size();
    consume(store, done, to);
    done = to;
    store.release_before(done);
  };
  auto outer = std::move(options.on_generation);
  options.on_generation = [&](EventStore& store) {
    try {
      hand_on(store);
    } catch (...) {
      failed = std::current_exception();
      return false;
    }
    return !outer || outer(store);
  };
  read_into(r, options);
  if (failed) std::rethrow_exception(failed);
  hand_on(r.store);
}

}  // namespace

void read_streamed(std::span<const uint8_t> bytes, ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  read_streamed_with([&](ReadResult& into, const ReadOptions& o) { read_trace_into(bytes, into, o); }, r, consume,
                     std::move(options));
}

void read_streamed(const TraceSource& source, ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  read_streamed_with([&](ReadResult& into, const ReadOptions& o) { read_trace_into(source, into, o); }, r, consume,
                     std::move(options));
}

}  // namespace gotrace
