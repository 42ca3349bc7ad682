// The ranges table: GC mark phases, stop-the-worlds, sweeps and mark assists, each from
// its begin (or the RangeActive that says it was under way when the generation began)
// to its end. A range the trace ends in has no end. A trace has about a million (the
// sweeps): they are paired up first, then written column by column.
#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/sql/range_name_ids.h"
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_columns.h"
#include "analysis/sql/sql_table_builders.h"
#include "gotrace/event_view.h"

namespace gotrace::analysis::detail {

namespace {

// A range by name (numbered), scope and resource.
struct RangeKey {
  int32_t name;
  ResourceKind scope;
  int64_t id;
  bool operator==(const RangeKey&) const = default;
};

struct RangeKeyHash {
  size_t operator()(const RangeKey& k) const {
    return std::hash<uint64_t>()(static_cast<uint64_t>(k.id) * 0x9e3779b97f4a7c15u ^
                                 (uint64_t{static_cast<uint32_t>(k.name)} << 8 | static_cast<uint8_t>(k.scope)));
  }
};

constexpr size_t kNoEnd = static_cast<size_t>(-1);

struct PairedRange {
  RangeKey key;
  size_t begin;
  size_t end;  // kNoEnd: the trace ends in it
};

}  // namespace

SqlTable ranges_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  RangeNameIds names(s);

  // Each range as its end closes it, in the order of the ends.
  std::vector<PairedRange> ranges;
  std::unordered_map<RangeKey, size_t, RangeKeyHash> open;  // range -> the event that began it
  for (size_t i : kind_events(src).ranges) {
    const EventView e(s, i);
    const ResourceID scope = e.range_scope();
    const RangeKey key{names.id(i), scope.kind, scope.id};
    if (e.kind() == EventKind::RangeEnd) {
      if (auto it = open.find(key); it != open.end()) {
        ranges.push_back({key, it->second, i});
        open.erase(it);
      }
    } else {
      open.emplace(key, i);  // an Active of one under way changes nothing
    }
  }
  // Then those the trace ends in, by name, scope and resource.
  const size_t ended = ranges.size();
  for (const auto& [key, begin] : open) ranges.push_back({key, begin, kNoEnd});
  std::sort(ranges.begin() + static_cast<ptrdiff_t>(ended), ranges.end(), [&](const PairedRange& x, const PairedRange& y) {
    return std::tie(names.name(x.key.name), x.key.scope, x.key.id) <
           std::tie(names.name(y.key.name), y.key.scope, y.key.id);
  });

  const size_t n = ranges.size();
  SqlTable t = sized_table("ranges", src.trace_id, n);
  auto col = [&](std::string_view name) -> SqlColumn& { return column_of(t, name); };
  TextColumn name(col("name"), n), scope(col("scope"), n);
  IntColumn resource_id(col("resource_id"), n, true), start(col("start"), n, false), end(col("end"), n, true),
      duration(col("duration"), n, true), goroutine(col("goroutine"), n, true),
      start_event(col("start_event"), n, false), end_event(col("end_event"), n, true),
      swept(col("bytes_swept"), n, true), reclaimed(col("bytes_reclaimed"), n, true);
  std::vector<int32_t> name_code(names.size(), -1);
  const Time origin = time_origin(s);
  for (size_t row = 0; row < n; row++) {
    const PairedRange& r = ranges[row];
    const EventView b(s, r.begin);
    int32_t& code = name_code[static_cast<size_t>(r.key.name)];
    if (code < 0) code = name.text(names.name(r.key.name));
    name.set(row, code);
    scope.set(row, scope.stable(r.key.scope == ResourceKind::None ? std::string_view("Global") : to_string(r.key.scope)));
    if (r.key.scope != ResourceKind::None) resource_id.set(row, r.key.id);
    start.set(row, wrap_sub(b.time(), origin));
    goroutine.id(row, b.goroutine());
    start_event.set(row, static_cast<int64_t>(r.begin));
    if (r.end == kNoEnd) continue;
    const EventView e(s, r.end);
    end.set(row, wrap_sub(e.time(), origin));
    duration.set(row, wrap_sub(e.time(), b.time()));
    end_event.set(row, static_cast<int64_t>(r.end));
    for (const RangeAttribute& a : e.range_attributes()) {
      if (a.name == "bytes swept") swept.set(row, static_cast<int64_t>(a.value));
      if (a.name == "bytes reclaimed") reclaimed.set(row, static_cast<int64_t>(a.value));
    }
  }
  drop_empty_null_masks(t);
  return t;
}

}  // namespace gotrace::analysis::detail
