#include "generation.h"

#include <algorithm>
#include <string>

#include "byte_reader.h"
#include "go_numbers.h"
#include "gotrace/v2_spec.h"
#include "strings_util.h"

namespace gotrace::v2 {
namespace {

[[noreturn]] void fail(std::string msg, const Generation* g, const Batch* b, uint64_t offset) {
  ErrorLocation where;
  where.offset = offset;
  if (g && g->number) where.generation = g->number;
  if (b) {
    where.batch_offset = b->offset;
    if (b->m != kNoThread) where.thread = b->m;
  }
  throw TraceError(std::move(msg), where);
}

}  // namespace

GenerationReader::GenerationReader(ByteWindow& file, uint64_t start, int go_minor, EventStore& store)
    : file_(file), pos_(start), go_minor_(go_minor), store_(store) {}

// A batch's header: its kind, experiment, and four varints of at most 10 bytes.
constexpr size_t kMaxBatchHeader = 64;

bool GenerationReader::read_batch(Batch& b) {
  const std::span<const uint8_t> head = file_.fetch(pos_, kMaxBatchHeader);
  ByteReader r(head.data(), head.data() + head.size(), pos_);
  b = Batch{};
  b.offset = pos_;
  uint8_t kind;
  if (!r.read_byte(kind)) return false;
  if (kind == EvEndOfGeneration) {
    // Go reads the byte as a batch of generation 0 in every version; before Go 1.26 that
    // fails the generation it falls in ("invalid generation number 0").
    pos_ = b.offset + 1;
    return true;
  }
  if (kind != EvEventBatch && kind != EvExperimentalBatch) {
    fail(fmt("expected batch event, got event %d", kind), nullptr, &b, b.offset);
  }
  if (kind == EvExperimentalBatch) {
    // Go reads this byte with ReadByte and treats its EOF as the end of the trace.
    if (!r.read_byte(b.experiment)) {
      pos_ = file_.size();
      return false;
    }
  }
  uint64_t m = 0, size = 0;
  const char* err;
  if ((err = r.read_uvarint(b.gen))) fail(fmt("error reading batch gen: %s", err), nullptr, &b, r.offset());
  if ((err = r.read_uvarint(m))) fail(fmt("error reading batch M ID: %s", err), nullptr, &b, r.offset());
  b.m = static_cast<ThreadID>(m);
  if ((err = r.read_uvarint(b.time))) fail(fmt("error reading batch timestamp: %s", err), nullptr, &b, r.offset());
  if ((err = r.read_uvarint(size))) fail(fmt("error reading batch size: %s", err), nullptr, &b, r.offset());
  if (size > static_cast<uint64_t>(kMaxBatchSize)) {
    fail(fmt("invalid batch size %llu, maximum is %d", (unsigned long long)size, kMaxBatchSize), nullptr, &b, r.offset());
  }
  b.data_offset = r.offset();
  const std::span<const uint8_t> data = file_.fetch(b.data_offset, static_cast<size_t>(size));
  if (data.size() < size) {
    fail(fmt("failed to read full batch: read %zu but wanted %llu", data.size(), (unsigned long long)size), nullptr, &b,
         b.data_offset);
  }
  b.data = data.data();
  b.size = static_cast<uint32_t>(size);
  pos_ = b.data_offset + size;
  return true;
}

void GenerationReader::place_batches(Generation& g) {
  for (ThreadBatches& t : g.threads)
    for (Batch& b : t.batches) b.data = file_.at(b.data_offset);
  if (spill_) spill_->data = file_.at(spill_->data_offset);
}

void GenerationReader::process_batch(Generation& g, const Batch& b) {
  g.batch_count++;
  g.file_end = b.data_offset + b.size;
  uint8_t first = b.size ? b.data[0] : 0;
  bool sync_format = go_minor_ >= 25;
  if (b.experiment == 0 && b.size > 0) {
    if (first == EvStrings) return add_strings(g, b);
    if (first == EvStacks) return add_stacks(g, b);
    if (first == EvCPUSamples) return add_cpu_samples(g, b);
    if (!sync_format && first == EvFrequency) return parse_frequency(g, b);
    if (sync_format && first == EvSync) return parse_sync(g, b);
  }
  if (b.experiment != 0) {
    g.experimental.push_back({b.experiment, b.m, std::vector<uint8_t>(b.data, b.data + b.size)});
    return;
  }
  // Threads are few; a linear scan from the most recent one is enough.
  for (size_t k = g.threads.size(); k-- > 0;) {
    if (g.threads[k].m == b.m) {
      g.threads[k].batches.push_back(b);
      return;
    }
  }
  g.threads.push_back({b.m, {b}});
}

void GenerationReader::add_strings(Generation& g, const Batch& b) {
  ByteReader r(b.data, b.data + b.size, b.data_offset);
  r.skip(1);
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t ev;
    r.read_byte(ev);
    if (ev != EvString) fail(fmt("expected string event, got %d", ev), &g, &b, at);
    uint64_t id, len;
    if (const char* err = r.read_uvarint(id)) fail(err, &g, &b, r.offset());
    if (const char* err = r.read_uvarint(len)) fail(err, &g, &b, r.offset());
    if (len > static_cast<uint64_t>(kMaxStringSize)) {
      fail(fmt("invalid string size %llu, maximum is %d", (unsigned long long)len, kMaxStringSize), &g, &b, at);
    }
    if (r.remaining() < len) {
      fail(fmt("failed to read full string: read %zu but wanted %llu", r.remaining(), (unsigned long long)len), &g, &b,
           r.offset());
    }
    std::string_view s(reinterpret_cast<const char*>(r.pos()), len);
    r.skip(len);
    if (id == 0 || !g.strings.insert(id, store_.strings.intern(s))) {
      std::string existing = id == 0 ? "" : std::string(store_.strings.get(g.strings.get(id)));
      fail(fmt("multiple strings with the same ID: id=%llu, new=%s, existing=%s", (unsigned long long)id,
               std::string(s).c_str(), existing.c_str()),
           &g, &b, at);
    }
  }
}

