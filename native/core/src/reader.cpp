#include "gotrace/reader.h"
#include "gotrace/stepped_read.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>

#include "strings_util.h"
#include "v1/reader.h"
#include "v2/reader.h"
#include "v2/resume_point.h"

namespace gotrace {
namespace {

bool is_v2(int minor) { return minor == 22 || minor == 23 || minor == 25 || minor == 26; }
bool is_v1(int minor) {
  switch (minor) {
    case 5: case 7: case 8: case 9: case 10: case 11: case 19: case 21: return true;
  }
  return false;
}

}  // namespace

TraceHeader parse_header(std::span<const uint8_t> bytes) {
  // "go 1." digits " trace", then NULs up to 16 bytes.
  const char* bad = "bad file format: not a Go execution trace?";
  if (bytes.size() < 16) throw TraceError(bad, ErrorLocation{0, {}, {}, {}, {}});
  const char* p = reinterpret_cast<const char*>(bytes.data());
  if (std::memcmp(p, "go 1.", 5) != 0) throw TraceError(bad, ErrorLocation{0, {}, {}, {}, {}});
  size_t i = 5;
  long minor = 0;
  size_t digits = 0;
  while (i < 16 && p[i] >= '0' && p[i] <= '9' && digits < 4) {
    minor = minor * 10 + (p[i] - '0');
    i++;
    digits++;
  }
  if (digits == 0 || i + 6 > 16 || std::memcmp(p + i, " trace", 6) != 0) throw TraceError(bad, ErrorLocation{0, {}, {}, {}, {}});
  for (i += 6; i < 16; i++) {
    if (p[i] != 0) throw TraceError(bad, ErrorLocation{i, {}, {}, {}, {}});
  }
  if (!is_v2(static_cast<int>(minor)) && !is_v1(static_cast<int>(minor))) {
    throw TraceError(fmt("unknown or unsupported trace version go 1.%ld", minor), ErrorLocation{0, {}, {}, {}, {}});
  }
  return TraceHeader{static_cast<int>(minor)};
}

ReadResult read_trace(std::span<const uint8_t> bytes, const ReadOptions& options) {
  ReadResult result;
  read_trace_into(bytes, result, options);
  return result;
}

namespace {

// Runs `read`; a problem with the trace, or no memory left for it, ends it in
// result.error (reading never throws). False then.
template <class F>
bool keeping_errors(ReadResult& result, F&& read) {
  try {
    read();
    return true;
  } catch (TraceError& e) {
    result.error = std::move(e);
  } catch (std::bad_alloc&) {
    result.error = TraceError("out of memory while reading the trace");
  }
  return false;
}

// Reads the trace `window` holds, when asked: a Go 1.22+ one a generation at a time, an
// older one (no generations) whole. What read_trace_into and SteppedRead share.
class WindowRead {
 public:
  WindowRead(v2::ByteWindow& window, ReadResult& result, const ReadOptions& options)
      : window_(window), result_(result), options_(options) {}

  // As SteppedRead::advance.
  bool advance(size_t generations) {
    if (done_) return false;
    const bool read = keeping_errors(result_, [&] {
      if (!steps_ && !begin()) return;
      for (size_t k = 0; k < generations && !done_; k++) done_ = !steps_->step();
    });
    done_ = done_ || !read;
    return !done_;
  }
  bool done() const { return done_; }

 private:
  // Reads the header, and an older trace whole (false then: the read is over).
  bool begin() {
    EventStore& store = result_.store;
    store.format.file_bytes = window_.size();
    TraceHeader h = parse_header(window_.fetch(0, 16));
    store.format.go_minor = h.go_minor;
    if (is_v1(h.go_minor)) {
      done_ = true;
      store.format.legacy = true;
      v1::read(window_.fetch(0, static_cast<size_t>(window_.size())), h.go_minor, store, options_);
      return false;
    }
    steps_ = std::make_unique<v2::Steps>(window_, h.go_minor, store, options_, result_.work);
    return true;
  }

