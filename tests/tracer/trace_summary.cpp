#include "trace_summary.h"

#include <fstream>
#include <optional>

#include "corpus.h"
#include "gotrace/event_view.h"
#include "gotrace/tracer/tracer.h"

namespace gotrace::tracer_test {

namespace {

std::string root_function(const EventStore& s, StackID stack) {
  auto frames = s.stacks.frames(stack);
  if (frames.empty()) return {};
  return std::string(s.strings.get(s.stacks.frame(frames.back()).func));
}

const char* kValidator = "/usr/local/lib/gotrace-oracle/gotracevalidate";
const char* kGo = "/usr/lib/go-1.23/bin/go";
const char* kTracedump = "/usr/local/lib/gotrace-go1.27/bin/tracedump";

}  // namespace

TraceSummary summarize(std::span<const uint8_t> trace) {
  TraceSummary t;
  ReadResult r = read_trace(trace);
  t.ok = r.ok();
  if (r.error) t.error = r.error->what();
  const EventStore& s = r.store;
  t.events = s.size();
  t.generations = s.generations.size();
  t.go_minor = s.format.go_minor;
  std::optional<ClockSnapshot> last_clock;
  for (const GenerationInfo& g : s.generations) {
    if (!g.clock) continue;
    const ClockSnapshot& c = *g.clock;
    t.clock_snapshots++;
    bool zero = c.trace == 0 || c.mono == 0 || (c.sec == 0 && c.nsec == 0);
    bool back = last_clock && (c.trace <= last_clock->trace || c.mono <= last_clock->mono ||
                               std::pair(c.sec, c.nsec) <= std::pair(last_clock->sec, last_clock->nsec));
    if (zero || back) t.bad_clock_snapshots++;
    last_clock = c;
  }
  for (StackID id = 1; id < s.stacks.size(); id++) {
    for (FrameID f : s.stacks.frames(id)) {
      const Frame& fr = s.stacks.frame(f);
      t.frames++;
      if (s.strings.get(fr.func).empty() || s.strings.get(fr.file).empty() || fr.pc == 0 || fr.line == 0)
        t.incomplete_frames++;
    }
  }
  std::set<int64_t> named;
  for (size_t i = 0; i < s.size(); i++) {
    EventView ev(s, i);
    if (ev.thread() != kNoThread) t.threads.insert(ev.thread());
    if (ev.stack() != 0) {
      for (FrameID f : s.stacks.frames(ev.stack())) t.stack_functions.insert(std::string(s.strings.get(s.stacks.frame(f).func)));
    }
    switch (ev.kind()) {
      case EventKind::StackSample: t.cpu_samples++; break;
      case EventKind::TaskBegin: t.tasks[std::string(ev.task().type)]++; break;
      case EventKind::TaskEnd: t.task_ends++; break;
      case EventKind::RegionBegin: t.regions[std::string(ev.region().type)]++; break;
      case EventKind::RegionEnd: t.region_ends++; break;
      case EventKind::Log:
        t.log_categories[std::string(ev.log().category)]++;
        t.log_messages.emplace_back(ev.log().message);
        break;
      case EventKind::StateTransition: {
        StateTransition st = ev.state_transition();
        if (st.resource.kind == ResourceKind::Proc) {
          t.procs.insert(st.resource.id);
          break;
        }
        if (st.resource.kind != ResourceKind::Goroutine) break;
        int64_t g = st.resource.id;
        t.goroutines.insert(g);
        if (st.has_stack && st.stack != 0 && !named.count(g)) {
          named.insert(g);
          t.goroutine_names[root_function(s, st.stack)]++;
        }
        GoState from = st.go_from(), to = st.go_to();
        if (from == GoState::NotExist && to != GoState::NotExist) t.created++;
        if (to == GoState::NotExist) t.ended++;
        if (from == GoState::Running && to == GoState::Waiting) t.block_reasons[std::string(st.reason)]++;
        if (from == GoState::Running && to == GoState::Runnable) t.stop_reasons[std::string(st.reason)]++;
        if (from == GoState::Running && to == GoState::Syscall) t.syscalls++;
        break;
      }
      default: break;
    }
  }
  return t;
}

bool go_oracle_available(int go_minor) {
  if (go_minor >= 26) return access(kTracedump, X_OK) == 0;
  return access(kValidator, X_OK) == 0 && access(kGo, X_OK) == 0;
}

bool go_oracle_accepts(const std::string& path, std::string* output) {
  std::string out;
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  in.read(header, sizeof header);
  if (std::string_view(header, 7) != "go 1.23") {
    // Go 1.27's reader and strict validator; any complaint is printed.
    int rc = test::run_command(std::string(kTracedump) + " -validate -fmt=none '" + path + "' 2>&1", &out);
    if (rc != 0 || !out.empty()) {
      if (output) *output = "tracedump -validate: " + out;
      return false;
    }
    if (output) output->clear();
    return true;
  }
  int rc = test::run_command(std::string(kValidator) + " < '" + path + "' 2>&1", &out);
  if (rc != 0 || !out.empty()) {
    if (output) *output = "gotracevalidate: " + out;
    return false;
  }
  rc = test::run_command(std::string(kGo) + " tool trace -d=1 '" + path + "' 2>&1 >/dev/null", &out);
  if (rc != 0) {
    if (output) *output = "go tool trace -d=1: " + out;
    return false;
  }
  if (output) output->clear();
  return true;
}

void warm_up_tracer() {
  static bool done = false;
  if (done) return;
  done = true;
  gotrace::tracer::start(gotrace::tracer::callback_sink([](std::span<const uint8_t>) { return true; }));
  { gotrace::tracer::Region r("warm-up"); }
  gotrace::tracer::stop();
}


}  // namespace gotrace::tracer_test
