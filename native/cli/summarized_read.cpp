#include "summarized_read.h"

#include "gotrace/streamed_read.h"

namespace gotrace::cli {

std::unique_ptr<SummarizedTrace> read_summarized(const std::string& path) {
  auto out = std::make_unique<SummarizedTrace>();  // on the heap: the summary keeps the store's address
  out->file = std::make_unique<MappedFile>(path);
  out->summary = std::make_unique<StreamedSummary>(out->read.store);  // the read keeps its store where it is
  read_streamed(out->file->bytes(), out->read, [&](const EventStore& s, size_t from, size_t to) {
    out->summary->add(from, to);
    if (from < to) {
      if (from == 0) out->first_time = s.time(0);
      out->last_time = s.time(to - 1);
    }
    release_read_bytes(*out->file, s);
  });
  out->summary->finish();
  return out;
}

}  // namespace gotrace::cli
