#include "gotrace/streamed_read.h"

#include <exception>

namespace gotrace {
namespace {

// Runs read(options) calling hand_on after each generation and once it is over (see
// read_handing_on).
template <class Read>
void handing_on(ReadResult& r, const HandOn& hand_on, ReadOptions options, Read read) {
  std::exception_ptr failed;
  auto outer = std::move(options.on_generation);
  options.on_generation = [&](EventStore& store) {
    try {
      hand_on(store, false);
    } catch (...) {
      failed = std::current_exception();
      return false;
    }
    return !outer || outer(store);
  };
  read(options);
  if (failed) std::rethrow_exception(failed);
  hand_on(r.store, true);
}

// Runs read(options) with each generation handed to `consume` as it is read, then
// released (see read_streamed).
template <class Read>
void streamed(ReadResult& r, const EventConsumer& consume, ReadOptions options, Read read) {
  size_t done = 0;  // events handed on so far
  handing_on(r, [&](EventStore& store, bool) {
    const size_t to = store.size();
    consume(store, done, to);
    done = to;
    store.release_before(done);
  }, std::move(options), read);
}

}  // namespace

void read_handing_on(std::span<const uint8_t> bytes, ReadResult& r, const HandOn& hand_on, ReadOptions options) {
  handing_on(r, hand_on, std::move(options), [&](const ReadOptions& o) { read_trace_into(bytes, r, o); });
}

void read_streamed(std::span<const uint8_t> bytes, ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  streamed(r, consume, std::move(options), [&](const ReadOptions& o) { read_trace_into(bytes, r, o); });
}

void read_generations_streamed(std::span<const uint8_t> bytes, const EventStore& whole, size_t first, size_t last,
                               ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  streamed(r, consume, std::move(options), [&](const ReadOptions& o) { read_generations(bytes, whole, first, last, r, o); });
}

void read_generations_streamed(const TraceSource& source, const EventStore& whole, size_t first, size_t last,
                               ReadResult& r, const EventConsumer& consume, ReadOptions options) {
  streamed(r, consume, std::move(options), [&](const ReadOptions& o) { read_generations(source, whole, first, last, r, o); });
}

}  // namespace gotrace
