// The ordered events of a trace, in compact columns (struct of arrays). Everything
// downstream of the reader — dump, stats, analyses, the wasm bindings — reads this.
//
// Per event: time (8 bytes), type (1), context id (4), stack id (4) and three 32-bit
// payload words a, b, c (12) = 29 bytes. What the payload means depends on the type;
// EventView (event_view.h) decodes it into Go's public event model.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gotrace/column.h"
#include "gotrace/flat_map.h"
#include "gotrace/tables.h"
#include "gotrace/types.h"

namespace gotrace {

// The scheduling context an event happened in: the thread (M), proc (P) and goroutine (G)
// bound to it just before the event.
struct Context {
  ThreadID m = kNoThread;
  ProcID p = kNoProc;
  GoID g = kNoGoroutine;
  bool operator==(const Context&) const = default;
};

// A context as the store keeps it: the id of its (thread, proc) pair in the high 32 bits
// and the goroutine in the low 32 (see EventStore::intern_context).
using ContextID = uint64_t;

struct ClockSnapshot {
  Time trace = 0;     // trace time, ns
  uint64_t mono = 0;  // runtime monotonic clock, ns
  uint64_t sec = 0;   // wall clock (Unix)
  uint64_t nsec = 0;
};

struct ExperimentalBatch {
  uint8_t experiment = 0;
  ThreadID thread = kNoThread;
  std::vector<uint8_t> data;
};

// What reading needs to begin at a generation as the read of the whole trace went on
// there (ReadOptions::resume_points; read_generations). Opaque: the ordering's state.
struct ResumePoint;

// One generation of a v2 trace (a whole v1 trace is one generation).
struct GenerationInfo {
  uint64_t number = 0;
  uint64_t first_event = 0;  // index of its first event in the store
  uint64_t event_count = 0;  // its events, including its Sync (the leading one with leading_syncs)
  Time earliest = 0;         // its earliest batch time, ns (Go 1.27 places its Sync there)
  uint64_t frequency = 0;    // trace clock ticks per second
  uint64_t file_offset = 0;  // where its first batch begins
  uint64_t file_bytes = 0;   // the bytes of all its batches
  uint32_t batches = 0;
  std::optional<ClockSnapshot> clock;
  std::vector<ExperimentalBatch> experimental;
  std::shared_ptr<const ResumePoint> resume;  // kept when the read was asked to
};

// Which trace format the events came from.
struct FormatInfo {
  int go_minor = 0;        // header version: 5..21 (v1), 22, 23, 25, 26 (v2)
  bool legacy = false;     // v1 (Go 1.5–1.21), converted to the v2 event model
  // Syncs as Go 1.27 places them (see SyncPlacement in reader.h): one leading each
  // generation and a final one. Otherwise one after each generation, as Go 1.23.
  bool leading_syncs = false;
  uint64_t file_bytes = 0;
};

// Where event stores get the memory of their columns. The default is operator new;
// a native host may hand out pages of its own (the CLI uses huge pages: a large trace
// then costs the kernel a fault per 2 MiB instead of per 4 KiB). Stores keep the
// memory they were created with, so changing it affects only stores created later.
struct ColumnMemory {
  void* (*allocate)(size_t bytes);  // throws std::bad_alloc when it cannot
  void (*release)(void* p, size_t bytes);
};
void set_column_memory(const ColumnMemory& memory);

class EventStore {
 public:
  EventStore();
  EventStore(EventStore&&) noexcept;
  EventStore& operator=(EventStore&&) noexcept;
  ~EventStore();

  size_t size() const { return size_; }

  // Frees the events before i that whole chunks hold (those of i's chunk stay) and the
  // side-table words only they used; their memory serves the chunks added next, so a
  // reader that releases each generation once it is looked at keeps the memory of
  // about one generation, and its pages stay mapped. Indices keep their meaning; reading
  // a released event throws TraceError.
  void release_before(size_t i);
  // The first event still held (0 unless events were released).
  size_t first_held() const { return released_chunks_ << kShift; }

  // Events are kept in chunks of this many; a chunk before the last is finished (no
  // append writes to it again).
  static constexpr size_t kEventsPerChunk = size_t{1} << 16;
  // A store that reads events [from, to) of this one, for another thread to read while
  // this one grows: `to` must lie at the end of a finished chunk (or the store's end once
  // nothing is appended any more), and the events must stay held until it is dropped
  // (release_before waits for it). It owns none of their memory; it has the contexts,
  // the side table and the format, not the strings, stacks or generations.
  EventStore borrow(size_t from, size_t to) const;

