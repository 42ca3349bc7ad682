#include "gotrace/v1_legacy.h"

#include <charconv>
#include <cstring>
#include <new>

#include "strings_util.h"
#include "decode.h"
#include "event_string.h"
#include "futile.h"
#include "order.h"
#include "stream.h"
#include "time.h"
#include "validate.h"

namespace gotrace::v1 {

struct LegacyList::Impl {
  explicit Impl(int minor) : trace(minor, Rules::legacy_list()) {}
  Trace trace;
  std::vector<Event> events;  // in order
};

LegacyList::LegacyList() = default;
LegacyList::LegacyList(LegacyList&&) noexcept = default;
LegacyList& LegacyList::operator=(LegacyList&&) noexcept = default;
LegacyList::~LegacyList() = default;

size_t LegacyList::size() const { return impl_ ? impl_->events.size() : 0; }

LegacyEvent LegacyList::event(size_t i) const {
  const Event& ev = impl_->events[i];
  LegacyEvent out;
  out.ts = ev.ts;
  out.name = spec(ev.type).name;
  out.type = ev.type;
  out.p = ev.p;
  out.g = ev.g;
  out.off = ev.off;
  out.stack = ev.stk;
  out.args = {ev.args[0], ev.args[1], ev.args[2]};
  return out;
}

void LegacyList::append_line(std::string& out, size_t i) const {
  const Event& ev = impl_->events[i];
  append_go121_event_string(out, impl_->trace, ev);
  out += " stk=";
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, ev.stk);
  out.append(buf, r.ptr);
}

namespace {

// Go 1.21's parseHeader: "go " major "." minor (one to three digits, no leading zero)
// " trace", NUL-padded to 16 bytes; the version number is 1000 * major + minor.
int parse_go121_header(std::span<const uint8_t> bytes) {
  if (bytes.size() < 16) {
    throw TraceError(
        fmt("failed to read header: read %zu, err %s", bytes.size(), bytes.empty() ? "EOF" : "unexpected EOF"));
  }
  const uint8_t* b = bytes.data();
  auto digit = [](uint8_t c) { return c >= '0' && c <= '9'; };
  if (b[0] != 'g' || b[1] != 'o' || b[2] != ' ' || b[3] < '1' || b[3] > '9' || b[4] != '.' || b[5] < '1' ||
      b[5] > '9') {
    throw TraceError("not a trace file");
  }
  int ver = b[5] - '0';
  int i = 0;
  for (; i < 2 && digit(b[6 + i]); i++) ver = ver * 10 + (b[6 + i] - '0');
  ver += (b[3] - '0') * 1000;
  static const char kTail[] = " trace\0\0\0\0";
  if (std::memcmp(b + 6 + i, kTail, static_cast<size_t>(10 - i)) != 0) throw TraceError("not a trace file");
  if (ver / 1000 != 1 || !is_known_version(ver % 1000)) {
    throw TraceError(fmt("unsupported trace file version %d.%d (update Go toolchain) %d", ver / 1000, ver % 1000, ver));
  }
  return ver;
}

}  // namespace

LegacyList read_legacy(std::span<const uint8_t> bytes) {
  LegacyList list;
  try {
    int version = parse_go121_header(bytes);
    auto impl = std::make_unique<LegacyList::Impl>(version % 1000);
    Trace& t = impl->trace;
    decode(bytes, t);
    if (t.recs.empty()) throw TraceError("trace is empty");
    if (!t.have_frequency) throw TraceError("no EvFrequency event");
    Stream stream = order_events(t);
    StreamReader reader(t, stream);
    const TimeConverter times(t, reader.first_ticks());
    impl->events.reserve(stream.size());
    Event ev;
    bool blocks;
    std::string_view message;
    while (reader.next(ev, blocks, message)) {  // a UserLog's slot 2 indexes its message
      times.apply(ev);
      impl->events.push_back(ev);
    }
    if (t.rules.remove_futile) remove_futile_wakeups(impl->events);
    validate(t, impl->events);
    list.impl_ = std::move(impl);
    list.version_ = version;
  } catch (TraceError& e) {
    list.impl_.reset();
    list.version_ = 0;
    list.error_ = std::move(e);
  } catch (std::bad_alloc&) {
    list.impl_.reset();
    list.version_ = 0;
    list.error_ = TraceError("out of memory while reading the trace");
  }
  return list;
}

void append_legacy_dump_header(std::string& out, const LegacyList& list) {
  out += fmt("version %d\n", list.version());
  if (list.error()) {
    out += "error: ";
    out += list.error()->message();
    out += '\n';
  }
}

void append_legacy_dump(std::string& out, const LegacyList& list) {
  append_legacy_dump_header(out, list);
  for (size_t i = 0; i < list.size(); i++) {
    list.append_line(out, i);
    out += '\n';
  }
}

}  // namespace gotrace::v1
