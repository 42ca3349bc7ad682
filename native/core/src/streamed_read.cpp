#include "gotrace/streamed_read.h"

#include <exception>

namespace gotrace {

void read_streamed(std::span<const uint8_t> bytes, ReadResult& r, const EventConsumer& consume, ReadOptions options) {
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
  read_trace_into(bytes, r, options);
  if (failed) std::rethrow_exception(failed);
  hand_on(r.store);
}

}  // namespace gotrace
