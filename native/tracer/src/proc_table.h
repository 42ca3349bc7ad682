// The procs of the current trace, by id. Ids are small and reused (lowest free first), so
// viewers show a compact set of proc rows; a proc record outlives the thread or worker
// that held it and keeps its status (idle) for the next holder of the id.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "batch.h"
#include "resource_state.h"

namespace gotrace::tracer::detail {

struct ProcNode {
  SchedResourceState trace;
  std::atomic<uint8_t> status{0};     // ProcStatus; kProcUnseen in a new trace
  std::atomic<uint64_t> session{0};   // the trace `status` and `trace` belong to
  std::atomic<uint64_t> m{kNoThread};  // the thread holding it (running or in a syscall)
  int64_t id = 0;
};

struct UntracedProc {
  ProcNode* node;
  int64_t id;
  uint8_t status;
  uint64_t m;
};

class ProcTable {
 public:
  static constexpr int64_t kMaxProcs = 4096;

  // The lowest free id of the trace `session`, or -1 when all kMaxProcs are taken.
  int64_t allocate_id();
  void release_id(int64_t id);
  // The record of `id`, reset if it belongs to an earlier trace. Only the holder of the
  // id calls this.
  ProcNode* claim(int64_t id, uint64_t session);

  // Readies every proc of `session` for the generation after `gen` and lists those with
  // no status in `gen` yet.
  void snapshot_untraced(uint64_t gen, uint64_t session, std::vector<UntracedProc>& out);

  // A new trace: every id is free.
  void reset();

 private:
  std::mutex mu_;
  std::atomic<ProcNode*> nodes_[kMaxProcs] = {};
  std::atomic<int64_t> high_{0};  // ids below this may have records
  std::vector<int64_t> free_ids_;  // a min-heap
  int64_t next_id_ = 0;
};

}  // namespace gotrace::tracer::detail
