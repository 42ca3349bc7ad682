#include "gotrace/analysis/flame_graph.h"

#include <algorithm>
#include <map>

#include "gotrace/go_int.h"

namespace gotrace::analysis {
namespace {

// Location id -> index of its label in `names`, labels interned.
struct Labels {
  std::vector<std::string> names{""};
  std::vector<uint32_t> of_location;

  explicit Labels(const PprofProfile& p) {
    std::map<std::string, uint32_t, std::less<>> ids{{"", 0}};
    for (const PprofLocation& loc : p.locations) {
      std::string label = location_label(p, loc);
      auto it = ids.find(label);
      if (it == ids.end()) {
        it = ids.emplace(label, static_cast<uint32_t>(names.size())).first;
        names.push_back(label);
      }
      of_location.push_back(it->second);
    }
  }
  uint32_t of(uint64_t location_id) const { return of_location[location_id - 1]; }
};

}  // namespace

FlameGraph flame_graph(const PprofProfile& p) {
  Labels labels(p);
  // Build the tree with children in insertion order, then lay it out depth first.
  struct Node {
    uint32_t name = 0;
    int64_t self_ns = 0;
    uint64_t self_count = 0;
    std::vector<uint32_t> children;
  };
  std::vector<Node> nodes(1);
  FlatMap<uint32_t> child;  // (parent << 32 | name) -> node
  for (const PprofSample& s : p.samples) {
    uint32_t at = 0;
    for (auto it = s.location_ids.rbegin(); it != s.location_ids.rend(); ++it) {
      uint32_t name = labels.of(*it);
      auto [slot, inserted] = child.try_emplace(uint64_t{at} << 32 | name);
      if (inserted) {
        *slot = static_cast<uint32_t>(nodes.size());
        nodes[at].children.push_back(*slot);
        nodes.push_back({name, 0, 0, {}});
      }
      at = *slot;
    }
    nodes[at].self_ns = wrap_add(nodes[at].self_ns, s.nanoseconds);
    nodes[at].self_count += static_cast<uint64_t>(s.count);
  }

  FlameGraph g;
  g.names = labels.names;
  struct Frame {
    uint32_t node;
    int32_t parent;
    uint32_t depth;
  };
  std::vector<Frame> todo = {{0, -1, 0}};
  while (!todo.empty()) {
    Frame f = todo.back();
    todo.pop_back();
    Node& n = nodes[f.node];
    g.name.push_back(n.name);
    g.parent.push_back(f.parent);
    g.depth.push_back(f.depth);
    g.self_ns.push_back(n.self_ns);
    g.self_count.push_back(n.self_count);
    g.total_ns.push_back(n.self_ns);
    g.total_count.push_back(n.self_count);
    const auto me = static_cast<int32_t>(g.name.size() - 1);
    // Pushed in reverse so that they come out by name.
    std::sort(n.children.begin(), n.children.end(),
              [&](uint32_t a, uint32_t b) { return g.names[nodes[a].name] > g.names[nodes[b].name]; });
    for (uint32_t c : n.children) todo.push_back({c, me, f.depth + 1});
  }
  // Totals: children come after their parents, so one backward sweep adds them up.
  for (size_t i = g.size(); i-- > 1;) {
    int64_t& parent_ns = g.total_ns[static_cast<size_t>(g.parent[i])];
    parent_ns = wrap_add(parent_ns, g.total_ns[i]);
    g.total_count[static_cast<size_t>(g.parent[i])] += g.total_count[i];
  }
  return g;
}

std::vector<TopFunction> top_functions(const PprofProfile& p) {
  Labels labels(p);
  std::vector<TopFunction> top(labels.names.size());
  for (size_t i = 0; i < top.size(); i++) top[i].name = labels.names[i];
  std::vector<uint32_t> seen(labels.names.size(), ~uint32_t{0});  // sample that last counted it
  for (uint32_t k = 0; k < p.samples.size(); k++) {
    const PprofSample& s = p.samples[k];
    const auto ns = s.nanoseconds;
    const auto count = static_cast<uint64_t>(s.count);
    for (size_t i = 0; i < s.location_ids.size(); i++) {
      uint32_t name = labels.of(s.location_ids[i]);
      if (i == 0) {
        top[name].flat_ns = wrap_add(top[name].flat_ns, ns);
        top[name].flat_count += count;
      }
      if (seen[name] == k) continue;  // recursion: count a function once per sample
      seen[name] = k;
      top[name].cum_ns = wrap_add(top[name].cum_ns, ns);
      top[name].cum_count += count;
    }
  }
  top.erase(std::remove_if(top.begin(), top.end(), [](const TopFunction& f) { return f.cum_count == 0; }), top.end());
  std::sort(top.begin(), top.end(), [](const TopFunction& a, const TopFunction& b) {
    if (a.flat_ns != b.flat_ns) return a.flat_ns > b.flat_ns;
    if (a.cum_ns != b.cum_ns) return a.cum_ns > b.cum_ns;
    return a.name < b.name;
  });
  return top;
}

}  // namespace gotrace::analysis
