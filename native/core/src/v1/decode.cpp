#include "decode.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "strings_util.h"
#include "wire.h"

namespace gotrace::v1 {
namespace {

constexpr uint64_t kMaxStringLength = 1000000;   // both parsers' limit on strings
constexpr uint64_t kMaxFrames = 1000;            // and on frames per stack
constexpr uint64_t kGo123MaxEventLength = 2048;  // Go 1.23 only: length-prefixed events
constexpr uint64_t kMaxOffset = uint64_t{1} << Rec::kListShift;
// The fast path's limits: length-prefixed events up to this many bytes (a one-byte
// length), and values per event.
constexpr ptrdiff_t kMaxFastLength = 48;
constexpr unsigned kMaxFastValues = 6;

// The event's goroutine under its type's rule; `running` is its P's goroutine, updated.
inline uint64_t apply_g_rule(GRule rule, uint64_t& running, uint64_t arg0) {
  switch (rule) {
    case GRule::Current:
      return running;
    case GRule::Start:
      return running = arg0;
    case GRule::Stop: {
      uint64_t g = running;
      running = 0;
      return g;
    }
    case GRule::Argument:
      return arg0;
    case GRule::None:
      break;
  }
  return 0;
}

class Decoder {
 public:
  Decoder(std::span<const uint8_t> bytes, Trace& t)
      : base_(bytes.data()),
        p_(bytes.data() + std::min<size_t>(16, bytes.size())),
        end_(bytes.data() + bytes.size()),
        t_(t),
        go121_(t.go121()),
        v15_(t.minor < 7) {
    // The fast path takes timed events that need no check beyond their value count.
    for (int type = 0; type < 64; type++) {
      fast_[type] = t.layout[type].timed && t.layout[type].values <= kMaxFastValues && type != EvUserLog &&
                    !(go121_ && type == EvSTWStart);
    }
  }

  void run();

 private:
  [[noreturn]] void fail(std::string msg) const {
    ErrorLocation where;
    where.offset = off_;
    if (spec(type_).valid()) where.event = std::string(spec(type_).name);
    throw TraceError(std::move(msg), where);
  }
  uint64_t remaining() const { return static_cast<uint64_t>(end_ - p_); }
  uint64_t offset(const uint8_t* p) const { return static_cast<uint64_t>(p - base_); }
  std::string arg_error() const {
    return go121_ ? fmt("failed to read event %d argument at offset %llu", type_, (unsigned long long)off_)
                  : fmt("failed to read event %d argument: malformatted base-128 varint", type_);
  }

  template <bool kV15>
  void read_fast_run();
  void read_string_event();
  void read_values(unsigned bits);
  void read_user_log_message();
  void check_value_count(int want);
  void on_batch();
  void on_stack();
  void on_cpu_sample();
  void on_timed_event();
  void switch_to(int64_t p);

  const uint8_t* base_;
  const uint8_t* p_;
  const uint8_t* end_;
  Trace& t_;
  const bool go121_;
  const bool v15_;
  bool fast_[64] = {};

  // The event being read: its values, inline ones in a fixed array, length-prefixed
  // ones in a vector.
  uint64_t off_ = 0;
  uint8_t type_ = 0;
  const uint64_t* v_ = nullptr;
  size_t nv_ = 0;
  uint64_t inline_[8] = {};
  std::vector<uint64_t> lp_;
  std::string_view message_;

