// A streamed read handed to one consumer of events (StreamedSummary, StreamedMmu): made
// on the read's store with its first events (`make(store)`), or on the empty store when
// none came, and given every range of events in order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gotrace/reader.h"
#include "gotrace/streamed_read.h"

namespace gotrace::test {

template <class Make>
auto read_streamed_to(const std::vector<uint8_t>& bytes, ReadResult& r, Make make) {
  decltype(make(r.store)) out;
  read_streamed(bytes, r, [&](const EventStore& s, size_t from, size_t to) {
    if (!out) out = make(s);
    out->add(from, to);
  });
  if (!out) out = make(r.store);
  return out;
}

}  // namespace gotrace::test
