#include "gotrace/event_format.h"

#include "gotrace/event_view.h"
#include "gotrace/go_quote.h"
#include "gotrace/wall_clock.h"
#include "strings_util.h"

namespace gotrace {
using namespace v2;

namespace {

void add_resource(std::string& out, const ResourceID& r) {
  out += to_string(r.kind);
  if (r.kind == ResourceKind::None) return;
  out += '(';
  add_i64(out, r.id);
  out += ')';
}

}  // namespace

void append_go_frames(std::string& out, const EventStore& store, StackID stack) {
  for (FrameID fid : store.stacks.frames(stack)) {
    const Frame& f = store.stacks.frame(fid);
    out += '\t';
    out += store.strings.get(f.func);
    out += " @ 0x";
    add_hex(out, f.pc);
    out += "\n\t\t";
    out += store.strings.get(f.file);
    out += ':';
    add_u64(out, f.line);
    out += '\n';
  }
}

void append_go_event_string(std::string& out, const EventStore& store, size_t i, GoListing listing) {
  const bool go127 = listing == GoListing::Go127;
  EventView ev(store, i);
  const Context ctx = store.context(i);
  out += "M=";
  add_i64(out, ctx.m);
  out += " P=";
  add_i64(out, ctx.p);
  out += " G=";
  add_i64(out, ctx.g);
  out += ' ';
  EventKind kind = ev.kind();
  out += to_string(kind);
  out += " Time=";
  add_i64(out, ev.time());
  switch (kind) {
    case EventKind::Metric: {
      Metric m = ev.metric();
      out += " Name=";
      append_go_quoted(out, m.name);
      out += go127 ? " Value=Value{Uint64(" : " Value=Uint64(";
      add_u64(out, m.value);
      out += go127 ? ")}" : ")";
      break;
    }
    case EventKind::Label: {
      Label l = ev.label();
      out += " Label=";
      append_go_quoted(out, l.label);
      out += " Resource=";
      add_resource(out, l.resource);
      break;
    }
    case EventKind::RangeBegin:
    case EventKind::RangeActive:
    case EventKind::RangeEnd: {
      Range r = ev.range();
      out += " Name=";
      append_go_quoted(out, r.name);
      out += " Scope=";
      add_resource(out, r.scope);
      if (kind == EventKind::RangeEnd) {
        out += " Attributes=[";
        bool first = true;
        for (const RangeAttribute& a : ev.range_attributes()) {
          if (!first) out += ' ';
          first = false;
          append_go_quoted(out, a.name);
          out += go127 ? "=Value{Uint64(" : "=Uint64(";
          add_u64(out, a.value);
          out += go127 ? ")}" : ")";
        }
        out += ']';
      }
      break;
    }
    case EventKind::TaskBegin:
    case EventKind::TaskEnd: {
      Task t = ev.task();
      out += " ID=";
      add_u64(out, t.id);
      out += " Parent=";
      add_u64(out, t.parent);
      out += " Type=";
      append_go_quoted(out, t.type);
      break;
    }
    case EventKind::RegionBegin:
    case EventKind::RegionEnd: {
      Region r = ev.region();
      out += " Task=";
      add_u64(out, r.task);
      out += " Type=";
      append_go_quoted(out, r.type);
      break;
    }
    case EventKind::Log: {
      Log l = ev.log();
      out += " Task=";
      add_u64(out, l.task);
      out += " Category=";
      append_go_quoted(out, l.category);
      out += " Message=";
      append_go_quoted(out, l.message);
      break;
    }
    case EventKind::StateTransition: {
      StateTransition st = ev.state_transition();
      if (!go127) {
        out += " Resource=";
        add_resource(out, st.resource);
        out += " Reason=";
        append_go_quoted(out, st.reason);
      }
      if (st.resource.kind == ResourceKind::Goroutine) {
        out += " GoID=";
        add_i64(out, st.resource.id);
        out += ' ';
        out += to_string(st.go_from());
        out += "->";
        out += to_string(st.go_to());
      } else if (st.resource.kind == ResourceKind::Proc) {
        out += " ProcID=";
        add_i64(out, st.resource.id);
        out += ' ';
        out += to_string(st.proc_from());
        out += "->";
        out += to_string(st.proc_to());
      }
      if (go127) {
        out += " Reason=";
        append_go_quoted(out, st.reason);
        // Since Go 1.26 a status event's stack is the goroutine's own, and so its
        // transition's.
        if (ev.type() == EvGoStatusStack && ev.stack() != 0) {
          st.has_stack = true;
          st.stack = ev.stack();
        }
      }
      if (st.has_stack) {
        out += "\nTransitionStack=\n";
        append_go_frames(out, store, st.stack);
      }
      break;
    }
    case EventKind::Experimental: {
      Experimental e = ev.experimental();
      out += " Name=";
      out += e.name;
      if (go127) {
        out += " Args=[";
        for (size_t k = 0; k < e.args.size(); k++) {
          if (k) out += ", ";
          out += e.arg_names[k];
          out += "=Value{Uint64(";
          add_u64(out, e.args[k]);
          out += ")}";
        }
        out += ']';
        break;
      }
      out += " ArgNames=[";
      for (size_t k = 0; k < e.arg_names.size(); k++) {
        if (k) out += ' ';
        out += e.arg_names[k];
      }
      out += "] Args=[";
      for (size_t k = 0; k < e.args.size(); k++) {
        if (k) out += ' ';
        add_u64(out, e.args[k]);
      }
      out += ']';
      break;
    }
    case EventKind::Sync:
      if (go127) {
        SyncInfo sync = ev.sync();
        out += " N=";
        add_u64(out, sync.n);
        if (sync.clock) {
          out += " Trace=";
          add_i64(out, sync.clock->trace);
          out += " Mono=";
          add_u64(out, sync.clock->mono);
          out += " Wall=";
          append_rfc3339_nano(out, snapshot_wall(*sync.clock));
        }
      }
      break;
    default:
      break;
  }
  // A CPU sample's stack block is printed even when it has no stack (Go builds a
  // Stack value for it unconditionally).
  StackID stk = ev.stack();
  if (stk != 0 || ev.type() == EvCPUSample) {
    out += "\nStack=\n";
    append_go_frames(out, store, stk);
  }
}

}  // namespace gotrace