  v2::ByteWindow& window_;
  ReadResult& result_;
  const ReadOptions& options_;
  std::unique_ptr<v2::Steps> steps_;
  bool done_ = false;
};

void read_window(v2::ByteWindow& window, ReadResult& result, const ReadOptions& options) {
  WindowRead(window, result, options).advance(SIZE_MAX);
}

// Reads generations [first, last] of whole's trace again from `window`, whose first 16
// bytes `header` gives.
void read_generations_from(v2::ByteWindow& window, const std::function<std::span<const uint8_t>()>& header,
                           const EventStore& whole, size_t first, size_t last, ReadResult& result, const ReadOptions& options) {
  keeping_errors(result, [&] {
    if (whole.format.legacy || first > last || last >= whole.generations.size()) {
      throw TraceError(fmt("no generations %zu to %zu to read again: the trace has %zu", first, last, whole.generations.size()));
    }
    const GenerationInfo& from = whole.generations[first];
    if (!from.resume) throw TraceError("the trace was read without resume points: its generations cannot be read again");
    const bool at_trace_end = last + 1 == whole.generations.size();
    const uint64_t end = at_trace_end ? window.size() : whole.generations[last + 1].file_offset;
    if (window.size() != whole.format.file_bytes) {
      throw TraceError(fmt("the trace's bytes changed since it was read (%llu bytes, now %llu)",
                           (unsigned long long)whole.format.file_bytes, (unsigned long long)window.size()));
    }
    result.store.begin_with_tables_of(whole);
    result.store.generations_before = first;
    // The regions the goroutines are in as the run begins: the ordering keeps them.
    for (const auto& g : from.resume->ordering.goroutines) {
      for (const auto& r : g.regions) result.store.regions_at_start.push_back({g.id, r.task, r.name});
    }
    TraceHeader h = parse_header(header());
    if (h.go_minor != whole.format.go_minor) throw TraceError("the trace's bytes changed since it was read (its header)");
    window.end_at(end);
    window.drop_before(from.file_offset);
    ReadOptions o = options;
    o.syncs = whole.format.leading_syncs ? SyncPlacement::Go127 : SyncPlacement::Go123;
    v2::read(window, h.go_minor, result.store, o, result.work, v2::ReadStart{from.file_offset, from.resume.get(), at_trace_end});
  });
}

}  // namespace

void read_generations(std::span<const uint8_t> bytes, const EventStore& whole, size_t first, size_t last, ReadResult& result,
                      const ReadOptions& options) {
  v2::ByteWindow window(bytes);
  read_generations_from(window, [&] { return bytes.first(std::min<size_t>(bytes.size(), 16)); }, whole, first, last, result, options);
}

void read_generations(const TraceSource& source, const EventStore& whole, size_t first, size_t last, ReadResult& result,
                      const ReadOptions& options) {
  // The header read alone: the window's first read begins at the generations.
  uint8_t head[16];
  auto header = [&]() -> std::span<const uint8_t> {
    if (source.size < 16 || !source.read(0, 16, head)) throw TraceError("cannot read the trace's header");
    return head;
  };
  v2::ByteWindow window(source);
  read_generations_from(window, header, whole, first, last, result, options);
}

GenerationRun generations_of_goroutine(const EventStore& whole, GoID id, size_t first, size_t last) {
  const size_t n = whole.generations.size();
  if (first > last || last >= n) throw TraceError(fmt("no generations %zu to %zu: the trace has %zu", first, last, n));
  auto alive_as_it_begins = [&](size_t g) {
    const auto& resume = whole.generations[g].resume;
    if (!resume) throw TraceError("the trace was read without resume points: its generations cannot be read again");
    const auto& live = resume->ordering.goroutines;
    return std::any_of(live.begin(), live.end(), [&](const auto& s) { return s.id == id; });
  };
  GenerationRun run{first, last};
  while (run.first > 0 && alive_as_it_begins(run.first)) run.first--;
  while (run.last + 1 < n && alive_as_it_begins(run.last + 1)) run.last++;
  return run;
}

void read_trace_into(std::span<const uint8_t> bytes, ReadResult& result, const ReadOptions& options) {
  v2::ByteWindow window(bytes);
  read_window(window, result, options);
}

void read_trace_into(const TraceSource& source, ReadResult& result, const ReadOptions& options) {
  v2::ByteWindow window(source);
  read_window(window, result, options);
}

struct SteppedRead::State {
  State(const TraceSource& source, ReadResult& r, ReadOptions o) : window(source), options(std::move(o)), read(window, r, options) {}
  v2::ByteWindow window;
  ReadOptions options;
  WindowRead read;
};

SteppedRead::SteppedRead(const TraceSource& source, ReadResult& result, ReadOptions options)
    : s_(std::make_unique<State>(source, result, std::move(options))) {}
SteppedRead::~SteppedRead() = default;
bool SteppedRead::advance(size_t generations) { return s_->read.advance(generations); }
bool SteppedRead::done() const { return s_->read.done(); }
uint64_t SteppedRead::next_offset() const { return s_->window.read_end(); }

}  // namespace gotrace
