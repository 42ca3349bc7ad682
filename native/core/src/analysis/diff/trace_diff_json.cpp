#include <algorithm>
#include <cstdlib>
#include <set>

#include "gotrace/analysis/summary_json.h"  // duration distributions
#include "gotrace/analysis/trace_diff_json.h"
#include "gotrace/analysis/own_frame.h"
#include "gotrace/analysis/stack_names.h"
#include "gotrace/analysis/histogram.h"

namespace gotrace::analysis {

namespace {

template <class M>
std::set<std::string> keys_of(const M& a, const M& b) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a) keys.insert(k);
  for (const auto& [k, v] : b) keys.insert(k);
  return keys;
}

template <class M>
const typename M::mapped_type& find_or(const M& m, const std::string& k, const typename M::mapped_type& none) {
  auto it = m.find(k);
  return it == m.end() ? none : it->second;
}

void group_side(JsonWriter& w, const GroupFigures& g) {
  w.begin_object();
  w.field("count", g.count);
  for (const auto& [k, v] : g.ns) w.field(k, v);
  w.end_object();
}

void groups_json(JsonWriter& w, const TraceFigures& a, const TraceFigures& b) {
  struct Row {
    std::string name;
    const GroupFigures* before;
    const GroupFigures* after;
    int64_t total_delta;
  };
  static const GroupFigures none;
  std::vector<Row> rows;
  for (const std::string& name : keys_of(a.groups, b.groups)) {
    const GroupFigures& x = find_or(a.groups, name, none);
    const GroupFigures& y = find_or(b.groups, name, none);
    rows.push_back({name, &x, &y, find_or(y.ns, "total", 0) - find_or(x.ns, "total", 0)});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& p, const Row& q) { return std::llabs(p.total_delta) > std::llabs(q.total_delta); });
  w.begin_array();
  for (const Row& r : rows) {
    w.begin_object();
    w.field("name", std::string_view(r.name));
    w.key("before");
    group_side(w, *r.before);
    w.key("after");
    group_side(w, *r.after);
    const std::set<std::string> stats = keys_of(r.before->ns, r.after->ns);
    w.key("delta").begin_object();
    w.field("count", static_cast<int64_t>(r.after->count) - static_cast<int64_t>(r.before->count));
    for (const std::string& k : stats) w.field(k, find_or(r.after->ns, k, 0) - find_or(r.before->ns, k, 0));
    w.end_object();
    w.key("relative").begin_object();
    w.key("count");
    if (r.before->count) {
      w.value(static_cast<double>(r.after->count) / static_cast<double>(r.before->count) - 1);
    } else {
      w.null();
    }
    for (const std::string& k : stats) {
      const int64_t x = find_or(r.before->ns, k, 0), y = find_or(r.after->ns, k, 0);
      w.key(k);
      if (x) w.value(static_cast<double>(y - x) / static_cast<double>(x)); else w.null();
    }
    w.end_object();
    w.end_object();
  }
  w.end_array();
}

// Each type's durations before and after; of tasks (`not_ended`), also how many begun
// on each side do not end, having no duration.
void types_json(JsonWriter& w, const std::map<std::string, std::vector<int64_t>>& a,
                const std::map<std::string, std::vector<int64_t>>& b,
                const std::map<std::string, uint64_t>* not_ended_a = nullptr,
                const std::map<std::string, uint64_t>* not_ended_b = nullptr) {
  static const std::vector<int64_t> none;
  w.begin_array();
  for (const std::string& name : keys_of(a, b)) {
    const DurationDistribution x = duration_distribution(find_or(a, name, none));
    const DurationDistribution y = duration_distribution(find_or(b, name, none));
    w.begin_object();
    w.field("name", std::string_view(name));
    if (not_ended_a && not_ended_b) {
      w.key("not_ended").begin_object();
      w.field("before", static_cast<int64_t>(find_or(*not_ended_a, name, uint64_t{0})));
      w.field("after", static_cast<int64_t>(find_or(*not_ended_b, name, uint64_t{0})));
      w.end_object();
    }
    w.key("before");
    duration_distribution_json(w, x);
    w.key("after");
    duration_distribution_json(w, y);
    const DurationQuantiles &p = x.quantiles, &q = y.quantiles;
    w.key("delta").begin_object();
    w.field("count", static_cast<int64_t>(q.count) - static_cast<int64_t>(p.count));
    w.field("p50", q.p50 - p.p50);
    w.field("p90", q.p90 - p.p90);
    w.field("p99", q.p99 - p.p99);
    w.field("max", q.max - p.max);
    w.field("total", q.total - p.total);
    w.end_object();
    w.end_object();
  }
  w.end_array();
}

