#include "range_names.h"

#include "gotrace/v2_spec.h"

namespace gotrace::analysis::detail {
using namespace v2;

uint32_t RangeNames::intern(const std::string& name) {
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(name);
  Class c = kOther;
  if (name.rfind("stop-the-world", 0) == 0 && name.find("GC") != std::string::npos) c = kGCSTW;
  if (name == "GC mark assist") c = kMarkAssist;
  if (name == "GC incremental sweep") c = kSweep;
  class_.push_back(c);
  by_name_.emplace(name, id);
  return id;
}

RangeRef RangeNames::get(const EventStore& s, size_t i) {
  const Context& ctx = s.context(i);
  auto cached = [&](uint32_t& slot, const char* name) {
    if (slot == kUnset) slot = intern(name);
    return slot;
  };
  switch (s.type(i)) {
    case EvSTWBegin:
    case EvSTWEnd: {
      auto [slot, inserted] = stw_by_kind_.try_emplace(s.a(i));
      if (inserted) *slot = intern("stop-the-world (" + std::string(s.strings.get(s.a(i))) + ")");
      return {*slot, {ResourceKind::Goroutine, ctx.g}};
    }
    case EvGCBegin:
    case EvGCActive:
    case EvGCEnd:
      return {cached(gc_, "GC concurrent mark phase"), {ResourceKind::None, 0}};
    case EvGCSweepBegin:
    case EvGCSweepActive:
    case EvGCSweepEnd:
      return sweep_or_assist(true, ctx);
    case EvGCMarkAssistBegin:
    case EvGCMarkAssistEnd:
      return sweep_or_assist(false, ctx);
    case EvGCMarkAssistActive:
      return {assist_name(), {ResourceKind::Goroutine, static_cast<GoID>(s.ab(i))}};
  }
  // Any other range event: ask the event model (slower, but correct for every type).
  Range r = EventView(s, i).range();
  return {intern(r.name), r.scope};
}

}  // namespace gotrace::analysis::detail
