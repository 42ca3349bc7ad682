// The trace's per-version layout table, and errors at an event.
#include "trace.h"

#include <algorithm>

#include "wire.h"

namespace gotrace::v1 {

Trace::Trace(int go_minor, Rules r) : minor(go_minor), rules(r) {
  for (int type = 0; type < 64; type++) {
    const EventSpec& sp = spec(static_cast<uint8_t>(type));
    Layout& l = layout[type];
    if (!sp.valid() || sp.since > minor) continue;
    int n = wire_value_count(static_cast<uint8_t>(type), minor);
    l.values = static_cast<uint8_t>(n);
    l.stack = sp.stack;
    l.timed = is_timed(static_cast<uint8_t>(type));
    if (l.timed || type == EvCPUSample) {
      l.first = minor < 7 ? 2 : 1;
      l.nargs = static_cast<uint8_t>(std::max(0, n - l.first - (sp.stack ? 1 : 0)));
    }
    switch (type) {
      case EvGoStart:
      case EvGoStartLocal:
      case EvGoStartLabel:
        l.g = GRule::Start;
        break;
      case EvGCStart:
      case EvGCDone:
      case EvSTWStart:
      case EvSTWDone:
        if (rules.gc_events_on_g0) l.g = GRule::None;
        break;
      case EvGoEnd:
      case EvGoSysBlock:
        l.g = GRule::Stop;
        break;
      default:
        if (sp.blocks || sp.stops) l.g = GRule::Stop;
        break;
      case EvGoSysExitLocal:
        if (rules.sysexit_local_arg_g) l.g = GRule::Argument;
        break;
      case EvGoSysExit:
      case EvGoWaiting:
      case EvGoInSyscall:
        l.g = GRule::Argument;
        break;
    }
  }
}

void fail_at(std::string message, const Event& ev) {
  ErrorLocation where;
  where.offset = ev.off;
  if (spec(ev.type).valid()) where.event = std::string(spec(ev.type).name);
  throw TraceError(std::move(message), where);
}

}  // namespace gotrace::v1