void GenerationReader::add_stacks(Generation& g, const Batch& b) {
  ByteReader r(b.data, b.data + b.size, b.data_offset);
  r.skip(1);
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t ev;
    r.read_byte(ev);
    if (ev != EvStack) fail(fmt("expected stack event, got %d", ev), &g, &b, at);
    uint64_t id, nframes;
    if (const char* err = r.read_uvarint(id)) fail(err, &g, &b, r.offset());
    if (const char* err = r.read_uvarint(nframes)) fail(err, &g, &b, r.offset());
    if (nframes > static_cast<uint64_t>(kMaxFramesPerStack)) {
      fail(fmt("invalid stack size %llu, maximum is %d", (unsigned long long)nframes, kMaxFramesPerStack), &g, &b, at);
    }
    PendingStack ps{id, static_cast<uint32_t>(stack_pcs_.size()), static_cast<uint32_t>(nframes)};
    static const char* const kField[] = {"PC", "funcID", "fileID", "line"};
    for (uint64_t i = 0; i < nframes; i++) {
      uint64_t v[4];
      for (int f = 0; f < 4; f++) {
        if (const char* err = r.read_uvarint(v[f])) {
          fail(fmt("reading frame %llu's %s for stack %llu: %s", (unsigned long long)(i + 1), kField[f],
                   (unsigned long long)id, err),
               &g, &b, r.offset());
        }
      }
      stack_pcs_.push_back(v[0]);
      auto [frame, inserted] = pcs_.try_emplace(v[0]);
      if (inserted) *frame = PendingFrame{v[1], v[2], v[3]};
    }
    // Stack ids must be unique and non-zero (Go's dataTable.insert).
    if (id == 0 || !g.stacks.insert(id, static_cast<uint32_t>(pending_stacks_.size()))) {
      fail(fmt("multiple stacks with the same ID: id=%llu", (unsigned long long)id), &g, &b, at);
    }
    pending_stacks_.push_back(ps);
  }
}

