// The v2 read loop (Go 1.22+): generation by generation, merge the threads' event
// streams through the ordering engine into the store (Go's Reader.ReadEvent).
#pragma once

#include <memory>
#include <span>

#include "gotrace/event_store.h"
#include "gotrace/reader.h"
#include "byte_window.h"

namespace gotrace::v2 {

// Where a read begins: at the first generation (the whole trace), or at a later one as
// the whole read went on there; and whether the trace ends where the bytes do.
struct ReadStart {
  uint64_t offset = 16;  // past the header
  const ResumePoint* resume = nullptr;
  bool at_trace_end = true;  // Go 1.27 ends the stream with a Sync
};

// Appends every event to `store`; throws TraceError at the first problem, with the
// events before it already stored.
void read(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work,
          const ReadStart& start = {});

// The same a generation at a time: step() reads the next one, false once the trace is
// read; it throws as read() does. The arguments must outlive it.
class Steps {
 public:
  Steps(ByteWindow& bytes, int go_minor, EventStore& store, const ReadOptions& options, ReadWork& work,
        const ReadStart& start = {});
  ~Steps();
  bool step();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gotrace::v2
