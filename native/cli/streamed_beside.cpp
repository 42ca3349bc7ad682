#include "streamed_beside.h"

#include <exception>
#include <optional>
#include <thread>

namespace gotrace::cli {
namespace {

// The consumer's thread, one run of events at a time.
class Beside {
 public:
  explicit Beside(const EventConsumer& consume) : consume_(consume) {}
  ~Beside() {
    if (thread_.joinable()) thread_.join();
  }

  // Waits for the run handed before, then rethrows what it threw.
  void wait() {
    if (thread_.joinable()) thread_.join();
    borrowed_.reset();
    if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
  }
  // Hands on events [from, to) of `store` (after wait()).
  void start(const EventStore& store, size_t from, size_t to) {
    borrowed_.emplace(store.borrow(from, to));
    thread_ = std::thread([this, from, to] {
      try {
        consume_(*borrowed_, from, to);
      } catch (...) {
        failed_ = std::current_exception();
      }
    });
  }

 private:
  const EventConsumer& consume_;
  std::optional<EventStore> borrowed_;
  std::thread thread_;
  std::exception_ptr failed_;
};

}  // namespace

void read_streamed_beside(std::span<const uint8_t> bytes, ReadResult& r, const EventConsumer& consume,
                          ReadOptions options) {
  Beside beside(consume);
  size_t done = 0;  // events handed on so far
  // Hands on the events of finished chunks (all of them once the read is over), once the
  // run before is consumed and released.
  read_handing_on(bytes, r, [&](EventStore& store, bool over) {
    beside.wait();
    store.release_before(done);
    const size_t to = over ? store.size() : store.size() / EventStore::kEventsPerChunk * EventStore::kEventsPerChunk;
    if (to <= done) return;
    beside.start(store, done, to);
    done = to;
  }, std::move(options));
  beside.wait();
  r.store.release_before(done);  // as read_streamed leaves its store
}

}  // namespace gotrace::cli