void GenerationReader::add_cpu_samples(Generation& g, const Batch& b) {
  ByteReader r(b.data, b.data + b.size, b.data_offset);
  r.skip(1);
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t ev;
    r.read_byte(ev);
    if (ev != EvCPUSample) fail(fmt("expected CPU sample event, got %d", ev), &g, &b, at);
    uint64_t v[5];
    for (auto& x : v) {
      if (const char* err = r.read_uvarint(x)) fail(err, &g, &b, r.offset());
    }
    CpuSample s;
    s.time = static_cast<Time>(v[0]);
    s.ctx.m = static_cast<ThreadID>(v[1]);
    s.ctx.p = static_cast<ProcID>(v[2]);
    s.ctx.g = v[3] == 0 ? kNoGoroutine : static_cast<GoID>(v[3]);
    s.stack = v[4];
    s.offset = at;
    g.cpu_samples.push_back(s);
  }
}

// Before Go 1.25 the sync batch holds frequency events only (Go 1.25+ rejects anything
// else in it, where Go 1.23 read the first event and ignored the rest).
void GenerationReader::parse_frequency(Generation& g, const Batch& b) {
  ByteReader r(b.data, b.data + b.size, b.data_offset);
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t ev;
    r.read_byte(ev);
    if (ev != EvFrequency) fail(fmt("expected frequency or clock snapshot event, got %d", ev), &g, &b, at);
    if (g.ns_per_tick != 0) fail("found multiple frequency events", &g, &b, at);
    uint64_t f;
    if (const char* err = r.read_uvarint(f)) fail(err, &g, &b, r.offset());
    g.set_frequency(f);
  }
}

void GenerationReader::parse_sync(Generation& g, const Batch& b) {
  ByteReader r(b.data, b.data + b.size, b.data_offset);
  r.skip(1);
  while (!r.at_end()) {
    uint64_t at = r.offset();
    uint8_t ev;
    r.read_byte(ev);
    if (ev == EvFrequency) {
      uint64_t f;
      if (const char* err = r.read_uvarint(f)) fail(err, &g, &b, r.offset());
      if (g.ns_per_tick != 0) fail("found multiple frequency events", &g, &b, at);
      g.set_frequency(f);
    } else if (ev == EvClockSnapshot) {
      uint64_t dt, mono, sec, nsec;
      for (uint64_t* x : {&dt, &mono, &sec, &nsec}) {
        if (const char* err = r.read_uvarint(*x)) fail(err, &g, &b, r.offset());
      }
      if (g.clock) fail("found multiple clock snapshot events", &g, &b, at);
      // The trace time is converted once the frequency is known (finish).
      g.clock = ClockSnapshot{static_cast<Time>(b.time + dt), mono, sec, nsec};
    } else {
      fail(fmt("expected frequency or clock snapshot event, got %d", ev), &g, &b, at);
    }
  }
}

void GenerationReader::finish(Generation& g) {
  if (g.ns_per_tick == 0) fail("no frequency event found", &g, nullptr, g.file_offset);
  if (go_minor_ >= 25) {
    if (!g.clock) fail("no clock snapshot event found", &g, nullptr, g.file_offset);
    g.clock->trace = g.ns(static_cast<uint64_t>(g.clock->trace));
  }

  // Every frame's strings must be in the generation. Go checks the stacks in ascending id
  // order (its table of them is dense): the stack named is the one Go names.
  std::vector<uint32_t> by_id(pending_stacks_.size());
  for (uint32_t k = 0; k < by_id.size(); k++) by_id[k] = k;
  std::sort(by_id.begin(), by_id.end(), [&](uint32_t a, uint32_t b) { return pending_stacks_[a].id < pending_stacks_[b].id; });
  for (uint32_t k : by_id) {
    const PendingStack& ps = pending_stacks_[k];
    auto check = [&](uint64_t string, const char* what) {
      if (string != 0 && g.strings.get(string) == LocalIds::kMissing) {
        fail(fmt("found invalid %s string ID %llu for stack %llu", what, (unsigned long long)string,
                 (unsigned long long)ps.id),
             &g, nullptr, g.file_offset);
      }
    };
    for (uint32_t i = 0; i < ps.npcs; i++) {
      const PendingFrame& f = *pcs_.find(stack_pcs_[ps.first_pc + i]);
      check(f.func, "func");
      check(f.file, "file");
    }
  }

  // Resolve every stack's frames through the generation's pc table and intern them (in
  // the order they were read: the store's stack ids follow it).
  std::vector<uint32_t> global_of_pending(pending_stacks_.size());
  std::vector<FrameID> frames;
  for (size_t k = 0; k < pending_stacks_.size(); k++) {
    const PendingStack& ps = pending_stacks_[k];
    frames.clear();
    for (uint32_t i = 0; i < ps.npcs; i++) {
      uint64_t pc = stack_pcs_[ps.first_pc + i];
      const PendingFrame& f = *pcs_.find(pc);
      const uint32_t func = f.func == 0 ? 0 : g.strings.get(f.func), file = f.file == 0 ? 0 : g.strings.get(f.file);
      frames.push_back(store_.stacks.intern_frame(Frame{pc, func, file, f.line}));
    }
    global_of_pending[k] = store_.stacks.intern(frames);
  }
  LocalIds stacks;
  g.stacks.for_each([&](uint64_t id, uint32_t pending) { stacks.insert(id, global_of_pending[pending]); });
  g.stacks = std::move(stacks);
  stack_pcs_.clear();
  pending_stacks_.clear();
  pcs_.clear();

  for (CpuSample& s : g.cpu_samples) s.time = g.ns(static_cast<uint64_t>(s.time));
  std::stable_sort(g.cpu_samples.begin(), g.cpu_samples.end(),
                   [](const CpuSample& x, const CpuSample& y) { return x.time < y.time; });
}

