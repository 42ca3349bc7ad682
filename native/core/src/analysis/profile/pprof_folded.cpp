#include "gotrace/analysis/pprof_folded.h"

#include <map>

namespace gotrace::analysis {

std::string pprof_folded(const PprofProfile& profile) {
  struct Total {
    int64_t count = 0;
    int64_t nanoseconds = 0;
  };
  // Labels by location, computed once: many samples share frames.
  std::vector<std::string> labels;
  labels.reserve(profile.locations.size());
  for (const PprofLocation& loc : profile.locations) labels.push_back(location_label(profile, loc));

  std::map<std::string, Total> by_stack;  // std::string orders bytewise
  std::string stack;
  for (const PprofSample& s : profile.samples) {
    stack.clear();
    for (size_t i = 0; i < s.location_ids.size(); i++) {
      if (i) stack += ';';
      stack += labels[s.location_ids[i] - 1];
    }
    Total& t = by_stack[stack];
    t.count += s.count;
    t.nanoseconds += s.nanoseconds;
  }
  std::string out;
  for (const auto& [st, t] : by_stack) {
    out += std::to_string(t.count);
    out += ' ';
    out += std::to_string(t.nanoseconds);
    out += ' ';
    out += st;
    out += '\n';
  }
  return out;
}

}  // namespace gotrace::analysis
