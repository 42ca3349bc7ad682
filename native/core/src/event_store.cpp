#include "gotrace/event_store.h"

#include <algorithm>
#include <array>
#include <new>
#include <utility>

#include "gotrace/error.h"
#include "gotrace/event_slices.h"
#include "strings_util.h"

namespace gotrace {
namespace {

void* allocate_with_new(size_t bytes) { return ::operator new(bytes); }
void release_with_delete(void* p, size_t) { ::operator delete(p); }
ColumnMemory g_column_memory{allocate_with_new, release_with_delete};

}  // namespace

void set_column_memory(const ColumnMemory& memory) { g_column_memory = memory; }

EventStore::EventStore() : memory_(g_column_memory) {}

EventStore::EventStore(EventStore&& o) noexcept
    : strings(std::move(o.strings)),
      stacks(std::move(o.stacks)),
      generations(std::move(o.generations)),
      generations_before(o.generations_before),
      format(std::move(o.format)),
      status_reasons(std::move(o.status_reasons)),
      regions_at_start(std::move(o.regions_at_start)),
      memory_(o.memory_),
      borrowed_(o.borrowed_),
      chunks_(std::exchange(o.chunks_, {})),
      released_chunks_(std::exchange(o.released_chunks_, 0)),
      chunk_first_extra_(std::exchange(o.chunk_first_extra_, {})),
      spare_chunks_(std::exchange(o.spare_chunks_, {})),
      spare_extra_(std::exchange(o.spare_extra_, {})),
      last_chunk_(std::exchange(o.last_chunk_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      extra_(std::exchange(o.extra_, {})),
      extra_size_(std::exchange(o.extra_size_, 0)),
      thread_procs_(std::move(o.thread_procs_)),
      thread_proc_index_(std::move(o.thread_proc_index_)),
      wide_contexts_(std::move(o.wide_contexts_)) {}

EventStore& EventStore::operator=(EventStore&& o) noexcept {
  if (this == &o) return *this;
  release_all();
  strings = std::move(o.strings);
  stacks = std::move(o.stacks);
  generations = std::move(o.generations);
  generations_before = o.generations_before;
  format = std::move(o.format);
  status_reasons = std::move(o.status_reasons);
  regions_at_start = std::move(o.regions_at_start);
  memory_ = o.memory_;
  borrowed_ = o.borrowed_;
  chunks_ = std::exchange(o.chunks_, {});
  released_chunks_ = std::exchange(o.released_chunks_, 0);
  chunk_first_extra_ = std::exchange(o.chunk_first_extra_, {});
  spare_chunks_ = std::exchange(o.spare_chunks_, {});
  spare_extra_ = std::exchange(o.spare_extra_, {});
  last_chunk_ = std::exchange(o.last_chunk_, nullptr);
  size_ = std::exchange(o.size_, 0);
  extra_ = std::exchange(o.extra_, {});
  extra_size_ = std::exchange(o.extra_size_, 0);
  thread_procs_ = std::move(o.thread_procs_);
  thread_proc_index_ = std::move(o.thread_proc_index_);
  wide_contexts_ = std::move(o.wide_contexts_);
  return *this;
}

EventStore::~EventStore() { release_all(); }

void EventStore::release_all() {
  if (borrowed_) {
    chunks_.clear();
    extra_.clear();
    size_ = 0;
    return;
  }
  for (Chunk* c : chunks_) {
    if (!c) continue;
    c->~Chunk();
    memory_.release(c, sizeof(Chunk));
  }
  for (void* c : spare_chunks_) memory_.release(c, sizeof(Chunk));
  chunks_.clear();
  spare_chunks_.clear();
  chunk_first_extra_.clear();
  released_chunks_ = 0;
  last_chunk_ = nullptr;
  size_ = 0;
  for (uint64_t* e : extra_)
    if (e) memory_.release(e, kChunk * sizeof(uint64_t));
  for (void* e : spare_extra_) memory_.release(e, kChunk * sizeof(uint64_t));
  extra_.clear();
  spare_extra_.clear();
  extra_size_ = 0;
}

void EventStore::release_before(size_t i) {
  // The first chunk kept; never the last, which events are still appended to.
  const size_t keep = size_ == 0 ? 0 : std::min(i, size_ - 1) >> kShift;
  for (; released_chunks_ < keep; released_chunks_++) {
    Chunk* c = std::exchange(chunks_[released_chunks_], nullptr);
    c->~Chunk();
    spare_chunks_.push_back(c);
  }
  // Side-table words below the first kept chunk's first word belong to released events.
  const size_t words = keep < chunks_.size() ? chunk_first_extra_[keep] : extra_size_;
  for (size_t b = 0; (b + 1) * kChunk <= words && b < extra_.size(); b++) {
    if (extra_[b]) spare_extra_.push_back(std::exchange(extra_[b], nullptr));
  }
}

EventStore EventStore::borrow(size_t from, size_t to) const {
  EventStore b;
  b.borrowed_ = true;
  b.format = format;
  b.status_reasons = status_reasons;
  b.thread_procs_ = thread_procs_;
  b.wide_contexts_ = wide_contexts_;
  b.extra_ = extra_;
  b.extra_size_ = extra_size_;
  const size_t first = from >> kShift, end = (to + kMask) >> kShift;
  b.chunks_.assign(end, nullptr);
  for (size_t k = first; k < end; k++) b.chunks_[k] = chunks_[k];
  b.released_chunks_ = first;
  b.size_ = to;
  return b;
}

void EventStore::released(size_t i) const {
  throw TraceError(fmt("event %zu is no longer held: this reading keeps only events from %zu on", i, first_held()));
}

// Go's event types are 0..52, 128..136 and 255 (the reader's Sync); stored codes
// fold them into 0..63 so the type byte has a bit to spare.
const uint8_t EventStore::kGoType[128] = {
    0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,
    22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,
    44,  45,  46,  47,  48,  49,  50,  51,  52,  128, 129, 130, 131, 132, 133, 134, 135, 136, 255, 0,
};

static constexpr std::array<uint8_t, 256> build_stored_types() {
  std::array<uint8_t, 256> t{};
  for (int i = 0; i <= 52; i++) t[i] = static_cast<uint8_t>(i);
  for (int i = 128; i <= 136; i++) t[i] = static_cast<uint8_t>(i - 128 + 53);
  t[255] = 62;
  return t;
}
static constexpr std::array<uint8_t, 256> kStoredTypes = build_stored_types();
const uint8_t EventStore::kStoredType[256] = {
#define ROW(i) kStoredTypes[i], kStoredTypes[i + 1], kStoredTypes[i + 2], kStoredTypes[i + 3]
#define ROW16(i) ROW(i), ROW(i + 4), ROW(i + 8), ROW(i + 12)
    ROW16(0),   ROW16(16),  ROW16(32),  ROW16(48),  ROW16(64),  ROW16(80),  ROW16(96),  ROW16(112),
    ROW16(128), ROW16(144), ROW16(160), ROW16(176), ROW16(192), ROW16(208), ROW16(224), ROW16(240),
#undef ROW16
#undef ROW
};

void EventStore::add_chunk(Time first) {
  chunks_.reserve(chunks_.size() + 1);
  chunk_first_extra_.reserve(chunks_.size() + 1);
  void* p;
  if (!spare_chunks_.empty()) {
    p = spare_chunks_.back();
    spare_chunks_.pop_back();
  } else {
    p = memory_.allocate(sizeof(Chunk));
  }
  last_chunk_ = new (p) Chunk;  // the arrays stay uninitialized until written
  chunks_.push_back(last_chunk_);
  chunk_first_extra_.push_back(static_cast<uint32_t>(extra_size_));
  last_chunk_->base = first;
}

void EventStore::add_extra_chunk() {
  extra_.reserve(extra_.size() + 1);
  if (!spare_extra_.empty()) {
    extra_.push_back(static_cast<uint64_t*>(spare_extra_.back()));
    spare_extra_.pop_back();
  } else {
    extra_.push_back(static_cast<uint64_t*>(memory_.allocate(kChunk * sizeof(uint64_t))));
  }
}

// A time that does not fit the chunk's 32-bit offsets: keep full times for this chunk.
void EventStore::set_wide_time(Chunk& c, size_t j, Time t) {
  if (!c.wide) {
    c.wide = make_uninitialized_array<Time>(kChunk);
    for (size_t k = 0; k < j; k++) c.wide[k] = static_cast<Time>(static_cast<uint64_t>(c.base) + c.delta[k]);
    c.delta_bound = 0;
  }
  c.wide[j] = t;
}

void EventStore::begin_with_tables_of(const EventStore& o) {
  strings = StringTable::copy_of(o.strings);
  stacks = StackTable::copy_of(o.stacks);
  for (const auto& [m, p] : o.thread_procs_) intern_context(Context{m, p, kNoGoroutine});
  wide_contexts_ = o.wide_contexts_;
  format = o.format;
}

ContextID EventStore::intern_context(Context c) {
  uint32_t g;
  if (c.g == kNoGoroutine) {
    g = kNoGoroutineWord;
  } else if (c.g >= 0 && c.g < static_cast<GoID>(kNoGoroutineWord)) {
    g = static_cast<uint32_t>(c.g);
  } else {
    wide_contexts_.push_back(c);
    return uint64_t(kWideContext) << 32 | (wide_contexts_.size() - 1);
  }
  // (thread, proc) pairs are few: an exact-key map over a combined hash, probing on.
  uint64_t key = mix64(static_cast<uint64_t>(c.m)) ^ static_cast<uint64_t>(c.p) * 0x9E3779B97F4A7C15ULL;
  for (;; key++) {
    auto [slot, inserted] = thread_proc_index_.try_emplace(key);
    if (inserted) {
      *slot = static_cast<uint32_t>(thread_procs_.size());
      thread_procs_.push_back({c.m, c.p});
      break;
    }
    if (thread_procs_[*slot] == std::pair{c.m, c.p}) return uint64_t(*slot) << 32 | g;
  }
  return uint64_t(thread_procs_.size() - 1) << 32 | g;
}

uint32_t EventStore::push_extra(std::span<const uint64_t> values) {
  auto at = static_cast<uint32_t>(extra_size_);
  for (uint64_t v : values) push_extra_word(v);
  return at;
}

std::array<uint64_t, 256> EventStore::count_by_type(size_t first, size_t last) const {
  // Stored type codes, in four tallies taken in turn (consecutive events of one type
  // would otherwise wait on each other's increment), a chunk per call (event_slices.h).
  static_assert(kEventSlice == kChunk);
  std::array<uint32_t, 256> tally[4] = {};
  auto count = [&](size_t from, size_t to) {
    const uint8_t* type = chunk(from).type + (from & kMask);
    size_t j = 0;
    const size_t n = to - from;
    for (; j + 4 <= n; j += 4) {
      tally[0][type[j]]++;
      tally[1][type[j + 1]]++;
      tally[2][type[j + 2]]++;
      tally[3][type[j + 3]]++;
    }
    for (; j < n; j++) tally[0][type[j]]++;
  };
  // A chunk per call (event_slices.h).
  for (size_t from = first; from < last;) {
    const size_t to = std::min(last, (from & ~kMask) + kChunk);
    call_out_of_line(count, from, to);
    from = to;
  }
  std::array<uint64_t, 256> out = {};
  for (size_t code = 0; code < 256; code++)
    out[kGoType[code & kTypeMask]] += uint64_t{tally[0][code]} + tally[1][code] + tally[2][code] + tally[3][code];
  return out;
}

size_t EventStore::column_bytes() const {
  size_t bytes = (chunks_.size() - released_chunks_ + spare_chunks_.size()) * sizeof(Chunk) +
                 (extra_.size() + spare_extra_.size()) * kChunk * sizeof(uint64_t);
  for (const auto& c : chunks_)
    if (c && c->wide) bytes += kChunk * sizeof(Time);
  for (const uint64_t* e : extra_)
    if (!e) bytes -= kChunk * sizeof(uint64_t);
  return bytes;
}

size_t EventStore::bytes_reserved() const {
  size_t bytes = column_bytes() + strings.bytes_reserved() + stacks.bytes_reserved() +
                 thread_procs_.capacity() * sizeof(thread_procs_[0]) + thread_proc_index_.bytes_reserved() +
                 wide_contexts_.capacity() * sizeof(Context);
  for (const auto& g : generations) {
    bytes += sizeof(GenerationInfo);
    for (const auto& e : g.experimental) bytes += e.data.capacity();
  }
  return bytes;
}

}  // namespace gotrace