  class ChunkColumns;
  // The columns of the chunk that holds event i (see ChunkColumns).
  ChunkColumns columns(size_t i) const;
  // Calls f(columns, from, to) for each run [from, to) of [begin, end) in one chunk.
  template <class F>
  void for_each_chunk(size_t begin, size_t end, F&& f) const;

  // Raw columns (see EventView for their meaning).
  Time time(size_t i) const;
  uint8_t type(size_t i) const;
  ContextID context_id(size_t i) const;
  Context context(size_t i) const { return context_of(context_id(i)); }
  GoID goroutine(size_t i) const;
  StackID stack(size_t i) const;
  uint32_t a(size_t i) const;
  uint32_t b(size_t i) const;
  uint32_t c(size_t i) const;
  uint64_t ab(size_t i) const;
  uint64_t extra(size_t k) const { return extra_[k >> kShift][k & kMask]; }

  Context context_of(ContextID id) const {
    auto mp = static_cast<uint32_t>(id >> 32), g = static_cast<uint32_t>(id);
    if (mp == kWideContext) return wide_contexts_[g];
    const auto& pair = thread_procs_[mp];
    return Context{pair.first, pair.second, g == kNoGoroutineWord ? kNoGoroutine : static_cast<GoID>(g)};
  }
  // Every (thread, proc) pair events happened on, and the rare contexts whose
  // goroutine id does not fit 32 bits.
  const std::vector<std::pair<ThreadID, ProcID>>& thread_procs() const { return thread_procs_; }
  const std::vector<Context>& wide_contexts() const { return wide_contexts_; }

  StringTable strings;
  StackTable stacks;
  std::vector<GenerationInfo> generations;
  // The trace's generations before generations[0]: 0 unless the store holds generations
  // read again (read_generations), whose Syncs Go numbers from the trace's first.
  size_t generations_before = 0;
  FormatInfo format;
  // The reasons first statuses carry (see event_view.h), few: a goroutine waiting or
  // runnable when generations read again begin has its reason from before them.
  std::vector<StringID> status_reasons;
  // The user regions open when generations read again begin (none otherwise), each
  // goroutine's outermost first: no event of theirs may fall in those generations.
  struct RegionAtStart {
    GoID g;
    uint64_t task;
    StringID name;
  };
  std::vector<RegionAtStart> regions_at_start;
  // The slot of reason s in status_reasons, 1-based (0 once 65,535 are taken).
  uint32_t status_reason_slot(StringID s) {
    for (size_t k = 0; k < status_reasons.size(); k++)
      if (status_reasons[k] == s) return static_cast<uint32_t>(k + 1);
    if (status_reasons.size() >= 0xffff) return 0;
    status_reasons.push_back(s);
    return static_cast<uint32_t>(status_reasons.size());
  }
  // The reason GoStatus event i carries, or 0.
  StringID status_reason(size_t i) const { return status_reason_in(c(i)); }
  StringID status_reason_in(uint32_t c) const {
    const uint32_t k = c >> 16;
    return k != 0 && k <= status_reasons.size() ? status_reasons[k - 1] : 0;
  }

  // Begins an empty store with the tables of `o` (strings, stacks, contexts, format):
  // events read again from o's trace then have o's ids (read_generations).
  void begin_with_tables_of(const EventStore& o);

  // Appending (used by the readers). Times must not decrease.
  // By value: measured faster than by reference in WebAssembly (the reader's merge
  // loop under V8, on the large corpus trace), and the same natively.
  ContextID intern_context(Context c);
  // The context `id` with goroutine g instead, when that needs no lookup (false if not).
  bool rebind_goroutine(ContextID id, GoID g, ContextID& out) const {
    if (static_cast<uint32_t>(id >> 32) == kWideContext || g < -1 || g >= static_cast<GoID>(kNoGoroutineWord)) return false;
    out = (id & ~ContextID{0xffffffff}) | static_cast<uint32_t>(g);
    return true;
  }
  void push(Time t, uint8_t type, ContextID ctx, StackID stack, uint32_t a, uint32_t b, uint32_t c) {
    if (b == 0 && c == 0) [[likely]] {
      push_word(t, type, ctx, stack, a, false);
    } else {
      push_wide(t, type, ctx, stack, uint64_t(a) | uint64_t(b) << 32, c);
    }
  }
  [[gnu::always_inline]] void push64(Time t, uint8_t type, ContextID ctx, StackID stack, uint64_t ab, uint32_t c) {
    if ((ab >> 32) == 0 && c == 0) [[likely]] {
      push_word(t, type, ctx, stack, static_cast<uint32_t>(ab), false);
    } else {
      push_wide(t, type, ctx, stack, ab, c);
    }
  }
  // Stores values in the side table; returns the index of the first. Inline, and the
  // values are arguments, not an array: events with a few extra words are common
  // (tasks, logs, sweeps), and an array would have to be built in memory first.
  template <std::convertible_to<uint64_t>... V>
  [[gnu::always_inline]] uint32_t push_extra(V... values) {
    constexpr size_t n = sizeof...(V);
    const auto at = static_cast<uint32_t>(extra_size_);
    const size_t j = extra_size_ & kMask;
    if (j != 0 && j + n <= kChunk) [[likely]] {  // room left in the current block
      uint64_t* w = extra_.back() + j;
      ((*w++ = static_cast<uint64_t>(values)), ...);
      extra_size_ += n;
    } else {
      (push_extra_word(static_cast<uint64_t>(values)), ...);
    }
    return at;
  }
  uint32_t push_extra(std::span<const uint64_t> values);

