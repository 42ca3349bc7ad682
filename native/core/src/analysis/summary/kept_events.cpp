#include "kept_events.h"

#include <algorithm>
#include <stdexcept>

#include "gotrace/event_view.h"
#include "varint.h"

namespace gotrace::analysis::detail {

template <size_t N>
void FactStream<N>::add(uint64_t event, const Fact& fact) {
  if (in_block_ == kPerBlock) {
    if (chunks_.empty() || chunks_.back().capacity() - chunks_.back().size() < kBlockMaxBytes) {
      // Chunks grow with the facts, from one block's room, so that few facts reserve little.
      const size_t room = chunks_.empty() ? kBlockMaxBytes : std::min(kChunkBytes, 2 * chunks_.back().capacity());
      chunks_.emplace_back();
      chunks_.back().reserve(room);
    }
    blocks_.push_back({event, static_cast<uint32_t>(chunks_.size() - 1), static_cast<uint32_t>(chunks_.back().size())});
    in_block_ = 0;
    last_event_ = event;
    last_ = {};
  }
  std::vector<uint8_t>& out = chunks_.back();
  write_uvarint(out, event - last_event_);
  for (size_t f = 0; f < N; f++) write_uvarint(out, zigzag(static_cast<int64_t>(fact[f] - last_[f])));
  last_event_ = event;
  last_ = fact;
  in_block_++;
}

template <size_t N>
bool FactStream<N>::find(uint64_t event, Fact& out) const {
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), event,
                             [](uint64_t e, const Block& b) { return e < b.first_event; });
  if (it == blocks_.begin()) return false;
  --it;
  const std::vector<uint8_t>& chunk = chunks_[it->chunk];
  const uint8_t* p = chunk.data() + it->offset;
  const uint8_t* end = chunk.data() + chunk.size();
  const size_t n = it + 1 == blocks_.end() ? in_block_ : kPerBlock;
  uint64_t at = it->first_event;
  Fact fact{};
  for (size_t k = 0; k < n; k++) {
    uint64_t v = 0;
    if (read_uvarint(p, end, v) != VarintStatus::Ok) throw std::logic_error("kept events: bad record");
    at += v;
    for (size_t f = 0; f < N; f++) {
      if (read_uvarint(p, end, v) != VarintStatus::Ok) throw std::logic_error("kept events: bad record");
      fact[f] += static_cast<uint64_t>(unzigzag(v));
    }
    if (at == event) {
      out = fact;
      return true;
    }
    if (at > event) return false;
  }
  return false;
}

template <size_t N>
size_t FactStream<N>::bytes() const {
  size_t n = blocks_.capacity() * sizeof(Block) + chunks_.capacity() * sizeof(std::vector<uint8_t>);
  for (const auto& c : chunks_) n += c.capacity();
  return n;
}

template class FactStream<1>;
template class FactStream<4>;

void KeptEvents::keep_stack(uint64_t event) {
  if (StackID s = store_->stack(event); s != 0) stacks_.add(event, {s});
}

void KeptEvents::keep_log(uint64_t event) {
  EventView ev(*store_, event);
  const Log l = ev.log();
  logs_.add(event, {static_cast<uint64_t>(ev.time()), static_cast<uint64_t>(ev.goroutine()), l.category_id, l.message_id});
}

StackID KeptEvents::stack(uint64_t event) const {
  FactStream<1>::Fact f;
  return stacks_.find(event, f) ? static_cast<StackID>(f[0]) : 0;
}

LogFields KeptEvents::log(uint64_t event) const {
  FactStream<4>::Fact f;
  if (!logs_.find(event, f)) throw std::logic_error("a task's log that was not kept");
  return {static_cast<Time>(f[0]), static_cast<GoID>(f[1]), store_->strings.get(static_cast<StringID>(f[2])),
          store_->strings.get(static_cast<StringID>(f[3]))};
}

}  // namespace gotrace::analysis::detail
