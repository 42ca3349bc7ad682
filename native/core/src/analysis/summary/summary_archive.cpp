// The records are varints: signed values zigzagged, times as differences from the
// goroutine's creation (a time of 0, "absent", kept apart), event indices (kNoEvent
// kept apart) and the ids of a list as they are.
#include "gotrace/analysis/summary_archive.h"

#include <algorithm>
#include <stdexcept>

#include "varint.h"

namespace gotrace::analysis {
namespace {

constexpr size_t kBlockBytes = size_t{4} << 20;

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) { out_.clear(); }
  void u(uint64_t v) { write_uvarint(out_, v); }
  void s(int64_t v) { u(zigzag(v)); }
  // A time: 0 (absent) apart from every other, which is kept as its difference from base.
  void time(Time t, Time base) { u(t == 0 ? 0 : zigzag(static_cast<int64_t>(static_cast<uint64_t>(t) - static_cast<uint64_t>(base))) + 1); }
  void event(uint64_t i) { u(i == kNoEvent ? 0 : i + 1); }
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

uint64_t SummaryArchive::put(const std::string& record) {
  if (blocks_.empty() || blocks_.back().size() + record.size() > blocks_.back().capacity()) {
    blocks_.emplace_back().reserve(std::max(kBlockBytes, record.size()));
  }
  std::vector<uint8_t>& b = blocks_.back();
  const uint64_t where = (static_cast<uint64_t>(blocks_.size() - 1) << 32) | b.size();
  b.insert(b.end(), record.begin(), record.end());
  return where;
}

const uint8_t* SummaryArchive::at(uint64_t where) const { return blocks_[where >> 32].data() + (where & 0xffffffffu); }

size_t SummaryArchive::bytes() const {
  size_t n = names_.capacity() * sizeof(Name) + name_ids_.size() * (sizeof(NameKey) + 16);
  for (const auto& b : blocks_) n += b.capacity();
  return n;
}

uint64_t SummaryArchive::put_goroutine(const GoroutineSummary& g, std::span<const RegionSummary> regions) {
  Writer w(scratch_);
  w.s(g.id);
  w.u(name_index(g.name, g.pc));
  w.s(g.creation_time);
  const Time base = g.creation_time;
  w.time(g.start_time, base);
  w.time(g.end_time, base);
  w.stats(g.stats);
  w.u(g.regions.size());
  for (uint32_t k : g.regions) {
    const RegionSummary& r = regions[k];
    w.s(static_cast<int64_t>(r.task));
    w.u(name_index(r.name, 0));
    w.s(r.goroutine);
    w.event(r.start_event);
    w.event(r.end_event);
    w.time(r.start, base);
    w.time(r.end, base);
    w.stats(r.stats);
  }
  return put(scratch_);
}

void SummaryArchive::goroutine(uint64_t where, GoroutineSummary& g, std::vector<RegionSummary>& regions) const {
  Reader r(at(where));
  g.id = r.s();
  const Name& name = names_[r.u()];
  g.name = name.text;
  g.pc = name.pc;
  g.creation_time = r.s();
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
    reg.goroutine = r.s();
    reg.start_event = r.event();
    reg.end_event = r.event();
    reg.start = r.time(base);
    reg.end = r.time(base);
    r.stats(reg.stats);
    g.regions.push_back(k);
  }
}

uint64_t SummaryArchive::put_task(const TaskSummary& t) {
  Writer w(scratch_);
  w.s(static_cast<int64_t>(t.id));
  w.u(name_index(t.name, 0));
  w.s(static_cast<int64_t>(t.parent));
  w.u(t.children.size());
  for (TaskID c : t.children) w.s(static_cast<int64_t>(c));
  w.event(t.start_event);
  w.event(t.end_event);
  w.s(t.start);
  w.time(t.end, t.start);
  // Logs and regions as differences from the one before (they come in order).
  w.u(t.logs.size());
  uint64_t prev = 0;
  for (uint64_t i : t.logs) {
    w.s(static_cast<int64_t>(i - prev));
    prev = i;
  }
  w.u(t.regions.size());
  prev = 0;
  for (uint32_t k : t.regions) {
    w.s(static_cast<int64_t>(k) - static_cast<int64_t>(prev));
    prev = k;
  }
  w.u(t.goroutines.size());
  for (GoID g : t.goroutines) w.s(g);
  return put(scratch_);
}

void SummaryArchive::task(uint64_t where, TaskSummary& t) const {
  Reader r(at(where));
  t.id = static_cast<TaskID>(r.s());
  t.name = names_[r.u()].text;
  t.parent = static_cast<TaskID>(r.s());
  t.children.clear();
  for (uint64_t n = r.u(); n > 0; n--) t.children.push_back(static_cast<TaskID>(r.s()));
  t.start_event = r.event();
  t.end_event = r.event();
  t.start = r.s();
  t.end = r.time(t.start);
  t.logs.clear();
  uint64_t prev = 0;
  for (uint64_t n = r.u(); n > 0; n--) t.logs.push_back(prev += static_cast<uint64_t>(r.s()));
  t.regions.clear();
  prev = 0;
  for (uint64_t n = r.u(); n > 0; n--) t.regions.push_back(static_cast<uint32_t>(prev += static_cast<uint64_t>(r.s())));
  t.goroutines.clear();
  for (uint64_t n = r.u(); n > 0; n--) t.goroutines.push_back(r.s());
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
