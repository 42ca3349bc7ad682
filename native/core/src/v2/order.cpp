#include "order.h"

#include <algorithm>
#include <memory>

#include "gotrace/error.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"
#include "order_events.h"

namespace gotrace::v2 {

void order_fail(std::string msg) { throw TraceError(std::move(msg)); }

std::string seq_string(uint64_t n, uint64_t gen) {
  return fmt("%llu (gen=%llu)", (unsigned long long)n, (unsigned long long)gen);
}

namespace {

std::string_view gc_state_name(int s) {
  switch (s) {
    case 0: return "Undetermined";
    case 1: return "NotRunning";
    case 2: return "Running";
  }
  return "Bad";
}

}  // namespace

// ---- resource state -------------------------------------------------------------

Ordering::GState* Ordering::new_g_state(GoID id) {
  uint32_t slot;
  if (!g_free_.empty()) {  // a slot made fresh by delete_g_state
    slot = g_free_.back();
    g_free_.pop_back();
  } else {
    slot = static_cast<uint32_t>(g_pool_.size());
    g_pool_.push_back(GState{});
  }
  g_index_.insert(id, slot);
  GState* s = &g_pool_[slot];
  s->id = id;
  return s;
}

void Ordering::delete_g_state(GoID id) {
  uint32_t slot = g_index_.find(id);
  if (slot == ResourceIndex::kNone) return;
  // Made anew in place: assigning a fresh GState would copy its small vectors' unset
  // inline storage (GCC warns of it).
  GState* s = &g_pool_[slot];
  std::destroy_at(s);
  std::construct_at(s);
  g_free_.push_back(slot);
  g_index_.erase(id);
}

Ordering::PState* Ordering::new_p_state(ProcID id) {
  p_index_.insert(id, static_cast<uint32_t>(p_pool_.size()));
  p_pool_.push_back(PState{});
  p_pool_.back().id = id;
  return &p_pool_.back();
}

Ordering::MState* Ordering::m_state(ThreadID id) {
  uint32_t* i = m_index_.find(static_cast<uint64_t>(id));
  return i ? &m_pool_[*i] : nullptr;
}

Ordering::MState* Ordering::new_m_state(ThreadID id) {
  m_index_[static_cast<uint64_t>(id)] = static_cast<uint32_t>(m_pool_.size());
  m_pool_.emplace_back();
  return &m_pool_.back();
}

void Ordering::RangeState::begin(RangeType r) {
  if (has(r)) order_fail(fmt("discovered event already in-flight for when starting event %s", evname(r.type)));
  in_flight.push_back(r);
}

void Ordering::RangeState::active(RangeType r, bool initial_gen) {
  if (initial_gen) {
    if (has(r)) order_fail(fmt("found named active range already in first gen: {%d %llu}", r.type, (unsigned long long)r.desc));
    in_flight.push_back(r);
  } else if (!has(r)) {
    std::string list = "[";
    for (size_t i = 0; i < in_flight.size(); i++) {
      list += fmt("%s{%d %llu}", i ? " " : "", in_flight[i].type, (unsigned long long)in_flight[i].desc);
    }
    list += "]";
    order_fail(fmt("resource is missing active range: %s %s", evname(r.type), list.c_str()));
  }
}

bool Ordering::RangeState::has(const RangeType& r) const {
  return std::find(in_flight.begin(), in_flight.end(), r) != in_flight.end();
}

Ordering::RangeType Ordering::RangeState::end(uint8_t end_type) {
  uint8_t st = spec(end_type).start_ev;
  for (size_t i = 0; i < in_flight.size(); i++) {
    if (in_flight[i].type == st) {
      RangeType r = in_flight[i];
      in_flight[i] = in_flight.back();
      in_flight.pop_back();
      return r;
    }
  }
  order_fail(fmt("tried to end event %s, but not in-flight", evname(st)));
}

StringID Ordering::lookup_string(const Generation& gen, uint64_t id, const WireEvent& ev) {
  if (id == 0) return 0;
  uint32_t s = gen.strings.get(id);
  if (s == LocalIds::kMissing) order_fail(fmt("invalid string ID %llu for %d event", (unsigned long long)id, ev.type));
  return s;
}

// ---- waiting and waking ------------------------------------------------------------

int Ordering::wait_keys(const WireEvent& ev, ThreadID m, uint64_t out[2]) const {
  // The sequence number the resource must reach first: seq - 1 of this generation.
  auto g_needed = [&](uint64_t id, uint64_t seq) { return make_key(kGoroutineSeq, id, gen_, seq - 1); };
  switch (ev.type) {
    case EvGoStart:
    case EvGoUnblock:
    case EvGoSwitch:
    case EvGoSwitchDestroy:
      out[0] = g_needed(ev.args[0], ev.args[1]);
      return 1;
    case EvProcStart:
      out[0] = make_key(kProcSeq, ev.args[0], gen_, ev.args[1] - 1);
      out[1] = make_key(kThread, static_cast<uint64_t>(m));  // it also needs its thread to have no proc
      return 2;
    case EvProcSteal:
      out[0] = make_key(kProcSeq, ev.args[0], gen_, ev.args[1] - 1);
      return 1;
    case EvGCActive:
    case EvGCBegin:
    case EvGCEnd:
      out[0] = make_key(kGCSeq, 0, 0, ev.args[0] - 1);
      return 1;
    case EvGoSyscallEndBlocked: {
      // It waits for its thread's proc to leave Syscall, or for the thread to lose it.
      const uint32_t* slot = m_index_.find(static_cast<uint64_t>(m));
      ProcID p = slot ? m_pool_[*slot].p : kNoProc;
      out[0] = make_key(kProcAny, static_cast<uint64_t>(p));
      out[1] = make_key(kThread, static_cast<uint64_t>(m));
      return 2;
    }
  }
  return 0;
}

void Ordering::touch_goroutine(GoID g) {
  if (const GState* s = g_state(g)) touched_.push_back(make_key(kGoroutineSeq, static_cast<uint64_t>(g), s->seq.gen, s->seq.n));
}

void Ordering::touch_proc(ProcID p) {
  touched_.push_back(make_key(kProcAny, static_cast<uint64_t>(p)));
  if (const PState* s = p_state(p)) touched_.push_back(make_key(kProcSeq, static_cast<uint64_t>(p), s->seq.gen, s->seq.n));
}

void Ordering::push_cold(const Context& ctx, const WireEvent& ev, uint64_t extra0, StringID name) {
  out_.emit(ctx, ev, extra0, name);
}

// Every resource the event may have changed, in its new state: its context's goroutine,
// proc and thread, the goroutine, proc or thread it names, and the GC.
void Ordering::record_touched(const WireEvent& ev, Context cur, MState after) {
  if (cur.g != kNoGoroutine) touch_goroutine(cur.g);
  if (cur.p != kNoProc) touch_proc(cur.p);
  if (after.g != cur.g || after.p != cur.p) touched_.push_back(make_key(kThread, static_cast<uint64_t>(cur.m)));
  switch (ev.type) {
    case EvGoCreate:
    case EvGoCreateBlocked:
    case EvGoCreateSyscall:
    case EvGoStart:
    case EvGoUnblock:
    case EvGoSwitch:
    case EvGoSwitchDestroy:
      touch_goroutine(static_cast<GoID>(ev.args[0]));
      break;
    case EvGoStatus:
    case EvGoStatusStack:
      touch_goroutine(static_cast<GoID>(ev.args[0]));
      touched_.push_back(make_key(kThread, ev.args[1]));
      break;
    case EvProcStart:
    case EvProcStatus:
      touch_proc(static_cast<ProcID>(ev.args[0]));
      break;
    case EvProcSteal:
      touch_proc(static_cast<ProcID>(ev.args[0]));
      touched_.push_back(make_key(kThread, ev.args[2]));
      break;
    case EvGCActive:
    case EvGCBegin:
    case EvGCEnd:
      touched_.push_back(make_key(kGCSeq, 0, 0, gc_seq_));
      break;
  }
}

// ---- resuming at a generation ----------------------------------------------------

Ordering::Snapshot Ordering::snapshot() const {
  Snapshot s;
  // The pool's slots, not the index: the index spans every goroutine id ever seen.
  std::vector<bool> free(g_pool_.size());
  for (uint32_t slot : g_free_) free[slot] = true;
  s.goroutines.reserve(g_pool_.size() - g_free_.size());
  for (uint32_t slot = 0; slot < g_pool_.size(); slot++) {
    if (!free[slot]) s.goroutines.push_back(g_pool_[slot]);
  }
  p_index_.for_each([&](int64_t, uint32_t slot) { s.procs.push_back(p_pool_[slot]); });
  m_index_.for_each([&](uint64_t id, uint32_t slot) { s.threads.push_back({static_cast<ThreadID>(id), m_pool_[slot]}); });
  s.no_thread = no_thread_;
  active_tasks_.for_each([&](uint64_t id, const TaskState& t) { s.tasks.push_back({id, t}); });
  s.gc_seq = gc_seq_;
  s.gc_state = gc_state_;
  s.initial_gen = initial_gen_;
  s.gen = gen_;
  return s;
}

// The goroutines and procs restored are named again by their first status in the
// generations read: it reads from Undetermined, as in a trace's first generation, so that
// every analysis of those generations begins their states where they begin (their events
// are otherwise the whole read's).
void Ordering::restore(const Snapshot& s) {
  for (const GState& g : s.goroutines) {
    GState* n = new_g_state(g.id);
    *n = g;
    n->restored = true;
  }
  for (const PState& p : s.procs) {
    PState* n = new_p_state(p.id);
    *n = p;
    n->restored = true;
  }
  for (const auto& [id, m] : s.threads) *new_m_state(id) = m;
  no_thread_ = s.no_thread;
  for (const auto& [id, t] : s.tasks) active_tasks_[id] = t;
  gc_seq_ = s.gc_seq;
  gc_state_ = s.gc_state;
  initial_gen_ = s.initial_gen;
  gen_ = s.gen;
}

// ---- diagnostics -----------------------------------------------------------------

std::string Ordering::dump() const {
  std::string out;
  std::vector<std::pair<int64_t, uint32_t>> ids;
  g_index_.for_each([&](int64_t id, uint32_t slot) { ids.push_back({id, slot}); });
  std::sort(ids.begin(), ids.end());
  for (auto [id, slot] : ids) {
    const GState& s = g_pool_[slot];
    out += fmt("G %lld [status=%s seq=%s]\n", (long long)id, std::string(to_string(s.status)).c_str(),
               seq_string(s.seq.n, s.seq.gen).c_str());
  }
  out += "\n";
  ids.clear();
  p_index_.for_each([&](int64_t id, uint32_t slot) { ids.push_back({id, slot}); });
  std::sort(ids.begin(), ids.end());
  for (auto [id, slot] : ids) {
    const PState& s = p_pool_[slot];
    out += fmt("P %lld [status=%s seq=%s]\n", (long long)id, std::string(to_string(s.status)).c_str(),
               seq_string(s.seq.n, s.seq.gen).c_str());
  }
  out += "\n";
  ids.clear();
  m_index_.for_each([&](uint64_t id, uint32_t slot) { ids.push_back({static_cast<int64_t>(id), slot}); });
  std::sort(ids.begin(), ids.end());
  for (auto [id, slot] : ids) {
    const MState& s = m_pool_[slot];
    out += fmt("M %lld [g=%lld p=%lld]\n", (long long)id, (long long)s.g, (long long)s.p);
  }
  out += "\n";
  out += fmt("GC %llu %s\n", (unsigned long long)gc_seq_, std::string(gc_state_name(static_cast<int>(gc_state_))).c_str());
  return out;
}

}  // namespace gotrace::v2
