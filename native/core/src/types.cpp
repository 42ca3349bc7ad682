#include "gotrace/types.h"

namespace gotrace {

std::string_view to_string(GoState s) {
  switch (s) {
    case GoState::Undetermined: return "Undetermined";
    case GoState::NotExist: return "NotExist";
    case GoState::Runnable: return "Runnable";
    case GoState::Running: return "Running";
    case GoState::Waiting: return "Waiting";
    case GoState::Syscall: return "Syscall";
  }
  return "Bad";
}

std::string_view to_string(ProcState s) {
  switch (s) {
    case ProcState::Undetermined: return "Undetermined";
    case ProcState::NotExist: return "NotExist";
    case ProcState::Running: return "Running";
    case ProcState::Idle: return "Idle";
  }
  return "Bad";
}

std::string_view to_string(EventKind k) {
  switch (k) {
    case EventKind::Bad: return "Bad";
    case EventKind::Sync: return "Sync";
    case EventKind::Metric: return "Metric";
    case EventKind::Label: return "Label";
    case EventKind::StackSample: return "StackSample";
    case EventKind::RangeBegin: return "RangeBegin";
    case EventKind::RangeActive: return "RangeActive";
    case EventKind::RangeEnd: return "RangeEnd";
    case EventKind::TaskBegin: return "TaskBegin";
    case EventKind::TaskEnd: return "TaskEnd";
    case EventKind::RegionBegin: return "RegionBegin";
    case EventKind::RegionEnd: return "RegionEnd";
    case EventKind::Log: return "Log";
    case EventKind::StateTransition: return "StateTransition";
    case EventKind::Experimental: return "Experimental";
  }
  return "Bad";
}

std::string_view to_string(ResourceKind k) {
  switch (k) {
    case ResourceKind::None: return "None";
    case ResourceKind::Goroutine: return "Goroutine";
    case ResourceKind::Proc: return "Proc";
    case ResourceKind::Thread: return "Thread";
  }
  return "Bad";
}

std::string_view to_string(WireGoStatus s) {
  switch (s) {
    case WireGoStatus::Runnable: return "Runnable";
    case WireGoStatus::Running: return "Running";
    case WireGoStatus::Syscall: return "Syscall";
    case WireGoStatus::Waiting: return "Waiting";
    default: return "Bad";
  }
}

std::string_view to_string(WireProcStatus s) {
  // SyscallAbandoned prints as "Bad", as in Go.
  switch (s) {
    case WireProcStatus::Running: return "Running";
    case WireProcStatus::Idle: return "Idle";
    case WireProcStatus::Syscall: return "Syscall";
    default: return "Bad";
  }
}

GoState to_go_state(WireGoStatus s) {
  switch (s) {
    case WireGoStatus::Runnable: return GoState::Runnable;
    case WireGoStatus::Running: return GoState::Running;
    case WireGoStatus::Syscall: return GoState::Syscall;
    case WireGoStatus::Waiting: return GoState::Waiting;
    default: return GoState::Undetermined;
  }
}

ProcState to_proc_state(WireProcStatus s) {
  switch (s) {
    case WireProcStatus::Running: return ProcState::Running;
    case WireProcStatus::Idle: return ProcState::Idle;
    case WireProcStatus::Syscall: return ProcState::Running;
    case WireProcStatus::SyscallAbandoned: return ProcState::Idle;
    default: return ProcState::Undetermined;
  }
}

}  // namespace gotrace
