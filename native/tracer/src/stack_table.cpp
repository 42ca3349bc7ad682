#include "stack_table.h"

namespace gotrace::tracer::detail {

uint64_t StackTable::put(std::span<const uint64_t> pcs, uint64_t hash) {
  std::lock_guard lock(mu_);
  auto it = ids_.find(View{pcs, hash});
  if (it != ids_.end()) return it->second;
  uint64_t id = next_id_++;
  ids_.emplace(Key{std::vector<uint64_t>(pcs.begin(), pcs.end()), hash}, id);
  return id;
}

std::vector<std::pair<uint64_t, std::vector<uint64_t>>> StackTable::take() {
  std::lock_guard lock(mu_);
  std::vector<std::pair<uint64_t, std::vector<uint64_t>>> out;
  out.reserve(ids_.size());
  for (const auto& [key, id] : ids_) out.emplace_back(id, key.pcs);
  ids_.clear();
  next_id_ = 1;
  return out;
}

}  // namespace gotrace::tracer::detail
