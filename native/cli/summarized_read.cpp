#include "summarized_read.h"

#include "gotrace/streamed_read.h"
#include "mapped_file.h"

namespace gotrace::cli {

std::unique_ptr<SummarizedTrace> read_summarized(const std::string& path) {
  MappedFile file(path);
  auto out = std::make_unique<SummarizedTrace>();  // on the heap: the summary keeps the store's address
  out->summary = std::make_unique<StreamedSummary>(out->read.store);  // the read keeps its store where it is
  read_streamed(file.bytes(), out->read, [&](const EventStore& s, size_t from, size_t to) {
    out->summary->add(from, to);
    release_read_bytes(file, s);
  });
  out->summary->finish();
  return out;
}

}  // namespace gotrace::cli
