// A streamed read handed to one consumer of events (StreamedSummary, StreamedMmu): made
// on the read's store before it reads (`make(store)`: the read keeps its store where it
// is) and given every range of events in order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gotrace/reader.h"
#include "gotrace/streamed_read.h"

namespace gotrace::test {

template <class Make>
auto read_streamed_to(const std::vector<uint8_t>& bytes, ReadResult& r, Make make) {
  auto out = make(r.store);
  read_streamed(bytes, r, [&](const EventStore&, size_t from, size_t to) { out->add(from, to); });
  return out;
}

}  // namespace gotrace::test
