// A trace file in memory for a streamed read: mapped, not copied, so that the pages a
// read has passed can be given back (a 1 GB trace need not be resident at once).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gotrace/event_store.h"

namespace gotrace::cli {

class MappedFile {
 public:
  // Maps a regular file; reads anything else ("-" for standard input, a pipe) whole.
  // Throws std::runtime_error with the OS's reason.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  // The bytes before `offset` are not needed for now: their pages leave memory (read
  // from the file again if they are touched).
  void release_before(uint64_t offset);

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::vector<uint8_t> copy_;  // when not mapped
};

// After a streamed read's generation: the bytes of the generations read so far.
void release_read_bytes(MappedFile& file, const EventStore& store);

}  // namespace gotrace::cli
