// Embind bindings of native/core. They only convert: bytes in, JSON strings and typed
// arrays out. Every failure comes back as a message (the JS wrapper throws it as an
// Error), so the module stays usable after one.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "gotrace/event_format.h"
#include "gotrace/event_view.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

using emscripten::val;
using namespace gotrace;

namespace {

// Copies a vector into a new JS typed array (the JS side owns the copy).
template <class T>
val typed_copy(const std::vector<T>& v) {
  val view(emscripten::typed_memory_view(v.size(), v.data()));
  return view.call<val>("slice");
}

std::string what_of(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory (the trace needs more memory than is available)";
  return e.what();
}

class WasmTrace {
 public:
  // Reads `size` bytes at `address` (allocated by the caller with _malloc and freed
  // here once read). `progress(bytesDone, bytesTotal, events)` is called as generations
  // complete; returning false cancels.
  WasmTrace(uintptr_t address, double size, val progress) {
    auto* bytes = reinterpret_cast<uint8_t*>(address);
    try {
      ReadOptions options;
      if (!progress.isUndefined() && !progress.isNull()) {
        options.on_progress = [&progress](const ReadProgress& p) {
          val r = progress(static_cast<double>(p.bytes_done), static_cast<double>(p.bytes_total),
                           static_cast<double>(p.events));
          return !(r.isFalse());
        };
      }
      result_ = read_trace(std::span<const uint8_t>(bytes, static_cast<size_t>(size)), options);
    } catch (const std::exception& e) {
      fatal_ = what_of(e);
    }
    std::free(bytes);
  }

  // The reader's error ("" when the whole trace was read). Events before it are kept.
  std::string error() const {
    if (!fatal_.empty()) return fatal_;
    return result_.error ? result_.error->what() : "";
  }
  bool usable() const { return fatal_.empty(); }

  double event_count() const { return static_cast<double>(result_.store.size()); }

  val stats() const {
    return guard([&] { return val(stats_json(compute_stats(result_), false)); });
  }

  // A page of events: index >= from, at most limit of them, optionally only those of
  // one goroutine / proc / thread (-2 = any) and of the given kinds (bit mask over
  // EventKind). Columns come back as typed arrays, Go's text of each event as strings.
  val events(double from, double limit, double goroutine, double proc, double thread, double kind_mask) const {
    return guard([&] {
      const EventStore& s = result_.store;
      std::vector<double> index, time, g, p, m;
      std::vector<uint8_t> kind;
      val text = val::array();
      auto mask = static_cast<uint32_t>(kind_mask);
      size_t i = from < 0 ? 0 : static_cast<size_t>(from);
      size_t want = limit < 0 ? 0 : static_cast<size_t>(limit);
      std::string line;
      for (; i < s.size() && index.size() < want; i++) {
        EventView ev(s, i);
        if (goroutine != -2 && ev.goroutine() != static_cast<GoID>(goroutine)) continue;
        if (proc != -2 && ev.proc() != static_cast<ProcID>(proc)) continue;
        if (thread != -2 && ev.thread() != static_cast<ThreadID>(thread)) continue;
        if (mask && !(mask & (1u << static_cast<unsigned>(ev.kind())))) continue;
        index.push_back(static_cast<double>(i));
        time.push_back(static_cast<double>(ev.time()));
        g.push_back(static_cast<double>(ev.goroutine()));
        p.push_back(static_cast<double>(ev.proc()));
        m.push_back(static_cast<double>(ev.thread()));
        kind.push_back(static_cast<uint8_t>(ev.kind()));
        line.clear();
        append_go_event_string(line, s, i);
        text.call<void>("push", val(line));
      }
      val page = val::object();
      page.set("index", typed_copy(index));
      page.set("time", typed_copy(time));
      page.set("goroutine", typed_copy(g));
      page.set("proc", typed_copy(p));
      page.set("thread", typed_copy(m));
      page.set("kind", typed_copy(kind));
      page.set("text", text);
      page.set("next", static_cast<double>(i < s.size() ? i : s.size()));
      return page;
    });
  }

 private:
  // Runs f; any C++ exception becomes {error: message}.
  template <class F>
  val guard(F&& f) const {
    try {
      return f();
    } catch (const std::exception& e) {
      val err = val::object();
      err.set("error", what_of(e));
      return err;
    }
  }

  ReadResult result_;
  std::string fatal_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(gotrace_core) {
  emscripten::class_<WasmTrace>("WasmTrace")
      .constructor<uintptr_t, double, val>()
      .function("error", &WasmTrace::error)
      .function("usable", &WasmTrace::usable)
      .function("eventCount", &WasmTrace::event_count)
      .function("stats", &WasmTrace::stats)
      .function("events", &WasmTrace::events);
}
