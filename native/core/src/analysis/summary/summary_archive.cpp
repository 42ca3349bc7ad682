// The records are varints, signed values zigzagged. Each block of records has a base
// time (its first record's): a goroutine's creation and a task's start are differences
// from it, a goroutine's other times differences from its creation, a region's or task's
// end from its start; a time of 0 ("absent") and kNoEvent are kept apart from every
// other value. A region's goroutine is a difference from its goroutine's id, an end
// event from the start event, a task's logs from the one before.
#include "gotrace/analysis/summary_archive.h"

#include <algorithm>
#include <stdexcept>

#include "varint.h"

namespace gotrace::analysis {
namespace {

constexpr size_t kBlockBytes = size_t{4} << 20, kFirstBlockBytes = size_t{64} << 10;

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) { out_.clear(); }
  void u(uint64_t v) { write_uvarint(out_, v); }
  void s(int64_t v) { u(zigzag(v)); }
  // A time: 0 (absent) apart from every other, which is kept as its difference from base.
  void time(Time t, Time base) { u(t == 0 ? 0 : zigzag(static_cast<int64_t>(static_cast<uint64_t>(t) - static_cast<uint64_t>(base))) + 1); }
  void event(uint64_t i) { u(i == kNoEvent ? 0 : i + 1); }
  // An event index as its difference from `from` (kNoEvent apart).
  void event_after(uint64_t i, uint64_t from) { u(i == kNoEvent ? 0 : zigzag(static_cast<int64_t>(i - from)) + 1); }
  void stats(const ExecStats& st) {
    s(st.exec);
    s(st.sched_wait);
    s(st.syscall);
    s(st.syscall_block);
    s(st.total);
    entries(st.block);
    entries(st.ranges);
  }

 private:
  void entries(std::span<const StatEntry> list) {
    u(list.size());
    for (const StatEntry& e : list) {
      u(e.name);
      s(e.ns);
    }
  }
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(const uint8_t* p) : p_(p) {}
  uint64_t u() {
    uint64_t v = 0;
    const uint8_t* end = p_ + 10;
    if (read_uvarint(p_, end, v) != VarintStatus::Ok) throw std::logic_error("summary archive: bad record");
    return v;
  }
  int64_t s() { return unzigzag(u()); }
  Time time(Time base) {
    const uint64_t v = u();
    return v == 0 ? 0 : static_cast<Time>(static_cast<uint64_t>(base) + static_cast<uint64_t>(unzigzag(v - 1)));
  }
  uint64_t event() {
    const uint64_t v = u();
    return v == 0 ? kNoEvent : v - 1;
  }
  uint64_t event_after(uint64_t from) {
    const uint64_t v = u();
    return v == 0 ? kNoEvent : from + static_cast<uint64_t>(unzigzag(v - 1));
  }
  void stats(ExecStats& st) {
    st.exec = s();
    st.sched_wait = s();
    st.syscall = s();
    st.syscall_block = s();
    st.total = s();
    entries(st.block);
    entries(st.ranges);
  }

 private:
  template <class List>
  void entries(List& list) {
    list.clear();
    for (uint64_t n = u(); n > 0; n--) {
      const auto name = static_cast<uint32_t>(u());
      list.push_back({name, s()});
    }
  }
  const uint8_t* p_;
};

}  // namespace

uint32_t SummaryArchive::name_index(std::string_view name, uint64_t pc) {
  auto [it, added] = name_ids_.try_emplace(NameKey{name.data(), name.size(), pc}, static_cast<uint32_t>(names_.size()));
  if (added) names_.push_back({name, pc});
  return it->second;
}

template <class Encode>
uint64_t SummaryArchive::put(Time key, Encode encode) {
  auto begin_block = [&] {
    // Blocks grow with the archive, from 64 KiB, so that a small one reserves little.
    const size_t bytes = blocks_.empty() ? kFirstBlockBytes : std::min(kBlockBytes, 2 * blocks_.back().bytes.capacity());
    blocks_.push_back({{}, key});
    blocks_.back().bytes.reserve(bytes);
  };
  if (blocks_.empty()) begin_block();
  encode(blocks_.back().base);
  if (blocks_.back().bytes.size() + scratch_.size() > blocks_.back().bytes.capacity()) {
    begin_block();
    encode(key);
    if (scratch_.size() > kBlockBytes) blocks_.back().bytes.reserve(scratch_.size());
  }
  std::vector<uint8_t>& b = blocks_.back().bytes;
  const uint64_t where = (static_cast<uint64_t>(blocks_.size() - 1) << 32) | b.size();
  b.insert(b.end(), scratch_.begin(), scratch_.end());
  return where;
}

const uint8_t* SummaryArchive::at(uint64_t where) const {
  return blocks_[where >> 32].bytes.data() + (where & 0xffffffffu);
}
Time SummaryArchive::base_of(uint64_t where) const { return blocks_[where >> 32].base; }

uint64_t SummaryArchive::put_goroutine(const GoroutineSummary& g, std::span<const RegionSummary> regions) {
  const uint32_t name = name_index(g.name, g.pc);
  region_names_.clear();
  for (uint32_t k : g.regions) region_names_.push_back(name_index(regions[k].name, 0));
  return put(g.creation_time, [&](Time block_base) {
    Writer w(scratch_);
    w.s(g.id);
    w.u(name);
    w.time(g.creation_time, block_base);
    const Time base = g.creation_time;
    w.time(g.start_time, base);
    w.time(g.end_time, base);
    w.stats(g.stats);
    w.u(g.regions.size());
    for (size_t j = 0; j < g.regions.size(); j++) {
      const RegionSummary& r = regions[g.regions[j]];
      w.s(static_cast<int64_t>(r.task));
      w.u(region_names_[j]);
      w.s(r.goroutine - g.id);
      w.event(r.start_event);
      w.event_after(r.end_event, r.start_event == kNoEvent ? 0 : r.start_event);
      w.time(r.start, base);
      w.time(r.end, r.start != 0 ? r.start : base);
      w.stats(r.stats);
    }
  });
}

