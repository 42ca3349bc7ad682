#include "trace_builder.h"

#include <cstring>

namespace gotrace::test {
namespace {

void put_uvarint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

}  // namespace

TraceBuilder::TraceBuilder(int go_minor) {
  std::string h = "go 1." + std::to_string(go_minor) + " trace";
  out_.assign(h.begin(), h.end());
  out_.resize(16, 0);
}

void TraceBuilder::close_batch() {
  if (!open_) return;
  out_.push_back(1);  // EventBatch
  put_uvarint(out_, gen_);
  put_uvarint(out_, m_);
  put_uvarint(out_, time_);
  put_uvarint(out_, payload_.size());
  out_.insert(out_.end(), payload_.begin(), payload_.end());
  payload_.clear();
  open_ = false;
}

TraceBuilder& TraceBuilder::batch(uint64_t gen, uint64_t m, uint64_t time) {
  close_batch();
  gen_ = gen;
  m_ = m;
  time_ = time;
  open_ = true;
  return *this;
}

TraceBuilder& TraceBuilder::event(uint8_t type, std::initializer_list<uint64_t> values) {
  payload_.push_back(type);
  for (uint64_t v : values) put_uvarint(payload_, v);
  return *this;
}

TraceBuilder& TraceBuilder::raw(std::initializer_list<uint8_t> bytes) {
  payload_.insert(payload_.end(), bytes.begin(), bytes.end());
  return *this;
}

TraceBuilder& TraceBuilder::frequency(uint64_t gen, uint64_t ticks_per_second) {
  batch(gen, ~uint64_t{0});
  event(8, {ticks_per_second});
  close_batch();
  return *this;
}

// Structural tables go into as many batches as the 64 KiB limit needs.
constexpr size_t kBatchLimit = 60000;

TraceBuilder& TraceBuilder::strings(uint64_t gen, const std::vector<std::pair<uint64_t, std::string>>& table) {
  batch(gen, ~uint64_t{0});
  payload_.push_back(4);
  for (const auto& [id, s] : table) {
    if (payload_.size() + s.size() + 24 > kBatchLimit) {
      batch(gen, ~uint64_t{0});
      payload_.push_back(4);
    }
    payload_.push_back(5);
    put_uvarint(payload_, id);
    put_uvarint(payload_, s.size());
    payload_.insert(payload_.end(), s.begin(), s.end());
  }
  close_batch();
  return *this;
}

TraceBuilder& TraceBuilder::stacks(uint64_t gen, const std::vector<std::pair<uint64_t, std::vector<uint64_t>>>& table) {
  batch(gen, ~uint64_t{0});
  payload_.push_back(2);
  for (const auto& [id, frames] : table) {
    if (payload_.size() + frames.size() * 10 + 24 > kBatchLimit) {
      batch(gen, ~uint64_t{0});
      payload_.push_back(2);
    }
    payload_.push_back(3);
    put_uvarint(payload_, id);
    put_uvarint(payload_, frames.size() / 4);
    for (uint64_t v : frames) put_uvarint(payload_, v);
  }
  close_batch();
  return *this;
}

std::vector<uint8_t> TraceBuilder::bytes() {
  close_batch();
  return out_;
}

}  // namespace gotrace::test
