// A v1 trace as the pipeline holds it: the bytes, every event decoded once into a
// compact record, the lists of each P, and the tables.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/error.h"
#include "gotrace/flat_map.h"
#include "gotrace/v1_spec.h"

namespace gotrace::v1 {

// Whose old parser the pipeline imitates. They differ in small ways (FORMAT.md §3.7):
// error checks and wording, the G of GC events, futile wakeups, region checks.
enum class Dialect : uint8_t {
  Go121,  // Go 1.21 internal/trace: the legacy list, and the base for 1.5–1.10 conversion
  Go123,  // Go 1.23 internal/trace/internal/oldtrace: what Go converts 1.11–1.21 from
};

// What a pipeline run is for, spelled out as the individual rules it changes.
struct Rules {
  Dialect dialect = Dialect::Go123;
  bool gc_events_on_g0 = false;      // GCStart/GCDone/STWStart/STWDone get G 0 (Go 1.21)
  bool remove_futile = false;        // drop futile wakeup sequences (Go 1.21)
  bool drop_futile_events = false;   // drop only the FutileWakeup markers (1.5–1.10 conversion)
  bool sysexit_local_arg_g = false;  // a GoSysExitLocal's G is its argument (1.5–1.10 conversion)
  bool exact_go121_ties = false;     // Go 1.21's frontier scan, for its tie order (legacy list)
  // Two repairs that keep converted 1.5–1.10 streams valid in the v2 model:
  bool merge_per_p_stw = false;             // before 1.10 every P wrote its own STW pair
  bool active_for_lone_assist_end = false;  // an assist running when tracing began

  static Rules legacy_list() {
    Rules r;
    r.dialect = Dialect::Go121;
    r.gc_events_on_g0 = true;
    r.remove_futile = true;
    r.exact_go121_ties = true;
    return r;
  }
  static Rules conversion(int minor) {
    Rules r;
    if (minor <= 10) {  // Go 1.23 has no reader for these: Go 1.21's, with §3.7's changes
      r.dialect = Dialect::Go121;
      r.drop_futile_events = true;
      r.sysexit_local_arg_g = true;
      r.merge_per_p_stw = minor < 10;
      r.active_for_lone_assist_end = true;
    }
    return r;
  }
};

// One decoded timed event (or CPU sample), as the index pass stores it: 56 bytes, where
// the full Event below takes 72. Its P is its list's (a sample's is its argument).
struct Rec {
  int64_t ts = 0;  // ticks; a syscall exit moved to its real time gets that time
  uint64_t g = 0;
  uint64_t args[3] = {0, 0, 0};  // as Event::args (a UserLog's slot 2: its message index)
  uint64_t where = 0;            // file offset | list << 40 | type << 58
  uint32_t stk = 0;              // stack ID; kWideStack: it is in Trace::wide_stacks

  static constexpr unsigned kListShift = 40;
  static constexpr unsigned kTypeShift = 58;
  static constexpr uint64_t kOffsetMask = (uint64_t{1} << kListShift) - 1;
  static constexpr uint32_t kMaxLists = 1u << (kTypeShift - kListShift);
  static constexpr uint32_t kWideStack = ~0u;

  uint64_t off() const { return where & kOffsetMask; }
  uint32_t list() const { return static_cast<uint32_t>((where >> kListShift) & (kMaxLists - 1)); }
  uint8_t type() const { return static_cast<uint8_t>(where >> kTypeShift); }
};

// One event as Go's old parsers hold it: three argument slots (the printed arguments in
// order; UserLog keeps the index of its message in slot 2), the stack ID, P and G.
struct Event {
  int64_t ts = 0;  // ticks until the time conversion, then ns since the first event
  uint64_t g = 0;
  uint64_t args[3] = {0, 0, 0};
  uint64_t stk = 0;
  int64_t p = 0;
  uint64_t off = 0;  // file offset of the type byte
  uint8_t type = EvNone;
};

// One frame of a stack: the PC's function, file (string IDs of the trace) and line.
struct PcInfo {
  uint64_t func = 0;
  uint64_t file = 0;
  uint64_t line = 0;
};

// What an event does to the goroutine its P is running (FORMAT.md §3.7 "G of each
// event"), decided once per type for the trace's rules.
enum class GRule : uint8_t {
  Current,   // the event happens on the P's goroutine
  Start,     // it starts args[0]: that is the P's goroutine from now on
  Stop,      // the P's goroutine stops running on it after this event
  Argument,  // the event's goroutine is args[0]
  None,      // G 0, the P's goroutine unchanged (Go 1.21's GC and STW events)
};

// Where an event's values go in this trace's version, and its G rule (once per type).
struct Layout {
  uint8_t values = 0;  // wire values after the type byte (or inside the length prefix)
  uint8_t first = 0;   // index of the first argument: after the tick delta (and 1.5's seq)
  uint8_t nargs = 0;   // argument slots filled
  bool stack = false;  // the last value is the stack ID
  bool timed = false;  // merged from its P's list (samples come from their own list)
  GRule g = GRule::Current;
};

struct Trace {
  Trace(int go_minor, Rules r);

