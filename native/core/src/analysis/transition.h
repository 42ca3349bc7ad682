// EventView::state_transition() for the analyses' hot loops: the same result, read with
// only the columns each type needs and inlined (a large trace has ~12M transitions).
// The payload layouts are those documented in event_view.h; a type not handled here
// goes to EventView. tests/analysis/test_transition.cpp checks both agree on every
// event of the corpus.
#pragma once

#include "gotrace/event_store.h"
#include "gotrace/event_view.h"
#include "gotrace/v2_spec.h"

namespace gotrace::analysis::detail {

// Event i's transition, its columns read from `col` (the chunk's, ChunkColumns).
// Always inlined: WebAssembly's optimizer otherwise leaves it a call in every loop.
[[gnu::always_inline]] inline StateTransition read_transition(const EventStore& s, const EventStore::ChunkColumns& col,
                                                              size_t i, uint8_t type) {
  using namespace v2;
  StateTransition st;
  auto go = [&](GoID id, GoState from, GoState to) {
    st.resource = {ResourceKind::Goroutine, id};
    st.old_state = static_cast<uint8_t>(from);
    st.new_state = static_cast<uint8_t>(to);
  };
  auto own_stack = [&] {
    st.stack = col.stack(i);
    st.has_stack = st.stack != 0;
  };
  switch (type) {
    case EvGoStart:
      go(static_cast<GoID>(col.ab(i)), GoState::Runnable, GoState::Running);
      return st;
    case EvGoUnblock:
    case EvGoSwitch:
    case EvGoSwitchDestroy:
      go(static_cast<GoID>(col.ab(i)), GoState::Waiting, GoState::Runnable);
      return st;
    case EvGoStop:
    case EvGoBlock:
      go(col.goroutine(i), GoState::Running, type == EvGoStop ? GoState::Runnable : GoState::Waiting);
      st.reason = s.strings.get(col.a(i));
      own_stack();
      return st;
    case EvGoSyscallBegin:
      go(col.goroutine(i), GoState::Running, GoState::Syscall);
      own_stack();
      return st;
    case EvGoSyscallEnd:
    case EvGoSyscallEndBlocked:
      go(col.goroutine(i), GoState::Syscall, type == EvGoSyscallEnd ? GoState::Running : GoState::Runnable);
      own_stack();
      return st;
    case EvGoCreate:
    case EvGoCreateBlocked:
      go(static_cast<GoID>(col.ab(i)), GoState::NotExist, type == EvGoCreate ? GoState::Runnable : GoState::Waiting);
      st.stack = col.c(i);
      st.has_stack = true;  // even without a start stack (see event_view.h)
      return st;
    case EvGoDestroy:
      go(col.goroutine(i), GoState::Running, GoState::NotExist);
      own_stack();
      return st;
    case EvProcStart:
      st.resource = {ResourceKind::Proc, static_cast<ProcID>(col.ab(i))};
      st.old_state = static_cast<uint8_t>(ProcState::Idle);
      st.new_state = static_cast<uint8_t>(ProcState::Running);
      return st;
    case EvProcStop:
      st.resource = {ResourceKind::Proc, col.context(i).p};
      st.old_state = static_cast<uint8_t>(ProcState::Running);
      st.new_state = static_cast<uint8_t>(ProcState::Idle);
      return st;
    default:
      return EventView(s, i).state_transition();
  }
}

[[gnu::always_inline]] inline StateTransition read_transition(const EventStore& s, size_t i, uint8_t type) {
  return read_transition(s, s.columns(i), i, type);
}

}  // namespace gotrace::analysis::detail
