#include "string_table.h"

#include "batch_list.h"
#include "clock.h"
#include "gotrace/v2_spec.h"
#include "runtime.h"

namespace gotrace::tracer::detail {

uint64_t StringTable::put(uint64_t gen, std::string_view s, const std::string** stored) {
  s = clip_string(s);
  std::lock_guard lock(mu_);
  auto it = ids_.find(s);
  if (it == ids_.end()) {
    it = ids_.emplace(std::string(s), next_id_++).first;
    write(gen, it->second, s);
  }
  if (stored) *stored = &it->first;
  return it->second;
}

uint64_t StringTable::emit(uint64_t gen, std::string_view s) {
  s = clip_string(s);
  std::lock_guard lock(mu_);
  uint64_t id = next_id_++;
  write(gen, id, s);
  return id;
}

void StringTable::write(uint64_t gen, uint64_t id, std::string_view s) {
  const size_t need = 1 + 2 * kMaxVarint + s.size();
  if (!batch_ || !batch_->has_room(need)) {
    if (batch_) out_->push(batch_);
    batch_ = new_table_batch(gen, v2::EvStrings);
    if (!batch_) return;  // the generation is lost; the id is still unique
  }
  batch_->put_byte(v2::EvString);
  batch_->put_varint(id);
  batch_->put_varint(s.size());
  batch_->put_bytes(s);
}

void StringTable::finish(BatchList& out) {
  std::lock_guard lock(mu_);
  if (batch_) out.push(batch_);
  batch_ = nullptr;
  ids_.clear();
  next_id_ = 1;
}

}  // namespace gotrace::tracer::detail
