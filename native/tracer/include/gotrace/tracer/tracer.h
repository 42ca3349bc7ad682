// The C++ tracer runtime: records a C++ program's execution as a Go execution trace
// (Go 1.26's format, "go 1.26 trace", or Go 1.23's: Options::format), readable by gotrace
// and by Go's `go tool trace`.
//
//   gotrace::tracer::start(gotrace::tracer::file_sink("out.trace"));
//   ... the program runs; schedulers and threads report through scheduler.h,
//   ... threads.h and annotations.h ...
//   gotrace::tracer::Stats s = gotrace::tracer::stop();
//
// The design is Go's generation-based tracer (runtime/trace.go); see docs/tracer.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "gotrace/tracer/annotations.h"
#include "gotrace/tracer/scheduler.h"
#include "gotrace/tracer/sink.h"
#include "gotrace/tracer/threads.h"

namespace gotrace::tracer {

// The trace format written. Go 1.26's (which Go 1.27 still writes) has a sync batch with
// a clock snapshot in each generation and marks each generation's end; Go 1.23's reader
// and validator cannot read it, so Go 1.23's stays available.
enum class Format { go1_26, go1_23 };

struct Options {
  Format format = Format::go1_26;
  // How often the advancer ends a generation (Go's default: 1 s).
  std::chrono::nanoseconds generation_period = std::chrono::seconds(1);
  // Capture a stack (frame pointers) for events that carry one in Go's traces.
  bool stacks = true;
  // CPU profile samples per second of each traced thread's CPU time; 0 = none.
  int cpu_profile_hz = 0;
  // The most memory held in trace buffers: the generation being recorded, finished
  // generations the sink has not taken yet and the flight recorder's generations. When
  // it is reached, the generation being recorded is dropped whole (counted in Stats)
  // and the stream ends there, or goes on as a new segment (Sink::begin_segment).
  size_t max_buffer_bytes = size_t(64) << 20;
  // Flight recorder: keep the last N finished generations in memory for
  // write_flight_recording(); 0 = off.
  size_t flight_generations = 0;
  // ... and at most this many bytes of them (0 = half of max_buffer_bytes).
  size_t flight_max_bytes = 0;
};

struct Stats {
  uint64_t generations = 0;           // generations written to the sink
  uint64_t generations_dropped = 0;   // finished generations not written (see Options)
  uint64_t events = 0;                // events in the generations written (incl. CPU samples)
  uint64_t events_dropped = 0;        // events recorded but not written
  uint64_t bytes = 0;                 // bytes written to the sink
  uint64_t bytes_dropped = 0;
  uint64_t cpu_samples = 0;           // CPU samples in the generations written
  uint64_t cpu_samples_lost = 0;      // samples lost before reaching a generation
  uint64_t segments = 0;              // traces begun on the sink (1 unless data was dropped)
  uint64_t peak_buffer_bytes = 0;     // the most memory trace buffers held at once
  uint64_t misuse = 0;                // calls that could not be recorded (see docs/tracer.md)
  bool sink_failed = false;           // the sink refused a write
};

// Starts tracing into `sink` (which may be null with a flight recorder: its generations
// only). Returns false (and sets *error) if tracing is already on, the options are
// invalid, or there is neither a sink nor a flight recorder (file_sink gives no sink when
// it cannot create its file), or in a child forked while its parent traced.
bool start(std::unique_ptr<Sink> sink, const Options& options = {}, std::string* error = nullptr);

// Stops tracing; returns once every generation has been written to the sink. Does nothing
// (and returns the last trace's stats) if tracing is off.
Stats stop();

bool running();

// Ends the current generation now (the advancer also does this every period).
void advance();

// Counters of the trace being recorded (or of the last one).
Stats stats();

// The flight recorder (Options::flight_generations): ends the current generation, then
// writes a trace of the last finished generations to `sink`, on the calling thread.
struct FlightRecording {
  bool ok = false;
  uint64_t generations = 0;
  uint64_t events = 0;
  uint64_t bytes = 0;
  std::string error;
};
FlightRecording write_flight_recording(Sink& sink);

// The pairing of trace time and wall time. Go 1.23's format has no place for it (Go 1.25
// added a clock-snapshot batch that 1.23 readers reject), so the tracer takes one at
// the start of every generation and keeps it here instead of in the trace.
struct ClockSnapshot {
  uint64_t generation = 0;
  uint64_t trace_ticks = 0;   // trace clock (Frequency ticks per second)
  uint64_t frequency = 0;
  uint64_t mono_ns = 0;       // CLOCK_MONOTONIC
  int64_t wall_sec = 0;       // CLOCK_REALTIME
  int64_t wall_nsec = 0;
};
ClockSnapshot clock_snapshot();

}  // namespace gotrace::tracer
