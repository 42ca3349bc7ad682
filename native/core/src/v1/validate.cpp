#include "validate.h"

#include "gotrace/go_quote.h"
#include "event_string.h"

namespace gotrace::v1 {

Validator::Validator(const Trace& t) : t_(t), go121_(t.rules.dialect == Dialect::Go121), gs_(t.recs.size() + 4096) {
  GDesc& g0 = gs_[0];  // goroutine 0 "runs" from the start
  g0.state = gRunning;
  g0.known = true;
}

void Validator::fail(const Event& ev, std::string msg) const {
  if (go121_) {
    msg += fmt(" (offset %llu, time %lld)", (unsigned long long)ev.off, (long long)ev.ts);
  } else {
    msg += fmt(" (time %lld)", (long long)ev.ts);
  }
  fail_at(std::move(msg), ev);
}

std::string Validator::quoted(const Event& ev) const {
  std::string s;
  if (go121_)
    append_go121_event_string(s, t_, ev);
  else
    append_go123_event_string(s, ev);
  return go_quote(s);
}

void Validator::not_running(const Event& ev, const GDesc& g, const PDesc& p) const {
  const char* name = spec(ev.type).name.data();  // a string literal: NUL-terminated
  if (g.state != gRunning) fail(ev, fmt("g %llu is not running while %s", (unsigned long long)ev.g, name));
  if (p.g != ev.g) {
    fail(ev, fmt("p %lld is not running g %llu while %s", (long long)ev.p, (unsigned long long)ev.g, name));
  }
  fail(ev, fmt("g 0 did %s", name));
}

void Validator::task_create(const Event& ev) {
  auto [slot, inserted] = tasks_.try_emplace(ev.args[0]);
  if (!inserted) {
    fail_at(fmt("task id conflicts (id:%llu), %s vs %s", (unsigned long long)ev.args[0], quoted(ev).c_str(),
                quoted(*slot).c_str()),
            ev);
  }
  *slot = ev;
}

void Validator::user_region(const Event& ev) {
  uint64_t mode = ev.args[1];
  if (mode > 1) fail_at(fmt("invalid user region mode: %s", quoted(ev).c_str()), ev);
  auto [slot, inserted] = region_slot_.try_emplace(ev.g);
  if (inserted) {
    *slot = static_cast<uint32_t>(regions_.size());
    regions_.emplace_back();
  }
  std::vector<Event>& open = regions_[*slot];
  if (mode == 0) {
    open.push_back(ev);
    return;
  }
  if (open.empty()) return;  // its start happened before tracing began
  const Event& start = open.back();
  // Go 1.21 compares region names as strings, Go 1.23 by string ID.
  bool same_name = go121_ ? t_.string(start.args[2]) == t_.string(ev.args[2]) : start.args[2] == ev.args[2];
  if (start.args[0] != ev.args[0] || !same_name) {
    fail_at(fmt("misuse of region in goroutine %llu: span end %s when the inner-most active span start event is %s",
                (unsigned long long)ev.g, quoted(ev).c_str(), quoted(start).c_str()),
            ev);
  }
  open.pop_back();
}

void validate(Trace& t, std::span<Event> events) {
  Validator v(t);
  for (Event& ev : events) v.step(ev);
}

}  // namespace gotrace::v1
