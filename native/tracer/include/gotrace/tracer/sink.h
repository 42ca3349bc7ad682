// Where finished generations go: any byte sink. The tracer writes the header, then each
// generation's batches in order, from its own output thread; a slow sink never blocks
// the traced program (see tracer.h, Options::max_buffer_bytes).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace gotrace::tracer {

class Sink {
 public:
  virtual ~Sink() = default;
  // Writes all of `bytes`. Returning false ends the stream (nothing more is written).
  virtual bool write(std::span<const uint8_t> bytes) = 0;
  // After data was dropped (the sink fell behind), the stream written so far is a
  // complete, valid trace that cannot be continued. A sink able to start a new trace
  // (another file, another message stream) returns true: the next complete generation
  // then opens a new trace with its own header. The default ends the stream.
  virtual bool begin_segment() { return false; }
  // A generation (with the header before the first) was written whole.
  virtual void generation_written() {}
  // A write failed part way through a generation: a sink that can takes back what it
  // has of it (file_sink cuts its file back to the last whole generation), so that what
  // it keeps is a complete trace.
  virtual void discard_partial_generation() {}
  // The trace is over.
  virtual void close() {}
};

// Writes to `path` (truncated). After a gap it continues in `path.1`, `path.2`, ... A
// write that fails (a full disk) cuts the file back to its last whole generation (empty
// if none was whole).
// Returns nullptr (and sets *error) if the file cannot be created.
std::unique_ptr<Sink> file_sink(const std::string& path, std::string* error = nullptr);

// Writes to an open file descriptor (a file, pipe or socket); does not close it.
std::unique_ptr<Sink> fd_sink(int fd);

// Hands each chunk to `fn`; `fn` returns false to end the stream.
std::unique_ptr<Sink> callback_sink(std::function<bool(std::span<const uint8_t>)> fn);

// Lends `sink` to the tracer while the caller keeps it (e.g. to read a MemorySink after
// stop()).
std::unique_ptr<Sink> shared_sink(std::shared_ptr<Sink> sink);

// Keeps the trace in memory, one byte vector per segment; safe to read while tracing.
class MemorySink : public Sink {
 public:
  explicit MemorySink(bool allow_segments = true) : allow_segments_(allow_segments) {}
  bool write(std::span<const uint8_t> bytes) override;
  bool begin_segment() override;
  size_t segments() const;
  std::vector<uint8_t> bytes(size_t segment = 0) const;

 private:
  mutable std::mutex mu_;
  bool allow_segments_;
  std::vector<std::vector<uint8_t>> segments_{1};
};

}  // namespace gotrace::tracer
