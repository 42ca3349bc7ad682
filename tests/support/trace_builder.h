// Builds v2 binary traces event by event, for tests that need traces no Go program
// writes (hostile ids, counts, orderings). Batch sizes are filled in automatically.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace gotrace::test {

class TraceBuilder {
 public:
  explicit TraceBuilder(int go_minor = 23);

  // Opens an event batch of thread m (closing the previous batch).
  TraceBuilder& batch(uint64_t gen, uint64_t m, uint64_t time = 0);
  // Appends a raw event to the open batch: its type byte, then each value as a varint.
  TraceBuilder& event(uint8_t type, std::initializer_list<uint64_t> values);
  // Appends raw bytes to the open batch.
  TraceBuilder& raw(std::initializer_list<uint8_t> bytes);
  // Whole structural batches of generation gen.
  TraceBuilder& frequency(uint64_t gen, uint64_t ticks_per_second = 15625000);
  TraceBuilder& strings(uint64_t gen, const std::vector<std::pair<uint64_t, std::string>>& table);
  TraceBuilder& stacks(uint64_t gen, const std::vector<std::pair<uint64_t, std::vector<uint64_t>>>& table);  // id -> 4 values per frame

  std::vector<uint8_t> bytes();

 private:
  void close_batch();
  std::vector<uint8_t> out_;
  std::vector<uint8_t> payload_;
  uint64_t gen_ = 0, m_ = 0, time_ = 0;
  bool open_ = false;
};

}  // namespace gotrace::test