std::unique_ptr<Generation> GenerationReader::next(std::optional<TraceError>& deferred) {
  if (go_minor_ >= 26) return next_with_end_marker();
  // Like Go, read a generation only at the start or when one has been spilled: a
  // trace with a header and nothing else fails with "no frequency event found".
  if (started_ && !spill_) return nullptr;
  started_ = true;
  return next_delimited_by_number(deferred);
}

std::unique_ptr<Generation> GenerationReader::next_delimited_by_number(std::optional<TraceError>& deferred) {
  auto g = std::make_unique<Generation>();
  g->file_offset = pos_;
  file_.drop_before(spill_ ? spill_->offset : pos_);  // the generation before is done with
  if (spill_) {
    g->number = spill_->gen;
    g->file_offset = spill_->offset;
    spill_->data = file_.at(spill_->data_offset);
    Batch b = *spill_;
    spill_.reset();
    g->min_ts = b.time;
    process_batch(*g, b);
  }
  for (;;) {
    Batch b;
    try {
      if (!read_batch(b)) break;
    } catch (SourceReadError&) {
      throw;
    } catch (TraceError& e) {
      if (g->number == 0) throw;
      deferred = std::move(e);
      break;
    }
    if (b.gen == 0) fail("invalid generation number 0", g.get(), &b, b.offset);
    if (g->number == 0) g->number = b.gen;
    if (b.gen == g->number + 1) {
      spill_ = b;
      break;
    }
    if (b.gen != g->number) fail("generations out of order", g.get(), &b, b.offset);
    g->see_batch_time(b.time);
    process_batch(*g, b);
  }
  finish(*g);
  place_batches(*g);
  return g;
}

std::unique_ptr<Generation> GenerationReader::next_with_end_marker() {
  auto g = std::make_unique<Generation>();
  g->file_offset = pos_;
  file_.drop_before(pos_);  // the generation before is done with
  bool any = false;  // a batch read (its gen is the generation's)
  // The trace ends cleanly where it ends, unless an event batch was read: a writer that
  // stopped after a generation's sync, string or stack batches left no events (Go
  // counts event batches alone).
  auto at_end = [&] {
    if (!g->threads.empty()) fail("incomplete generation found; trace likely truncated", g.get(), nullptr, pos_);
    return nullptr;
  };
  for (;;) {
    if (pos_ >= file_.size()) return at_end();
    if (file_.fetch(pos_, 1)[0] == EvEndOfGeneration) {
      // With no batch before it, finish() finds no frequency, as Go does.
      pos_++;
      break;
    }
    Batch b;
    if (!read_batch(b)) return at_end();
    if (b.gen == 0) fail("invalid generation number 0", g.get(), &b, b.offset);
    if (!any) g->number = b.gen;
    if (b.gen != g->number) {
      fail("broken trace: missing end-of-generation event, or generations are interleaved", g.get(), &b, b.offset);
    }
    any = true;
    g->see_batch_time(b.time);
    process_batch(*g, b);
  }
  finish(*g);
  place_batches(*g);
  return g;
}

}  // namespace gotrace::v2
