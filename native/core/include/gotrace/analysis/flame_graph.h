// A profile as a flame graph (a call tree from the root down, frames merged by function)
// and as a table of top functions, for the profile views. Frames read as in the folded
// form (location_label).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gotrace/analysis/pprof_profile.h"

namespace gotrace::analysis {

// Nodes in depth-first order, each node's children by name: node 0 is the root (every
// sample, name ""); a node's subtree is the nodes after it with a greater depth. Struct
// of arrays, so each column can cross to JavaScript as a typed array.
struct FlameGraph {
  std::vector<std::string> names;  // distinct function names; names[0] is ""
  std::vector<uint32_t> name;      // per node: index into names
  std::vector<int32_t> parent;     // -1 for the root
  std::vector<uint32_t> depth;     // 0 for the root
  std::vector<int64_t> self_ns, total_ns;           // delay
  std::vector<uint64_t> self_count, total_count;    // contentions

  size_t size() const { return name.size(); }
};

FlameGraph flame_graph(const PprofProfile& profile);

struct TopFunction {
  std::string name;
  int64_t flat_ns = 0, cum_ns = 0;  // as the leaf / anywhere on the stack (once per sample)
  uint64_t flat_count = 0, cum_count = 0;
};

// Every function, most flat time first (then most cumulative time, then by name).
std::vector<TopFunction> top_functions(const PprofProfile& profile);

}  // namespace gotrace::analysis