  // Bytes held by the columns and tables (what "resident bytes per event" measures).
  // How many events of each Go event type there are (by the type column alone, a few
  // times faster than asking type(i) of every event).
  std::array<uint64_t, 256> count_by_type() const { return count_by_type(0, size_); }
  std::array<uint64_t, 256> count_by_type(size_t from, size_t to) const;
  size_t bytes_reserved() const;
  size_t column_bytes() const;

 private:
  // Events live in chunks of 64 Ki, one allocation per chunk for all columns. A
  // chunk stores times as 32-bit offsets from its first event's time; a chunk whose
  // events span more than ~4.3 s keeps full times instead. An event whose payload
  // does not fit one 32-bit word keeps its words in the side table (the type byte's
  // high bit says so, and the word is their index).
  static constexpr unsigned kShift = 16;
  static constexpr size_t kChunk = size_t{1} << kShift;
  static_assert(kChunk == kEventsPerChunk);
  static constexpr size_t kMask = kChunk - 1;
  static constexpr uint8_t kWideFlag = 0x80;
  static constexpr uint8_t kTypeMask = 0x7f;
  static const uint8_t kGoType[128];      // stored type code -> Go's event type
  static const uint8_t kStoredType[256];  // Go's event type -> stored type code
  static constexpr uint32_t kNoGoroutineWord = 0xffffffff;
  static constexpr uint32_t kWideContext = 0xffffffff;  // mp word: g word indexes wide_contexts_

  struct Chunk {
    Time base;
    // Deltas from base below this bound are stored as such: 2^32 until the chunk holds
    // a time too far from base, 0 once it keeps full times in `wide`.
    uint64_t delta_bound = uint64_t{1} << 32;
    std::unique_ptr<Time[]> wide;
    uint32_t delta[kChunk];
    uint8_t type[kChunk];
    uint32_t mp[kChunk];
    uint32_t g[kChunk];
    StackID stack[kChunk];
    uint32_t a[kChunk];
  };

  const Chunk& chunk(size_t i) const { return *held_chunk(i); }
  const Chunk* held_chunk(size_t i) const {
    const Chunk* c = chunks_[i >> kShift];
    if (!c) [[unlikely]] released(i);
    return c;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void released(size_t i) const;
  void push_extra_word(uint64_t v) {
    if ((extra_size_ & kMask) == 0) add_extra_chunk();
    extra_.back()[extra_size_ & kMask] = v;
    extra_size_++;
  }
  void add_extra_chunk();
  void release_all();
  [[gnu::always_inline]] void push_word(Time t, uint8_t type, ContextID ctx, StackID stack, uint32_t word, bool wide) {
    size_t j = size_ & kMask;
    if (j == 0) add_chunk(t);
    Chunk& c = *last_chunk_;
    uint64_t d = static_cast<uint64_t>(t) - static_cast<uint64_t>(c.base);
    // (Modulo 2^64: base + delta gives t back even across a wrap.)
    if (d < c.delta_bound) [[likely]] {
      c.delta[j] = static_cast<uint32_t>(d);
    } else {
      set_wide_time(c, j, t);
    }
    c.type[j] = static_cast<uint8_t>(kStoredType[type] | (wide ? kWideFlag : 0));
    c.mp[j] = static_cast<uint32_t>(ctx >> 32);
    c.g[j] = static_cast<uint32_t>(ctx);
    c.stack[j] = stack;
    c.a[j] = word;
    size_++;
  }
  void add_chunk(Time first);
  [[gnu::always_inline]] void push_wide(Time t, uint8_t type, ContextID ctx, StackID stack, uint64_t ab, uint32_t c) {
    const uint32_t k = push_extra(ab, c);
    push_word(t, type, ctx, stack, k, true);
  }
  void set_wide_time(Chunk& c, size_t j, Time t);

  ColumnMemory memory_;
  bool borrowed_ = false;  // the chunks and side-table blocks are another store's
  std::vector<Chunk*> chunks_;  // constructed in memory_'s blocks; null once released
  size_t released_chunks_ = 0;  // chunks_[0, this) are released
  std::vector<uint32_t> chunk_first_extra_;  // the side table's size when each chunk began
  std::vector<void*> spare_chunks_, spare_extra_;  // released memory, for the next blocks
  Chunk* last_chunk_ = nullptr;
  size_t size_ = 0;
  std::vector<uint64_t*> extra_;  // the side table, kChunk words per block of memory_ (null once released)
  size_t extra_size_ = 0;
  std::vector<std::pair<ThreadID, ProcID>> thread_procs_;
  FlatMap<uint32_t> thread_proc_index_;  // hash of the pair -> candidates checked in thread_procs_
  std::vector<Context> wide_contexts_;
};

// The columns of one chunk of a store (its events up to end()), through pointers a loop
// keeps in locals. EventStore's accessors find the chunk anew on each call, and reload
// it after any write the compiler cannot prove unrelated to the store (in WebAssembly,
// any write to memory): a chain of dependent loads before each value, which a loop that
// dispatches on the event type waits for after every mispredicted branch. Indices are
// the store's, and must lie in this chunk.
class EventStore::ChunkColumns {
 public:
  ChunkColumns(const EventStore& s, size_t i)
      : s_(&s), c_(s.held_chunk(i)), wide_(c_->wide.get()), base_(c_->base), first_(i & ~kMask) {}

