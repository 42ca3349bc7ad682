#include "stream_checker.h"

#include <algorithm>

namespace gotrace::test {
namespace {

bool executing(GoState s) { return s == GoState::Running || s == GoState::Syscall; }
bool executing(ProcState s) { return s == ProcState::Running; }

std::string str(GoState s) { return std::string(to_string(s)); }
std::string str(ProcState s) { return std::string(to_string(s)); }

}  // namespace

bool StreamChecker::has_range(const RangeKey& r, const std::string& name) const {
  auto it = ranges_.find(r);
  return it != ranges_.end() && std::find(it->second.begin(), it->second.end(), name) != it->second.end();
}

StreamChecker::SchedContext* StreamChecker::thread(std::vector<std::string>& errs, const EventView& ev,
                                                   const StateTransition* st) {
  ThreadID m = ev.thread();
  // Converted traces do not say which thread a goroutine was in a syscall on when
  // tracing started.
  bool lenient = go121_ && st && st->resource.kind == ResourceKind::Goroutine &&
                 st->go_from() == GoState::Undetermined && st->go_to() == GoState::Syscall;
  if (m == kNoThread) {
    if (!lenient) errs.push_back("must have thread, but thread ID is none");
    return nullptr;
  }
  auto& slot = ms_[m];
  if (!slot) {
    slot = std::make_unique<SchedContext>();
    slot->m = m;
  }
  return slot.get();
}

std::vector<std::string> StreamChecker::event(const EventStore& store, size_t i) {
  std::vector<std::string> errs;
  EventView ev(store, i);

  if (last_ts_ != 0) {
    if (ev.time() <= last_ts_)
      errs.push_back("timestamp out-of-order");
    else
      last_ts_ = ev.time();
  } else {
    last_ts_ = ev.time();
  }

  switch (ev.kind()) {
    case EventKind::Sync: {
      // Go 1.27 begins each generation with a Sync: the stream is past its first
      // generation from the second on. Go 1.23 ended each generation with one.
      const uint64_t n = ev.sync().n;
      if (n != last_sync_ + 1) {
        errs.push_back("sync count is not sequential: expected " + std::to_string(last_sync_ + 1) + ", got " +
                       std::to_string(n));
      }
      last_sync_ = n;
      seen_sync_ = !store.format.leading_syncs || n > 1;
      break;
    }
    case EventKind::Metric: {
      Metric m = ev.metric();
      if (m.name.find(':') == std::string_view::npos) errs.push_back("invalid metric name " + std::string(m.name));
      break;
    }
    case EventKind::Label: {
      Label l = ev.label();
      if (l.label.empty()) errs.push_back("invalid label");
      if (l.resource.kind == ResourceKind::None) errs.push_back("label resource none");
      if (l.resource.kind == ResourceKind::Goroutine && !gs_.count(l.resource.id)) {
        errs.push_back("label for invalid goroutine " + std::to_string(l.resource.id));
      }
      if (l.resource.kind == ResourceKind::Proc && !ps_.count(l.resource.id)) {
        errs.push_back("label for invalid proc " + std::to_string(l.resource.id));
      }
      break;
    }
    case EventKind::StateTransition: {
      StateTransition st = ev.state_transition();
      int64_t id = st.resource.id;
      if (st.resource.kind == ResourceKind::Goroutine) {
        GoState from = st.go_from(), to = st.go_to();
        if (to == GoState::Undetermined)
          errs.push_back("transition to undetermined state for goroutine " + std::to_string(id));
        if (seen_sync_ && from == GoState::Undetermined) {
          errs.push_back("undetermined goroutine " + std::to_string(id) + " after first global sync");
        }
        if (to == GoState::NotExist) {
          auto r = ranges_.find({int(ResourceKind::Goroutine), id});
          if (r != ranges_.end() && !r->second.empty())
            errs.push_back("goroutine " + std::to_string(id) + " died with active ranges");
        }
        auto it = gs_.find(id);
        if (it != gs_.end()) {
          if (from != it->second.state) {
            errs.push_back("bad old state for goroutine " + std::to_string(id) + ": got " + str(from) + ", want " +
                           str(it->second.state));
          }
          it->second.state = to;
        } else {
          if (from != GoState::Undetermined && from != GoState::NotExist) {
            errs.push_back("bad old state for unregistered goroutine " + std::to_string(id) + ": " + str(from));
          }
          it = gs_.emplace(id, GoroutineState{to, nullptr}).first;
        }
        GoroutineState& state = it->second;
        if (executing(to)) {
          state.threadless_syscall =
              go121_ && to == GoState::Syscall && from == GoState::Undetermined && ev.thread() == kNoThread;
          if (SchedContext* ctx = thread(errs, ev, &st)) {
            if (ctx->g != kNoGoroutine && ctx->g != id) {
              errs.push_back("tried to run goroutine " + std::to_string(id) + " when one was already executing (" +
                             std::to_string(ctx->g) + ") on thread " + std::to_string(ev.thread()));
            }
            ctx->g = id;
            state.binding = ctx;
          }
        } else if (executing(from)) {
          StackID transition_stack = st.has_stack ? st.stack : 0;
          if (transition_stack != ev.stack()) errs.push_back("StateTransition.Stack doesn't match Event.Stack");
          if (SchedContext* ctx = state.binding) {
            if (ctx->g != id) {
              errs.push_back("tried to stop goroutine " + std::to_string(id) +
                             " when it wasn't currently executing (currently executing " + std::to_string(ctx->g) +
                             ") on thread " + std::to_string(ev.thread()));
            }
            ctx->g = kNoGoroutine;
            state.binding = nullptr;
          } else if (!state.threadless_syscall) {
            errs.push_back("stopping goroutine " + std::to_string(id) + " not bound to any active context");
          }
          state.threadless_syscall = false;
        }
      } else if (st.resource.kind == ResourceKind::Proc) {
        ProcState from = st.proc_from(), to = st.proc_to();
        if (to == ProcState::Undetermined)
          errs.push_back("transition to undetermined state for proc " + std::to_string(id));
        if (seen_sync_ && from == ProcState::Undetermined) {
          errs.push_back("undetermined proc " + std::to_string(id) + " after first global sync");
        }
        if (to == ProcState::NotExist) {
          auto r = ranges_.find({int(ResourceKind::Proc), id});
          if (r != ranges_.end() && !r->second.empty())
            errs.push_back("proc " + std::to_string(id) + " died with active ranges");
        }
        auto it = ps_.find(id);
        if (it != ps_.end()) {
          if (from != it->second.state) {
            errs.push_back("bad old state for proc " + std::to_string(id) + ": got " + str(from) + ", want " +
                           str(it->second.state));
          }
          it->second.state = to;
        } else {
          if (from != ProcState::Undetermined && from != ProcState::NotExist) {
            errs.push_back("bad old state for unregistered proc " + std::to_string(id) + ": " + str(from));
          }
          it = ps_.emplace(id, ProcStateEntry{to, nullptr}).first;
        }
        ProcStateEntry& state = it->second;
        if (executing(to)) {
          if (SchedContext* ctx = thread(errs, ev, &st)) {
            if (ctx->p != kNoProc && ctx->p != id) {
              errs.push_back("tried to run proc " + std::to_string(id) + " when one was already executing (" +
                             std::to_string(ctx->p) + ") on thread " + std::to_string(ev.thread()));
            }
            ctx->p = id;
            state.binding = ctx;
          }
        } else if (executing(from)) {
          if (SchedContext* ctx = state.binding) {
            if (ctx->p != id) {
              errs.push_back("tried to stop proc " + std::to_string(id) + " when it wasn't currently executing");
            }
            ctx->p = kNoProc;
            state.binding = nullptr;
          } else {
            errs.push_back("stopping proc " + std::to_string(id) + " not bound to any active context");
          }
        }
      }
      break;
    }
    case EventKind::RangeBegin:
    case EventKind::RangeActive:
    case EventKind::RangeEnd: {
      Range r = ev.range();
      RangeKey key{int(r.scope.kind), r.scope.id};
      if (ev.kind() == EventKind::RangeBegin) {
        if (has_range(key, r.name)) errs.push_back("already active range \"" + r.name + "\" begun again");
        ranges_[key].push_back(r.name);
      } else if (ev.kind() == EventKind::RangeActive) {
        if (!has_range(key, r.name)) ranges_[key].push_back(r.name);
      } else {
        if (!has_range(key, r.name)) errs.push_back("inactive range \"" + r.name + "\" ended");
        auto it = ranges_.find(key);
        if (it != ranges_.end()) {
          auto at = std::find(it->second.begin(), it->second.end(), r.name);
          if (at != it->second.end()) it->second.erase(at);
        }
      }
      break;
    }
    case EventKind::TaskBegin: {
      Task t = ev.task();
      if (t.id == kNoTask || t.id == kBackgroundTask)
        errs.push_back("found invalid task ID for task of type " + std::string(t.type));
      if (t.parent == kBackgroundTask)
        errs.push_back("found background task as the parent for task of type " + std::string(t.type));
      tasks_[t.id] = std::string(t.type);
      break;
    }
    case EventKind::TaskEnd: {
      Task t = ev.task();
      auto it = tasks_.find(t.id);
      if (it != tasks_.end()) {
        if (t.type != it->second)
          errs.push_back("task end type doesn't match task start type for task " + std::to_string(t.id));
        tasks_.erase(it);
      }
      break;
    }
    default:
      break;
  }
  return errs;
}

std::string StreamChecker::check_all(const EventStore& store, bool converted_v1) {
  StreamChecker c(converted_v1);
  for (size_t i = 0; i < store.size(); i++) {
    auto errs = c.event(store, i);
    if (!errs.empty()) return "event " + std::to_string(i) + ": " + errs.front();
  }
  return {};
}

}  // namespace gotrace::test