  std::span<const uint8_t> bytes;  // the whole file, header included
  int minor = 0;                   // header version: 5, 7, 8, 9, 10, 11, 19, 21
  Rules rules;
  bool go121() const { return rules.dialect == Dialect::Go121; }
  Layout layout[64];  // by event type

  // Every timed event and CPU sample, decoded, in file order; events are referred to by
  // their index here.
  std::vector<Rec> recs;
  std::vector<uint64_t> seqs;              // 1.5: each record's global sequence number
  FlatMap<uint64_t> wide_stacks;           // record index -> a stack ID over 32 bits
  std::vector<std::string_view> messages;  // UserLog messages, by slot 2
  // One list per P, in order of the P's first batch, then the CPU samples sorted by the
  // time the signal handler took (1.19+; their list's p is kProfileP).
  struct List {
    int64_t p = 0;
    std::vector<uint32_t> events;  // record indices, in order
  };
  std::vector<List> lists;
  uint32_t batch_count = 0;

  uint64_t ticks_per_sec = 0;
  bool have_frequency = false;
  FlatMap<uint8_t> timer_goroutines;

  // Strings by trace ID, and stacks: views into the bytes.
  FlatMap<uint32_t> string_index;  // trace string ID -> index into string_data
  std::vector<std::string_view> string_data;
  FlatMap<uint32_t> stack_index;  // trace stack ID -> index into stack_spans
  struct Span {
    uint32_t begin, count;
  };
  std::vector<Span> stack_spans;
  std::vector<uint64_t> stack_pcs;
  FlatMap<PcInfo> pcs;  // the first frame seen for each PC (Go 1.23 keeps frames by PC)

  std::string_view string(uint64_t id) const {
    const uint32_t* i = string_index.find(id);
    return i ? string_data[*i] : std::string_view();
  }
  std::span<const uint64_t> stack(uint64_t id) const {
    const uint32_t* i = stack_index.find(id);
    if (!i) return {};
    return {stack_pcs.data() + stack_spans[*i].begin, stack_spans[*i].count};
  }

  // The record as an Event: its P from its list (a sample's from its argument), its
  // stack ID whole. Fills `ev` in place (a returned copy would cost a stall per event).
  void event(uint32_t index, Event& ev) const {
    const Rec& r = recs[index];
    ev.ts = r.ts;
    ev.g = r.g;
    ev.args[0] = r.args[0];
    ev.args[1] = r.args[1];
    ev.args[2] = r.args[2];
    ev.off = r.off();
    ev.type = r.type();
    if (ev.type == EvCPUSample) [[unlikely]] {
      // A sample's P is its argument, which Go 1.23 narrows to 32 bits.
      ev.p = go121() ? static_cast<int64_t>(r.args[1]) : static_cast<int64_t>(static_cast<int32_t>(r.args[1]));
    } else {
      ev.p = lists[r.list()].p;
    }
    ev.stk = r.stk == Rec::kWideStack ? wide_stack(index) : r.stk;
  }
  uint64_t wide_stack(uint32_t index) const {
    const uint64_t* wide = wide_stacks.find(index);
    return wide ? *wide : Rec::kWideStack;
  }
  Event event(uint32_t index) const {
    Event ev;
    event(index, ev);
    return ev;
  }
};

// A TraceError at an event: Go's message, plus the event's offset and name.
[[noreturn]] void fail_at(std::string message, const Event& ev);

}  // namespace gotrace::v1