  // The first event past this chunk (or the store's end).
  size_t end() const { return std::min(first_ + kChunk, s_->size_); }

  Time time(size_t i) const {
    const size_t j = i & kMask;
    return wide_ ? wide_[j] : static_cast<Time>(static_cast<uint64_t>(base_) + c_->delta[j]);
  }
  uint8_t type(size_t i) const { return kGoType[c_->type[i & kMask] & kTypeMask]; }
  ContextID context_id(size_t i) const {
    const size_t j = i & kMask;
    return uint64_t(c_->mp[j]) << 32 | c_->g[j];
  }
  Context context(size_t i) const { return s_->context_of(context_id(i)); }
  GoID goroutine(size_t i) const {
    const size_t j = i & kMask;
    const uint32_t g = c_->g[j];
    if (c_->mp[j] == kWideContext) return s_->wide_contexts_[g].g;
    return g == kNoGoroutineWord ? kNoGoroutine : static_cast<GoID>(g);
  }
  StackID stack(size_t i) const { return c_->stack[i & kMask]; }
  uint32_t a(size_t i) const { return wide(i) ? static_cast<uint32_t>(s_->extra(word(i))) : word(i); }
  uint32_t b(size_t i) const { return wide(i) ? static_cast<uint32_t>(s_->extra(word(i)) >> 32) : 0; }
  uint32_t c(size_t i) const { return wide(i) ? static_cast<uint32_t>(s_->extra(word(i) + 1)) : 0; }
  uint64_t ab(size_t i) const { return wide(i) ? s_->extra(word(i)) : word(i); }
  StringID status_reason(size_t i) const { return s_->status_reason_in(c(i)); }

 private:
  bool wide(size_t i) const { return c_->type[i & kMask] & kWideFlag; }
  uint32_t word(size_t i) const { return c_->a[i & kMask]; }

  const EventStore* s_;
  const Chunk* c_;
  const Time* wide_;  // the chunk's full times, if it keeps them
  Time base_;
  size_t first_;
};

inline EventStore::ChunkColumns EventStore::columns(size_t i) const { return ChunkColumns(*this, i); }
template <class F>
void EventStore::for_each_chunk(size_t begin, size_t end, F&& f) const {
  for (size_t i = begin; i < end;) {
    const ChunkColumns col(*this, i);
    const size_t to = std::min(end, col.end());
    f(col, i, to);
    i = to;
  }
}
inline Time EventStore::time(size_t i) const { return columns(i).time(i); }
inline uint8_t EventStore::type(size_t i) const { return columns(i).type(i); }
inline ContextID EventStore::context_id(size_t i) const { return columns(i).context_id(i); }
inline GoID EventStore::goroutine(size_t i) const { return columns(i).goroutine(i); }
inline StackID EventStore::stack(size_t i) const { return columns(i).stack(i); }
inline uint32_t EventStore::a(size_t i) const { return columns(i).a(i); }
inline uint32_t EventStore::b(size_t i) const { return columns(i).b(i); }
inline uint32_t EventStore::c(size_t i) const { return columns(i).c(i); }
inline uint64_t EventStore::ab(size_t i) const { return columns(i).ab(i); }

}  // namespace gotrace
