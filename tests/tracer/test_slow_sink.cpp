// A sink slower than the traced program: buffer memory stays within its bound, what has to
// go is dropped a whole generation at a time and counted, and what the sink receives is
// always a valid trace (or, for a sink that can start over, a series of valid traces).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gotrace/tracer/tracer.h"
#include "trace_summary.h"

namespace trace = gotrace::tracer;
using namespace gotrace::tracer_test;
using namespace std::chrono_literals;

namespace {

// Takes 2 ms per write, into a MemorySink.
class SlowSink : public trace::Sink {
 public:
  explicit SlowSink(std::shared_ptr<trace::MemorySink> mem) : mem_(std::move(mem)) {}
  bool write(std::span<const uint8_t> bytes) override {
    std::this_thread::sleep_for(2ms);
    return mem_->write(bytes);
  }
  bool begin_segment() override { return mem_->begin_segment(); }

 private:
  std::shared_ptr<trace::MemorySink> mem_;
};

// Three threads writing ~10 MB/s of events for `d`: each generation fits in the memory
// bound, but the sink takes them slower than they come. Two small generations go first,
// so the sink always has something before the first loss.
void flood(std::chrono::milliseconds d) {
  for (int i = 0; i < 2; i++) {
    trace::Region r("before the flood");
    trace::advance();
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; i++) {
    threads.emplace_back([d] {
      auto end = std::chrono::steady_clock::now() + d;
      trace::Task task = trace::Task::begin("flood");
      while (std::chrono::steady_clock::now() < end) {
        for (int k = 0; k < 200; k++) {
          trace::Region r(task, "tick");
        }
        trace::log(task, "flood", "a message that is a little longer than most");
        std::this_thread::sleep_for(500us);
      }
      task.end();
    });
  }
  for (auto& t : threads) t.join();
}

trace::Options bounded() {
  warm_up_tracer();
  trace::Options o;
  o.generation_period = 10ms;
  o.max_buffer_bytes = size_t(1) << 20;  // 16 batches
  return o;
}

}  // namespace

TEST_CASE("a slow sink: bounded memory and counted drops and a valid trace", "[tracer][slow]") {
  auto mem = std::make_shared<trace::MemorySink>(false);  // cannot start over
  trace::Options o = bounded();
  REQUIRE(trace::start(std::make_unique<SlowSink>(mem), o));
  flood(300ms);
  trace::Stats st = trace::stop();

  CHECK(st.peak_buffer_bytes <= o.max_buffer_bytes);
  CHECK(st.generations_dropped > 0);
  CHECK(st.events_dropped > 0);
  CHECK(st.bytes_dropped > 0);
  CHECK(st.segments <= 1);
  CHECK_FALSE(st.sink_failed);
  TraceSummary t = summarize(mem->bytes());
  INFO(t.error);
  REQUIRE(t.ok);
  CHECK(st.generations >= 2);
  // The stream ends at the first loss; what was written is exact.
  CHECK(t.events == st.events + st.generations + 1);
  CHECK(t.generations == st.generations);
}

TEST_CASE("a slow sink that can start over gets valid traces between the gaps", "[tracer][slow]") {
  auto mem = std::make_shared<trace::MemorySink>(true);
  trace::Options o = bounded();
  REQUIRE(trace::start(std::make_unique<SlowSink>(mem), o));
  flood(300ms);
  trace::Stats st = trace::stop();

  CHECK(st.peak_buffer_bytes <= o.max_buffer_bytes);
  CHECK(st.generations_dropped > 0);
  CHECK(st.events_dropped > 0);
  size_t events = 0, generations = 0;
  size_t written = 0;
  for (size_t i = 0; i < mem->segments(); i++) {
    auto bytes = mem->bytes(i);
    if (bytes.empty()) continue;  // a segment opened after the last gap, never used
    written++;
    INFO("segment " << i);
    TraceSummary t = summarize(bytes);
    INFO(t.error);
    REQUIRE(t.ok);
    events += t.events;
    generations += t.generations;
  }
  CHECK(written == st.segments);
  CHECK(generations == st.generations);
  CHECK(events == st.events + st.generations + written);  // each trace's final Sync
}

TEST_CASE("a failing sink ends the stream without harm", "[tracer][slow]") {
  std::atomic<int> writes{0};
  auto sink = trace::callback_sink([&](std::span<const uint8_t>) { return ++writes < 3; });
  trace::Options o;
  o.generation_period = 5ms;
  REQUIRE(trace::start(std::move(sink), o));
  flood(50ms);
  trace::Stats st = trace::stop();
  CHECK(st.sink_failed);
  CHECK(st.generations_dropped > 0);
}
