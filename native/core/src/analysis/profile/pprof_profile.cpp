// A port of traceviewer.BuildProfile (internal/trace/traceviewer/pprof.go, Go 1.23).
#include "gotrace/analysis/pprof_profile.h"

#include <algorithm>
#include <map>

namespace gotrace::analysis {

PprofProfile build_pprof_profile(const EventStore& store, const Profile& profile) {
  PprofProfile p;
  FlatMap<uint64_t> loc_by_pc;  // PC -> location id: the first frame seen at a PC names it
  // Go keys functions by file + name, concatenated.
  std::map<std::string, uint64_t, std::less<>> fn_by_key;
  std::string key;
  for (const ProfileRecord& rec : profile.records) {
    PprofSample sample;
    sample.count = static_cast<int64_t>(rec.count);
    sample.nanoseconds = rec.nanoseconds;
    auto frames = store.stacks.frames(rec.stack);
    frames = frames.first(std::min(frames.size(), kPprofMaxStack));
    for (FrameID fid : frames) {
      const Frame& f = store.stacks.frame(fid);
      auto [loc, inserted] = loc_by_pc.try_emplace(f.pc);
      if (inserted) {
        std::string_view name = store.strings.get(f.func), file = store.strings.get(f.file);
        key.assign(file).append(name);
        auto it = fn_by_key.find(key);
        if (it == fn_by_key.end()) {
          uint64_t id = p.functions.size() + 1;
          p.functions.push_back({id, name, file});
          it = fn_by_key.emplace(key, id).first;
        }
        *loc = p.locations.size() + 1;
        p.locations.push_back({*loc, f.pc, it->second, static_cast<int64_t>(f.line)});
      }
      sample.location_ids.push_back(*loc);
    }
    p.samples.push_back(std::move(sample));
  }
  return p;
}

std::string location_label(const PprofProfile& p, const PprofLocation& loc) {
  const PprofFunction& fn = p.function(loc.function_id);
  if (!fn.name.empty()) return std::string(fn.name);
  return std::string(fn.filename) + ":" + std::to_string(loc.line) + ":0";
}

}  // namespace gotrace::analysis
