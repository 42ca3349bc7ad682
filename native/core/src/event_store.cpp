#include "gotrace/event_store.h"

namespace gotrace {

EventStore::EventStore() {}

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
  return time_.bytes_reserved() + type_.bytes_reserved() + ctx_.bytes_reserved() + stack_.bytes_reserved() +
         a_.bytes_reserved() + b_.bytes_reserved() + c_.bytes_reserved() + extra_.bytes_reserved();
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
