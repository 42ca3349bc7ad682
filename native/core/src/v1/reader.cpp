#include "reader.h"

#include <optional>

#include "convert.h"
#include "decode.h"
#include "order.h"
#include "stream.h"
#include "time.h"
#include "validate.h"

namespace gotrace::v1 {

void read(std::span<const uint8_t> bytes, int go_minor, EventStore& store, const ReadOptions& options) {
  store.format.go_minor = go_minor;
  store.format.legacy = true;
  auto progress = [&](uint64_t done) {
    if (!options.on_progress) return;
    if (!options.on_progress(ReadProgress{done, bytes.size(), store.size()})) throw TraceError("canceled");
  };

  Trace t(go_minor, Rules::conversion(go_minor));
  decode(bytes, t);
  progress(bytes.size() / 2);

  if (t.go121() && t.recs.empty()) throw TraceError("trace is empty");
  if (t.go121() && !t.have_frequency) throw TraceError("no EvFrequency event");
  Stream stream = order_events(t);
  if (!t.have_frequency) throw TraceError("no EvFrequency event");
  progress(bytes.size() * 3 / 4);

  GenerationInfo gen;
  gen.number = 1;
  gen.frequency = t.ticks_per_sec;
  gen.file_offset = 16;
  gen.file_bytes = bytes.size() > 16 ? bytes.size() - 16 : 0;
  gen.batches = t.batch_count;
  store.generations.push_back(std::move(gen));

  // Go converts only a trace that passed validation as a whole. One pass reads the
  // stream back, converts each event's time, validates and converts it; an invalid trace
  // leaves no events behind, and a conversion error counts only if the whole trace is
  // valid.
  StreamReader reader(t, stream);
  const TimeConverter times(t, reader.first_ticks());
  Validator validator(t);
  Converter converter(t, store);
  std::optional<TraceError> conversion_error;
  // Go 1.27 puts a Sync just before the first event and one just after the last.
  const bool syncs = options.syncs == SyncPlacement::Go127;
  store.format.leading_syncs = syncs;
  auto sync = [&](Time at, uint32_t n) { store.push(at, v2::EvSyncOut, store.intern_context(Context{}), 0, n, 0, 0); };
  try {
    Event ev;
    bool blocks;
    std::string_view message;
    bool first = true;
    while (reader.next(ev, blocks, message)) {
      times.apply(ev);
      if (syncs && first) sync(ev.ts - 1, 0);
      first = false;
      validator.step(ev);
      if (conversion_error) [[unlikely]] continue;
      try {
        converter.step(ev, blocks, message);
      } catch (TraceError& e) {
        conversion_error = std::move(e);
        store.generations.back().event_count = store.size();
      }
    }
  } catch (TraceError&) {
    FormatInfo format = store.format;
    store = EventStore();
    store.format = format;
    throw;
  }
  if (conversion_error) throw *conversion_error;
  if (syncs) sync(converter.last_time() + 1, 1);
  store.generations.back().event_count = store.size();
  progress(bytes.size());
}

}  // namespace gotrace::v1