void SummaryArchive::goroutine(uint64_t where, GoroutineSummary& g, std::vector<RegionSummary>& regions) const {
  Reader r(at(where));
  g.id = r.s();
  const Name& name = names_[r.u()];
  g.name = name.text;
  g.pc = name.pc;
  g.creation_time = r.time(base_of(where));
  const Time base = g.creation_time;
  g.start_time = r.time(base);
  g.end_time = r.time(base);
  r.stats(g.stats);
  const auto n = static_cast<uint32_t>(r.u());
  regions.resize(n);
  g.regions.clear();
  for (uint32_t k = 0; k < n; k++) {
    RegionSummary& reg = regions[k];
    reg.task = static_cast<TaskID>(r.s());
    reg.name = names_[r.u()].text;
    reg.goroutine = g.id + r.s();
    reg.start_event = r.event();
    reg.end_event = r.event_after(reg.start_event == kNoEvent ? 0 : reg.start_event);
    reg.start = r.time(base);
    reg.end = r.time(reg.start != 0 ? reg.start : base);
    r.stats(reg.stats);
    g.regions.push_back(k);
  }
}

uint64_t SummaryArchive::put_task(const TaskSummary& t) {
  const uint32_t name = name_index(t.name, 0);
  return put(t.start, [&](Time block_base) {
    Writer w(scratch_);
    w.s(static_cast<int64_t>(t.id));
    w.u(name);
    w.s(static_cast<int64_t>(t.parent));
    w.u(t.children.size());
    for (TaskID c : t.children) w.s(static_cast<int64_t>(c));
    w.event(t.start_event);
    const uint64_t from = t.start_event == kNoEvent ? 0 : t.start_event;
    w.event_after(t.end_event, from);
    w.time(t.start, block_base);
    w.time(t.end, t.start != 0 ? t.start : block_base);
    // Logs as differences from the one before (they come in order), the first from the
    // start; regions as their number (see the header).
    w.u(t.logs.size());
    uint64_t prev = from;
    for (uint64_t i : t.logs) {
      w.s(static_cast<int64_t>(i - prev));
      prev = i;
    }
    w.u(t.regions.size());
    w.u(t.goroutines.size());
    for (GoID g : t.goroutines) w.s(g);
  });
}

void SummaryArchive::task(uint64_t where, TaskSummary& t) const {
  Reader r(at(where));
  t.id = static_cast<TaskID>(r.s());
  t.name = names_[r.u()].text;
  t.parent = static_cast<TaskID>(r.s());
  t.children.clear();
  for (uint64_t n = r.u(); n > 0; n--) t.children.push_back(static_cast<TaskID>(r.s()));
  t.start_event = r.event();
  const uint64_t from = t.start_event == kNoEvent ? 0 : t.start_event;
  t.end_event = r.event_after(from);
  const Time block_base = base_of(where);
  t.start = r.time(block_base);
  t.end = r.time(t.start != 0 ? t.start : block_base);
  t.logs.clear();
  uint64_t prev = from;
  for (uint64_t n = r.u(); n > 0; n--) t.logs.push_back(prev += static_cast<uint64_t>(r.s()));
  t.regions.clear();
  t.regions.resize(r.u());
  t.goroutines.clear();
  for (uint64_t n = r.u(); n > 0; n--) t.goroutines.push_back(r.s());
}

int64_t SummaryArchive::id_at(uint64_t where) const { return Reader(at(where)).s(); }

size_t SummaryArchive::bytes() const {
  size_t n = scratch_.capacity() + region_names_.capacity() * sizeof(uint32_t) + names_.capacity() * sizeof(Name) +
             name_ids_.size() * (sizeof(NameKey) + sizeof(uint32_t) + 2 * sizeof(void*)) + blocks_.capacity() * sizeof(Block);
  for (const Block& b : blocks_) n += b.bytes.capacity();
  return n;
}

namespace {

// The place of `id` in places sorted by the id stored there (as an Id: tasks' are unsigned).
template <class Id>
std::optional<size_t> index_of(const SummaryArchive& archive, const std::vector<uint64_t>& places, Id id) {
  auto id_at = [&](uint64_t at) { return static_cast<Id>(archive.id_at(at)); };
  auto it = std::partition_point(places.begin(), places.end(), [&](uint64_t at) { return id_at(at) < id; });
  if (it == places.end() || id_at(*it) != id) return std::nullopt;
  return static_cast<size_t>(it - places.begin());
}

}  // namespace

std::optional<size_t> ArchivedSummary::goroutine_index(GoID id) const { return index_of(archive, goroutines, id); }
std::optional<size_t> ArchivedSummary::task_index(TaskID id) const {
  return index_of(archive, tasks, id);
}

void ArchivedSummary::goroutine(size_t k, GoroutineSummary& g, std::vector<RegionSummary>& its_regions) const {
  archive.goroutine(goroutines[k], g, its_regions);
  // Go's finalize at the trace's end, which the goroutine missed: a total of 0 becomes
  // the time from its creation to the end.
  if (g.stats.total == 0) g.stats.total = last_time - g.creation_time;
}

void ArchivedSummary::task(size_t k, TaskSummary& t) const {
  archive.task(tasks[k], t);
  if (t.goroutines.size() > 1) {
    std::sort(t.goroutines.begin(), t.goroutines.end());
    t.goroutines.erase(std::unique(t.goroutines.begin(), t.goroutines.end()), t.goroutines.end());
  }
}

}  // namespace gotrace::analysis
