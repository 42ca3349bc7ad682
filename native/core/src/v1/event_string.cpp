#include "event_string.h"

#include "strings_util.h"

namespace gotrace::v1 {
namespace {

void add_args(std::string& out, const Event& ev) {
  const EventSpec& sp = spec(ev.type);
  for (int i = 0; i < sp.nargs; i++) {
    out += ' ';
    out += sp.args[i];
    out += '=';
    add_u64(out, ev.args[i]);
  }
}

// The string arguments Go 1.21 prints for an event (none for most types).
int legacy_string_args(const Trace& t, const Event& ev, std::string_view out[2]) {
  switch (ev.type) {
    case EvSTWStart:
      if (!legacy_stw_kind(t.minor, ev.args[0], out[0])) out[0] = {};
      return 1;
    case EvGoStartLabel:
    case EvUserTaskCreate:
    case EvUserRegion:
      out[0] = t.string(ev.args[2]);
      return 1;
    case EvUserLog:
      out[0] = t.string(ev.args[1]);
      out[1] = ev.args[2] < t.messages.size() ? t.messages[ev.args[2]] : std::string_view();
      return 2;
  }
  return 0;
}

}  // namespace

void append_go121_event_string(std::string& out, const Trace& t, const Event& ev) {
  const EventSpec& sp = spec(ev.type);
  add_i64(out, ev.ts);
  out += ' ';
  out += sp.name;
  out += " p=";
  add_i64(out, ev.p);
  out += " g=";
  add_u64(out, ev.g);
  out += " off=";
  add_u64(out, ev.off);
  add_args(out, ev);
  std::string_view sargs[2];
  int n = legacy_string_args(t, ev, sargs);
  for (int i = 0; i < n && i < sp.nsargs; i++) {
    out += ' ';
    out += sp.sargs[i];
    out += '=';
    out += sargs[i];
  }
}

void append_go123_event_string(std::string& out, const Event& ev) {
  const EventSpec& sp = spec(ev.type);
  add_i64(out, ev.ts);
  out += ' ';
  // Go 1.23 calls the STW pair by its older names.
  if (ev.type == EvSTWStart)
    out += "GCSTWStart";
  else if (ev.type == EvSTWDone)
    out += "GCSTWDone";
  else
    out += sp.name;
  out += " p=";
  add_i64(out, ev.p);
  out += " g=";
  add_u64(out, ev.g);
  out += " stk=";
  add_u64(out, ev.stk);
  add_args(out, ev);
}

}  // namespace gotrace::v1
