#include "labels.h"

#include "string_table.h"

namespace gotrace::tracer::detail {

uint64_t LabelRegistry::pc(std::string_view name, const std::string** stored) {
  name = clip_string(name);
  std::lock_guard lock(mu_);
  auto it = pcs_.find(name);
  if (it == pcs_.end()) {
    uint64_t pc = kBase + names_.size();
    names_.emplace_back(name);
    it = pcs_.emplace(std::string(name), pc).first;
  }
  if (stored) *stored = &names_[it->second - kBase];
  return it->second;
}

std::string LabelRegistry::name(uint64_t pc) {
  std::lock_guard lock(mu_);
  uint64_t i = pc - kBase;
  return i < names_.size() ? names_[i] : std::string();
}

}  // namespace gotrace::tracer::detail
