// gotrace bench: how fast the reader reads a trace, and how much memory its events take.
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <new>
#include <string>

#include "command.h"
#include "output.h"
#include "file_io.h"
#include "gotrace/reader.h"

namespace gotrace::cli {
namespace {

// Column memory in huge pages: the store's columns are carved from 2 MiB-aligned slabs
// that the kernel is asked to back with huge pages, so filling a fresh store costs a
// fault per 2 MiB rather than per 4 KiB. A slab that nothing uses any more is kept for
// the next store, as an allocator keeps freed memory: the runs after the first reuse
// the first run's pages, as Go's parser reuses its heap in the runs gotracebench
// times. The first run, on pages fresh from the kernel, is reported apart.
class HugePageSlabs {
 public:
  static void* allocate(size_t bytes) { return instance().take(bytes); }
  static void release(void* p, size_t) { instance().give_back(p); }

 private:
  static constexpr size_t kHuge = size_t{2} << 20;
  static constexpr size_t kSlab = size_t{32} << 20;
  struct Slab {
    uint8_t* base;
    size_t used;  // bytes handed out from base
    size_t live;  // allocations not yet released
  };

  static HugePageSlabs& instance() {
    static HugePageSlabs s;
    return s;
  }

  void* take(size_t bytes) {
    bytes = (bytes + 63) & ~size_t{63};
    if (bytes > kSlab / 4) return ::operator new(bytes);  // not expected from the store
    if (slabs_.empty() || slabs_.back().used + bytes > kSlab) new_slab();
    Slab& s = slabs_.back();
    void* p = s.base + s.used;
    s.used += bytes;
    s.live++;
    return p;
  }

  void give_back(void* p) {
    auto* b = static_cast<uint8_t*>(p);
    for (size_t k = slabs_.size(); k-- > 0;) {
      Slab& s = slabs_[k];
      if (b < s.base || b >= s.base + kSlab) continue;
      if (--s.live == 0) {
        free_.push_back(s.base);
        slabs_.erase(slabs_.begin() + static_cast<std::ptrdiff_t>(k));
      }
      return;
    }
    ::operator delete(p);
  }

  void new_slab() {
    if (!free_.empty()) {
      slabs_.push_back({free_.back(), 0, 0});
      free_.pop_back();
      return;
    }
    // Over-map by one huge page and trim, so the slab starts on a huge-page boundary.
    size_t len = kSlab + kHuge;
    void* m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    auto* raw = static_cast<uint8_t*>(m);
    auto* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw) + kHuge - 1) & ~(kHuge - 1));
    if (base > raw) munmap(raw, static_cast<size_t>(base - raw));
    if (base + kSlab < raw + len) munmap(base + kSlab, static_cast<size_t>(raw + len - (base + kSlab)));
    madvise(base, kSlab, MADV_HUGEPAGE);
    slabs_.push_back({base, 0, 0});
  }

  std::vector<Slab> slabs_;
  std::vector<uint8_t*> free_;
};

// CPU seconds (user + system) this process has used: on a loaded machine a better
// figure of the reader's own cost than wall-clock time.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

int run_bench(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  const int reps = static_cast<int>(parse_bounded("n", args.value("n", "5"), 1, 1'000'000));
  std::vector<uint8_t> bytes = read_file(args.positional()[0]);
  set_column_memory({HugePageSlabs::allocate, HugePageSlabs::release});
  double best = 1e300, total = 0, best_cpu = 1e300, first = 0;
  size_t events = 0, store_bytes = 0, column_bytes = 0, contexts = 0;
  for (int i = 0; i < reps; i++) {
    double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    ReadResult r = read_trace(bytes);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best_cpu = std::min(best_cpu, cpu_seconds() - c0);
    best = std::min(best, s);
    total += s;
    if (i == 0) first = s;
    events = r.store.size();
    store_bytes = r.store.bytes_reserved();
    column_bytes = r.store.column_bytes();
    contexts = r.store.thread_procs().size();
    // Figures of a read that failed would measure the failure: the error instead.
    if (r.error) throw std::runtime_error(std::string(r.error->what()) + " (no figures: the trace does not read to its end)");
  }
  double mb = static_cast<double>(bytes.size()) / 1e6;
  std::printf("file            %s\n", args.positional()[0].c_str());
  std::printf("bytes           %zu\n", bytes.size());
  std::printf("events          %zu\n", events);
  std::printf("runs            %d (best %.4f s, mean %.4f s)\n", reps, best, total / reps);
  std::printf("events/s        %.0f (best run)\n", static_cast<double>(events) / best);
  std::printf("MB/s            %.1f (best run)\n", mb / best);
  std::printf("first run       %.0f events/s (its columns on pages fresh from the kernel)\n",
              static_cast<double>(events) / first);
  std::printf("CPU time        %.4f s (best run): %.0f events/s of CPU time\n", best_cpu,
              static_cast<double>(events) / best_cpu);
  std::printf("peak RSS        %.1f MB\n", static_cast<double>(peak_rss_kb()) / 1024.0);
  std::printf("store           %.1f MB: %.2f bytes/event (columns alone %.2f)\n", static_cast<double>(store_bytes) / 1e6,
              events ? static_cast<double>(store_bytes) / static_cast<double>(events) : 0.0,
              events ? static_cast<double>(column_bytes) / static_cast<double>(events) : 0.0);
  std::printf("thread/procs    %zu\n", contexts);
  return 0;
}

Register reg({
    "bench",
    "measure how fast the reader reads a trace and the memory its events take",
    "Usage: gotrace bench [-n RUNS] FILE\n\n"
    "Reads the file RUNS times (default 5), each time into a fresh event store, and prints\n"
    "the events, events/s and MB/s of the best run, its CPU time, the process's peak RSS,\n"
    "and the resident bytes per event of the event store (columns, side table, interned\n"
    "strings and stacks). The store's columns are filled from huge pages, which later runs\n"
    "reuse (as Go's parser reuses its heap); the first run's events/s, on fresh pages, is\n"
    "printed apart.\n",
    {"n"},
    {"n"},
    run_bench,
});

}  // namespace
}  // namespace gotrace::cli