void gc_side(JsonWriter& w, const GcFigures& g) {
  w.begin_object();
  w.field("cycles", g.cycles);
  w.field("stw_count", g.stw_count);
  w.field("stw_ns", g.stw_ns);
  w.key("mmu").begin_array();
  for (const auto& [window, mmu] : g.mmu) {
    w.begin_array();
    w.value(window);
    w.value(mmu);
    w.end_array();
  }
  w.end_array();
  w.end_object();
}

void value_json(JsonWriter& w, int64_t count, int64_t ns) {
  w.begin_object();
  w.field("count", count);
  w.field("ns", ns);
  w.end_object();
}

void profile_json(JsonWriter& w, const FoldedProfile& a, const FoldedProfile& b, size_t top) {
  w.begin_object();
  w.key("before");
  value_json(w, a.total.count, a.total.ns);
  w.key("after");
  value_json(w, b.total.count, b.total.ns);
  w.key("delta");
  value_json(w, b.total.count - a.total.count, b.total.ns - a.total.ns);
  struct Row {
    const std::string* stack;
    FoldedProfile::Value before, after;
    int64_t weight() const { return after.ns - before.ns != 0 ? after.ns - before.ns : after.count - before.count; }
  };
  std::vector<Row> rows;
  for (const std::string& stack : keys_of(a.stacks, b.stacks)) {
    auto x = a.stacks.find(stack);
    auto y = b.stacks.find(stack);
    const std::string* key = x != a.stacks.end() ? &x->first : &y->first;
    rows.push_back({key, x != a.stacks.end() ? x->second : FoldedProfile::Value{},
                    y != b.stacks.end() ? y->second : FoldedProfile::Value{}});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& p, const Row& q) { return std::llabs(p.weight()) > std::llabs(q.weight()); });
  // Each listed stack named apart from the others listed (stack_names).
  std::vector<std::string> listed;
  for (size_t k = 0; k < rows.size() && k < top; k++) listed.push_back(*rows[k].stack);
  const std::vector<std::string> names = stack_names(listed);
  w.key("stacks").begin_array();
  for (size_t k = 0; k < listed.size(); k++) {
    const Row& r = rows[k];
    w.begin_object();
    w.field("stack", std::string_view(*r.stack));
    w.field("function", own_frame_of_folded(*r.stack));
    w.field("name", std::string_view(names[k]));
    w.key("before");
    value_json(w, r.before.count, r.before.ns);
    w.key("after");
    value_json(w, r.after.count, r.after.ns);
    w.key("delta");
    value_json(w, r.after.count - r.before.count, r.after.ns - r.before.ns);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

void trace_diff_json(JsonWriter& w, const TraceFigures& before, const TraceFigures& after, size_t top) {
  w.begin_object();
  for (const auto* side : {&before, &after}) {
    w.key(side == &before ? "before" : "after").begin_object();
    w.field("from", static_cast<int64_t>(side->from));
    w.field("to", static_cast<int64_t>(side->to));
    w.end_object();
  }
  w.key("groups");
  groups_json(w, before, after);
  w.key("tasks");
  types_json(w, before.tasks, after.tasks, &before.tasks_not_ended, &after.tasks_not_ended);
  w.key("regions");
  types_json(w, before.regions, after.regions);
  w.key("gc").begin_object();
  w.key("before");
  gc_side(w, before.gc);
  w.key("after");
  gc_side(w, after.gc);
  w.key("delta").begin_object();
  w.field("cycles", static_cast<int64_t>(after.gc.cycles) - static_cast<int64_t>(before.gc.cycles));
  w.field("stw_count", static_cast<int64_t>(after.gc.stw_count) - static_cast<int64_t>(before.gc.stw_count));
  w.field("stw_ns", after.gc.stw_ns - before.gc.stw_ns);
  w.end_object();
  w.end_object();
  w.key("profiles").begin_object();
  static const FoldedProfile none;
  for (const std::string& type : keys_of(before.profiles, after.profiles)) {
    w.key(type);
    profile_json(w, find_or(before.profiles, type, none), find_or(after.profiles, type, none), top);
  }
  w.end_object();
  w.end_object();
}

}  // namespace gotrace::analysis
