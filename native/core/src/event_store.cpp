#include "gotrace/event_store.h"

namespace gotrace {

EventStore::EventStore() {}
EventStore::EventStore(EventStore&&) noexcept = default;
EventStore& EventStore::operator=(EventStore&&) noexcept = default;
EventStore::~EventStore() = default;

// Go's event types are 0..52, 128..136 and 255 (the reader's Sync); stored codes
// fold them into 0..63 so the type byte has a bit to spare.
const uint8_t EventStore::kGoType[128] = {
    0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,
    22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,
    44,  45,  46,  47,  48,  49,  50,  51,  52,  128, 129, 130, 131, 132, 133, 134, 135, 136, 255, 0,
};

uint8_t EventStore::stored_type(uint8_t t) {
  if (t <= 52) return t;
  if (t >= 128 && t <= 136) return static_cast<uint8_t>(t - 128 + 53);
  if (t == 255) return 62;
  return 0;
}

void EventStore::widen(Chunk& c, size_t used) {
  c.wide = std::make_unique_for_overwrite<Time[]>(kChunk);
  for (size_t j = 0; j < used; j++) c.wide[j] = c.base + static_cast<Time>(c.delta[j]);
}

void EventStore::push_word(Time t, uint8_t type, ContextID ctx, StackID stack, uint32_t word, bool wide) {
  size_t j = size_ & kMask;
  if (j == 0) {
    chunks_.push_back(std::make_unique_for_overwrite<Chunk>());
    chunks_.back()->base = t;  // the arrays stay uninitialized until written
  }
  Chunk& c = *chunks_.back();
  uint64_t d = static_cast<uint64_t>(t) - static_cast<uint64_t>(c.base);
  if (!c.wide && (t < c.base || d > 0xffffffffu)) widen(c, j);
  if (c.wide) {
    c.wide[j] = t;
  } else {
    c.delta[j] = static_cast<uint32_t>(d);
  }
  c.type[j] = static_cast<uint8_t>(stored_type(type) | (wide ? kWideFlag : 0));
  c.ctx[j] = ctx;
  c.stack[j] = stack;
  c.a[j] = word;
  size_++;
}

ContextID EventStore::intern_context(const Context& c) {
  uint64_t h = mix64(static_cast<uint64_t>(c.m) ^ mix64(static_cast<uint64_t>(c.p) ^ mix64(static_cast<uint64_t>(c.g))));
  // Ids in the index are 1-based; contexts_ is 0-based.
  uint32_t id = context_index_.find(h, [&](uint32_t cand) { return contexts_[cand - 1] == c; });
  if (id) return id - 1;
  contexts_.push_back(c);
  context_index_.insert(h, static_cast<uint32_t>(contexts_.size()));
  return static_cast<ContextID>(contexts_.size() - 1);
}

uint32_t EventStore::push_extra(std::initializer_list<uint64_t> values) {
  return push_extra(std::span<const uint64_t>(values.begin(), values.size()));
}

uint32_t EventStore::push_extra(std::span<const uint64_t> values) {
  auto at = static_cast<uint32_t>(extra_.size());
  for (uint64_t v : values) extra_.push_back(v);
  return at;
}

size_t EventStore::column_bytes() const {
  size_t bytes = chunks_.size() * sizeof(Chunk) + extra_.bytes_reserved();
  for (const auto& c : chunks_)
    if (c->wide) bytes += kChunk * sizeof(Time);
  return bytes;
}

size_t EventStore::bytes_reserved() const {
  size_t bytes = column_bytes() + strings.bytes_reserved() + stacks.bytes_reserved() +
                 contexts_.capacity() * sizeof(Context) + context_index_.bytes_reserved();
  for (const auto& g : generations) {
    bytes += sizeof(GenerationInfo);
    for (const auto& e : g.experimental) bytes += e.data.capacity();
  }
  return bytes;
}

}  // namespace gotrace
