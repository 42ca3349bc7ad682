// The ranges table: GC mark phases, stop-the-worlds, sweeps and mark assists, each from
// its begin (or the RangeActive that says it was under way when the generation began)
// to its end. A range the trace ends in has no end.
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
#include <tuple>

#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

SqlTable ranges_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("ranges"), src.trace_id);
  b.set_origin(time_origin(s));
  const size_t c_name = b.column("name"), c_scope = b.column("scope"), c_resource_id = b.column("resource_id"),
               c_start = b.column("start"), c_end = b.column("end"), c_duration = b.column("duration"),
               c_goroutine = b.column("goroutine"), c_start_event = b.column("start_event"),
               c_end_event = b.column("end_event"), c_swept = b.column("bytes_swept"),
               c_reclaimed = b.column("bytes_reclaimed");
  // Ranges by name (numbered: compared as numbers), scope and resource.
  std::unordered_map<std::string, int32_t> name_ids;
  std::vector<std::string> names;
  using Key = std::tuple<int32_t, ResourceKind, int64_t>;
  std::map<Key, size_t> open;  // range -> the event that began it
  auto row = [&](const Key& key, size_t begin, const EventView* end) {
    const EventView e(s, begin);
    const auto& [name_id, scope, id] = key;
    b.text(c_name, names[static_cast<size_t>(name_id)]);
    b.text(c_scope, scope == ResourceKind::None ? std::string_view("Global") : to_string(scope));
    if (scope != ResourceKind::None) b.big(c_resource_id, id);
    b.time(c_start, e.time());
    if (e.goroutine() >= 0) b.big(c_goroutine, e.goroutine());
    b.big(c_start_event, static_cast<int64_t>(begin));
    if (end) {
      b.time(c_end, end->time());
      b.big(c_duration, wrap_sub(end->time(), e.time()));
      b.big(c_end_event, static_cast<int64_t>(end->index()));
      for (const RangeAttribute& a : end->range_attributes()) {
        if (a.name == "bytes swept") b.big(c_swept, static_cast<int64_t>(a.value));
        if (a.name == "bytes reclaimed") b.big(c_reclaimed, static_cast<int64_t>(a.value));
      }
    }
    b.end_row();
  };
  s.for_each_chunk(0, s.size(), [&](const EventStore::ChunkColumns& col, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
      const EventKind kind = kind_of_type(col.type(i));
      if (kind != EventKind::RangeBegin && kind != EventKind::RangeActive && kind != EventKind::RangeEnd) continue;
      const EventView e(s, i);
      Range r = e.range();
      auto [it, added] = name_ids.try_emplace(std::move(r.name), static_cast<int32_t>(names.size()));
      if (added) names.push_back(it->first);
      Key key{it->second, r.scope.kind, r.scope.id};
      if (kind == EventKind::RangeEnd) {
        if (auto it = open.find(key); it != open.end()) {
          row(key, it->second, &e);
          open.erase(it);
        }
      } else {
        open.emplace(std::move(key), i);  // an Active of one under way changes nothing
      }
    }
  });
  // Those the trace ends in, by name, scope and resource.
  std::vector<std::pair<Key, size_t>> unended(open.begin(), open.end());
  std::sort(unended.begin(), unended.end(), [&](const auto& a, const auto& b) {
    const auto& [an, ak, aid] = a.first;
    const auto& [bn, bk, bid] = b.first;
    return std::tie(names[static_cast<size_t>(an)], ak, aid) < std::tie(names[static_cast<size_t>(bn)], bk, bid);
  });
  for (const auto& [key, begin] : unended) row(key, begin, nullptr);
  return b.take();
}

}  // namespace gotrace::analysis::detail