  // Go's parse state: the P of the last batch, the goroutine running on each P, and the
  // batch clock (and 1.5's sequence counter).
  bool have_batch_ = false;
  int64_t last_p_ = 0;
  uint32_t list_ = 0;
  uint64_t last_g_ = 0;
  uint64_t last_ts_ = 0;
  uint64_t last_seq_ = 0;
  FlatMap<uint64_t> last_gs_;
  FlatMap<uint32_t> list_index_;
  std::vector<uint32_t> samples_;
};

void Decoder::run() {
  if (static_cast<uint64_t>(end_ - base_) >= kMaxOffset) {
    throw TraceError("trace too large: the old format's reader handles up to 1 TiB");
  }
  t_.recs.reserve(static_cast<size_t>(remaining() / 5));
  lp_.reserve(64);
  while (p_ < end_) {
    // Nearly every event is a timed one with a few short values.
    if (have_batch_) {
      v15_ ? read_fast_run<true>() : read_fast_run<false>();
      if (p_ == end_) break;
    }
    off_ = offset(p_);
    uint8_t b = *p_++;
    type_ = b & 0x3f;
    unsigned bits = b >> 6;
    const EventSpec& sp = spec(type_);
    if (type_ == EvNone || type_ >= EvCount || sp.since > t_.minor) {
      fail(go121_ ? fmt("unknown event type %d at offset 0x%llx", type_, (unsigned long long)off_)
                  : fmt("unknown event type %d", type_));
    }
    if (type_ == EvString) {
      read_string_event();
      continue;
    }
    if (!go121_ && type_ == EvBatch && bits != 1) {
      fail(fmt("EvBatch has wrong number of arguments: got %u, want 2", bits + 1));
    }
    read_values(bits);
    message_ = {};
    if (type_ == EvUserLog) read_user_log_message();
    // Go 1.23 indexes batches first and gives up on anything before the first one;
    // Go 1.21 gives it to P 0, at time 0.
    if (!have_batch_ && type_ != EvBatch) {
      if (!go121_) fail(fmt("read event %d with current P of 0, but P has no batches yet", type_));
      switch_to(0);
      have_batch_ = true;
    }
    switch (type_) {
      case EvBatch:
        on_batch();
        break;
      case EvFrequency: {
        check_value_count(t_.layout[type_].values);
        // A non-positive frequency most likely comes from tick skew between CPUs.
        if (static_cast<int64_t>(v_[0]) <= 0) fail("time stamps out of order");
        t_.ticks_per_sec = v_[0];
        t_.have_frequency = true;
        break;
      }
      case EvTimerGoroutine:
        check_value_count(t_.layout[type_].values);
        t_.timer_goroutines[v_[0]] = 1;
        break;
      case EvStack:
        on_stack();
        break;
      case EvCPUSample:
        on_cpu_sample();
        break;
      default:
        on_timed_event();
    }
  }
  // The CPU samples are one more list, sorted by the time the signal handler took.
  if (!samples_.empty()) {
    std::stable_sort(samples_.begin(), samples_.end(),
                     [&](uint32_t a, uint32_t b) { return t_.recs[a].ts < t_.recs[b].ts; });
    auto list = static_cast<uint64_t>(t_.lists.size());
    for (uint32_t i : samples_) t_.recs[i].where |= list << Rec::kListShift;
    t_.lists.push_back(Trace::List{kProfileP, std::move(samples_)});
  }
  if (t_.lists.size() >= Rec::kMaxLists) throw TraceError("trace has too many Ps");
}

// Timed events whose values are all inline and short, as nearly all are: decoded a word
// at a time, with the parse state in locals, until an event needs the checked path.
// Specialized for 1.5's layout (a sequence delta before the tick delta) and the others'.
template <bool kV15>
void Decoder::read_fast_run() {
  const uint8_t* p = p_;
  const uint8_t* const base = base_;
  const uint8_t* const end = end_;
  constexpr unsigned kFirst = kV15 ? 2 : 1;  // the first argument, after the deltas
  // Go 1.23 keeps stack IDs as 32 bits.
  const uint64_t stack_mask = go121_ ? ~uint64_t{0} : uint64_t{0xffffffff};
  const uint64_t where_list = uint64_t(list_) << Rec::kListShift;
  uint64_t ts = last_ts_, g = last_g_, seq = last_seq_;
  std::vector<Rec>& recs = t_.recs;
  std::vector<uint32_t>& list = t_.lists[list_].events;
  constexpr size_t kMaxEvents = std::numeric_limits<uint32_t>::max() / 4;
  size_t index = recs.size();
  // Room for the longest fast event (a type byte, a length byte and kMaxFastLength bytes
  // of values, read 8 at a time) and for its position in the merged stream (30 bits, two
  // flag bits beside them).
  for (; end - p >= 2 + kMaxFastLength + 8 && index < kMaxEvents; index++) {
    const uint8_t b = *p;
    const uint8_t type = b & 0x3f;
    const Layout& l = t_.layout[type];
    if (!fast_[type]) break;
    uint64_t v[kMaxFastValues];
    const uint8_t* q;
    if ((b >> 6) != 3) {
      const unsigned n = (b >> 6) + kFirst;
      if (n != l.values) break;
      q = p + 1;
      unsigned i = 0;
      for (; i < n; i++) {
        unsigned len = decode_short_varint(q, v[i]);
        if (len == 0) break;
        q += len;
      }
      if (i != n) break;
    } else {
      // Length-prefixed: the values must fill the length exactly.
      const uint8_t length = p[1];
      if (length > kMaxFastLength) break;
      q = p + 2;
      const uint8_t* const stop = q + length;
      unsigned i = 0;
      for (; i < l.values && q < stop; i++) {
        unsigned len = decode_short_varint(q, v[i]);
        if (len == 0 || len > static_cast<size_t>(stop - q)) break;
        q += len;
      }
      if (i != l.values || q != stop) break;
    }
    Rec& r = recs.emplace_back();
    r.where = static_cast<uint64_t>(p - base) | where_list | uint64_t(type) << Rec::kTypeShift;
    p = q;
    if constexpr (kV15) seq += v[0];
    ts += v[kFirst - 1];
    r.ts = static_cast<int64_t>(ts);
    const uint64_t* a = v + kFirst;
    r.args[0] = l.nargs > 0 ? a[0] : 0;
    r.args[1] = l.nargs > 1 ? a[1] : 0;
    r.args[2] = l.nargs > 2 ? a[2] : 0;
    if (l.stack) {
      const uint64_t stk = v[l.values - 1] & stack_mask;
      if (stk >= Rec::kWideStack) [[unlikely]] {
        r.stk = Rec::kWideStack;
        t_.wide_stacks[index] = stk;
      } else {
        r.stk = static_cast<uint32_t>(stk);
      }
    }
    r.g = apply_g_rule(l.g, g, r.args[0]);
    list.push_back(static_cast<uint32_t>(index));
    if constexpr (kV15) t_.seqs.push_back(seq);
  }
  p_ = p;
  last_ts_ = ts;
  last_g_ = g;
  last_seq_ = seq;
}

void Decoder::read_string_event() {
  uint64_t id, len;
  if (!read_value(p_, end_, id, go121_) || !read_value(p_, end_, len, go121_)) {
    fail(go121_ ? fmt("failed to read string at offset %llu", (unsigned long long)off_)
                : "malformatted base-128 varint");
  }
  // Go 1.23 first skips over every string while it indexes the batches, and checks the
  // strings themselves only when it loads their batch; it never loads bytes before the
  // first batch, so it keeps no string from there.
  if (!go121_ && len > remaining()) fail("failed to read trace: EOF");
  bool keep = go121_ || have_batch_;
  if (keep) {
    if (id == 0) {
      fail(go121_ ? fmt("string at offset %llu has invalid id 0", (unsigned long long)off_)
                  : "string has invalid id 0");
    }
    if (t_.string_index.contains(id)) {
      fail(go121_ ? fmt("string at offset %llu has duplicate id %llu", (unsigned long long)off_, (unsigned long long)id)
                  : fmt("string has duplicate id %llu", (unsigned long long)id));
    }
    if (len == 0) {
      fail(go121_ ? fmt("string at offset %llu has invalid length 0", (unsigned long long)off_)
                  : "string has invalid length 0");
    }
    if (len > kMaxStringLength) {
      fail(go121_ ? fmt("string at offset %llu has too large length %llu", (unsigned long long)off_,
                        (unsigned long long)len)
                  : fmt("string has too large length %llu", (unsigned long long)len));
    }
  }
  if (len > remaining()) {
    fail(fmt("failed to read trace at offset %llu: want %llu bytes, have %llu", (unsigned long long)off_,
             (unsigned long long)len, (unsigned long long)remaining()));
  }
  if (keep) {
    t_.string_index[id] = static_cast<uint32_t>(t_.string_data.size());
    t_.string_data.emplace_back(reinterpret_cast<const char*>(p_), static_cast<size_t>(len));
  }
  p_ += len;
}

void Decoder::read_values(unsigned bits) {
  // Two bits of inline count; 3 means a length prefix. Go 1.5 counts neither the
  // sequence nor the tick delta, later versions count the tick delta only.
  if (bits < 3) {
    unsigned n = bits + 1 + (v15_ ? 1 : 0);
    for (unsigned i = 0; i < n; i++) {
      if (!read_value(p_, end_, inline_[i], go121_)) fail(arg_error());
    }
    v_ = inline_;
    nv_ = n;
    return;
  }
  uint64_t len;
  if (!read_value(p_, end_, len, go121_)) fail(arg_error());
  if (!go121_ && len > kGo123MaxEventLength) {
    fail(fmt("failed to read event %d argument: length-prefixed argument too big: %llu bytes, limit is 2048", type_,
             (unsigned long long)len));
  }
  if (len > remaining()) {
    fail(go121_ ? fmt("event has wrong length at offset 0x%llx: want %llu, have %llu bytes", (unsigned long long)off_,
                      (unsigned long long)len, (unsigned long long)remaining())
                : "failed to read trace: EOF");
  }
  lp_.clear();
  const uint8_t* q = p_;
  const uint8_t* stop = p_ + len;
  while (q < stop) {
    uint64_t v;
    if (!read_value(q, stop, v, go121_)) {
      fail(go121_ ? fmt("event has wrong length at offset 0x%llx: want %llu", (unsigned long long)off_,
                        (unsigned long long)len)
                  : "malformatted base-128 varint");
    }
    lp_.push_back(v);
  }
  p_ = stop;
  v_ = lp_.data();
  nv_ = lp_.size();
}

void Decoder::read_user_log_message() {
  uint64_t len;
  if (!read_value(p_, end_, len, go121_)) fail(arg_error());
  // Go 1.23 skips the message while indexing and checks its size only on loading.
  if (!go121_ && len > remaining()) fail("EOF");
  if (len > kMaxStringLength) {
    fail(go121_
             ? fmt("string at offset %llu is too large (len=%llu)", (unsigned long long)off_, (unsigned long long)len)
             : fmt("string is too large (len=%llu)", (unsigned long long)len));
  }
  if (len > remaining()) {
    fail(fmt("failed to read trace at offset %llu: want %llu bytes, have %llu", (unsigned long long)off_,
             (unsigned long long)len, (unsigned long long)remaining()));
  }
  message_ = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(len));
  p_ += len;
}

void Decoder::check_value_count(int want) {
  if (nv_ == static_cast<size_t>(want)) return;
  std::string name(spec(type_).name);
  if (go121_) {
    fail(fmt("%s has wrong number of arguments at offset 0x%llx: want %d, got %zu", name.c_str(),
             (unsigned long long)off_, want, nv_));
  }
  if (type_ == EvCPUSample) fail(fmt("CPU sample has wrong number of arguments: want %d, got %zu", want, nv_));
  fail(fmt("%s has wrong number of arguments: want %d, got %zu", name.c_str(), want, nv_));
}

// Events from here on belong to P p: Go keeps the goroutine running on each P across
// its batches.
void Decoder::switch_to(int64_t p) {
  last_gs_[static_cast<uint64_t>(last_p_)] = last_g_;
  last_p_ = p;
  const uint64_t* g = last_gs_.find(static_cast<uint64_t>(p));
  last_g_ = g ? *g : 0;
  auto [slot, inserted] = list_index_.try_emplace(static_cast<uint64_t>(p));
  if (inserted) {
    *slot = static_cast<uint32_t>(t_.lists.size());
    t_.lists.push_back(Trace::List{p, {}});
  }
  list_ = *slot;
}

void Decoder::on_batch() {
  check_value_count(t_.layout[type_].values);
  uint64_t pid = v_[0];
  int64_t p;
  if (pid == ~uint64_t{0}) {
    p = -1;  // the global buffer, used when no P is held
  } else if (!go121_ && pid > uint64_t(std::numeric_limits<int32_t>::max())) {
    fail(fmt("processor ID %llu is larger than maximum of %llu", (unsigned long long)pid,
             (unsigned long long)std::numeric_limits<uint64_t>::max()));
  } else {
    p = static_cast<int64_t>(pid);
  }
  have_batch_ = true;
  t_.batch_count++;
  switch_to(p);
  if (v15_) {
    last_seq_ = v_[1];
    last_ts_ = v_[2];
  } else {
    last_ts_ = v_[1];
  }
}

void Decoder::on_stack() {
  if (nv_ < 2) {
    fail(go121_ ? fmt("EvStack has wrong number of arguments at offset 0x%llx: want at least 2, got %zu",
                      (unsigned long long)off_, nv_)
                : fmt("EvStack has wrong number of arguments: want at least 2, got %zu", nv_));
  }
  uint64_t size = v_[1];
  if (size > kMaxFrames) {
    fail(go121_ ? fmt("EvStack has bad number of frames at offset 0x%llx: %llu", (unsigned long long)off_,
                      (unsigned long long)size)
                : fmt("EvStack has bad number of frames: %llu", (unsigned long long)size));
  }
  // 1.5 stacks are bare PCs; later ones {pc, func, file, line} per frame.
  uint64_t per_frame = v15_ ? 1 : 4;
  uint64_t want = 2 + per_frame * size;
  if (nv_ != want) {
    fail(go121_ ? fmt("EvStack has wrong number of arguments at offset 0x%llx: want %llu, got %zu",
                      (unsigned long long)off_, (unsigned long long)want, nv_)
                : fmt("EvStack has wrong number of arguments: want %llu, got %zu", (unsigned long long)want, nv_));
  }
  uint64_t id = go121_ ? v_[0] : uint64_t(static_cast<uint32_t>(v_[0]));
  if (id == 0 || size == 0) return;  // neither parser keeps these
  Trace::Span span{static_cast<uint32_t>(t_.stack_pcs.size()), static_cast<uint32_t>(size)};
  for (uint64_t i = 0; i < size; i++) {
    const uint64_t* f = &v_[2 + i * per_frame];
    t_.stack_pcs.push_back(f[0]);
    auto [info, inserted] = t_.pcs.try_emplace(f[0]);
    if (inserted && !v15_) *info = PcInfo{f[1], f[2], f[3]};
  }
  auto [slot, inserted] = t_.stack_index.try_emplace(id);
  if (inserted) {
    *slot = static_cast<uint32_t>(t_.stack_spans.size());
    t_.stack_spans.push_back(span);
  } else {
    t_.stack_spans[*slot] = span;  // a later definition replaces the earlier one
  }
}

void Decoder::on_cpu_sample() {
  check_value_count(t_.layout[type_].values);
  // Go 1.21 treats a sample like any event first, so its delta moves the batch clock.
  if (go121_) last_ts_ += v_[0];
  // Samples are written late, by a separate goroutine; they are merged from a list of
  // their own, ordered by the time in their arguments. Go clears the time slot.
  Rec r;
  r.ts = static_cast<int64_t>(v_[1]);
  r.g = v_[3];
  r.args[0] = 0;
  r.args[1] = v_[2];
  r.args[2] = v_[3];
  r.where = off_ | uint64_t(EvCPUSample) << Rec::kTypeShift;
  uint64_t stk = go121_ ? v_[4] : uint64_t(static_cast<uint32_t>(v_[4]));
  auto index = static_cast<uint32_t>(t_.recs.size());
  if (stk >= Rec::kWideStack) {
    r.stk = Rec::kWideStack;
    t_.wide_stacks[index] = stk;
  } else {
    r.stk = static_cast<uint32_t>(stk);
  }
  if (t_.recs.size() >= std::numeric_limits<uint32_t>::max() / 4) fail("trace has too many events");
  samples_.push_back(index);
  t_.recs.push_back(r);
  if (v15_) t_.seqs.push_back(0);
}

void Decoder::on_timed_event() {
  const Layout& l = t_.layout[type_];
  check_value_count(l.values);
  if (go121_ && type_ == EvSTWStart) {
    uint64_t kind = t_.minor >= 10 ? v_[l.first] : 0;
    std::string_view name;
    if (!legacy_stw_kind(t_.minor, kind, name)) fail(fmt("unknown STW kind %llu", (unsigned long long)kind));
  }
  if (v15_) last_seq_ += v_[0];
  last_ts_ += v_[l.first - 1];
  // Positions in the merged stream are 30 bits (two flag bits beside them).
  if (t_.recs.size() >= std::numeric_limits<uint32_t>::max() / 4) fail("trace has too many events");
  auto index = static_cast<uint32_t>(t_.recs.size());
  Rec& r = t_.recs.emplace_back();
  r.ts = static_cast<int64_t>(last_ts_);
  const uint64_t* a = v_ + l.first;
  r.args[0] = l.nargs > 0 ? a[0] : 0;
  r.args[1] = l.nargs > 1 ? a[1] : 0;
  r.args[2] = l.nargs > 2 ? a[2] : 0;
  r.where = off_ | uint64_t(list_) << Rec::kListShift | uint64_t(type_) << Rec::kTypeShift;
  if (l.stack) {
    uint64_t stk = go121_ ? v_[l.values - 1] : uint64_t(static_cast<uint32_t>(v_[l.values - 1]));
    if (stk >= Rec::kWideStack) {
      r.stk = Rec::kWideStack;
      t_.wide_stacks[index] = stk;
    } else {
      r.stk = static_cast<uint32_t>(stk);
    }
  }
  r.g = apply_g_rule(l.g, last_g_, r.args[0]);
  if (type_ == EvUserLog) {  // slot 2 holds the message
    r.args[2] = t_.messages.size();
    t_.messages.push_back(message_);
  }
  t_.lists[list_].events.push_back(index);
  if (v15_) t_.seqs.push_back(last_seq_);
}

}  // namespace

void decode(std::span<const uint8_t> bytes, Trace& t) {
  t.bytes = bytes;
  Decoder d(bytes, t);
  d.run();
}

}  // namespace gotrace::v1
