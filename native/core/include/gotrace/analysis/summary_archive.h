// Goroutine and task summaries put away in a few bytes each: ~34 bytes per goroutine,
// region or task (667 MB trace: 264 MB for 3.6 M goroutines, 2.1 M regions, 2.1 M
// tasks) where GoroutineSummary, RegionSummary and TaskSummary take 192, 184 and 128.
// The summarizer puts them here as they end when it is asked to (a streamed
// analysis of a trace of millions of goroutines, `gotrace analysis`), so that what it
// holds is what is live; they are read back one at a time, to be written out or to go on
// (an event naming a goroutine or task after its end).
//
// Names are string views kept as they were given (views into the store's string table,
// which outlives the summaries), numbered in a small table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gotrace/analysis/summary.h"

namespace gotrace::analysis {

class SummaryArchive {
 public:
  // Stores goroutine g with its regions (g.regions indexes `regions`), and says where.
  uint64_t put_goroutine(const GoroutineSummary& g, std::span<const RegionSummary> regions);
  // Reads back the goroutine stored at `at`: its regions into `regions` (replacing what it
  // held), g.regions numbering them from 0.
  void goroutine(uint64_t at, GoroutineSummary& g, std::vector<RegionSummary>& regions) const;
  // A task is kept but for its regions, which are kept as their number: a region is put
  // away with its goroutine (read back, t.regions holds that many zeros).
  uint64_t put_task(const TaskSummary& t);
  void task(uint64_t at, TaskSummary& t) const;
  // The id of the goroutine or task stored at `at` alone (its record's first field).
  int64_t id_at(uint64_t at) const;
  // The bytes its records take, as reserved.
  size_t bytes() const;

 private:
  uint32_t name_index(std::string_view name, uint64_t pc);
  // Appends the record encode(base) writes into scratch_, base being its block's time;
  // `key` is the record's time, the base of a block it begins.
  template <class Encode>
  uint64_t put(Time key, Encode encode);
  const uint8_t* at(uint64_t where) const;
  Time base_of(uint64_t where) const;

  // Records in blocks (growing one array would copy it, and hold it twice meanwhile).
  struct Block {
    std::vector<uint8_t> bytes;
    Time base = 0;
  };
  std::vector<Block> blocks_;
  std::string scratch_;
  std::vector<uint32_t> region_names_;  // put_goroutine's
  struct Name {
    std::string_view text;
    uint64_t pc = 0;
  };
  std::vector<Name> names_;
  struct NameKey {
    const char* data;
    size_t size;
    uint64_t pc;
    bool operator==(const NameKey&) const = default;
  };
  struct NameHash {
    size_t operator()(const NameKey& k) const {
      return std::hash<const void*>()(k.data) * 31 + k.size * 7 + std::hash<uint64_t>()(k.pc);
    }
  };
  std::unordered_map<NameKey, uint32_t, NameHash> name_ids_;
};

// What a summary over an archive gives at the end: the goroutines and tasks, in id order,
// as places in the archive (those whose id was reused left out, as Summary leaves them).
struct ArchivedSummary {
  SummaryArchive archive;
  std::vector<uint64_t> goroutines;  // ascending id
  std::vector<uint64_t> tasks;       // ascending id
  uint64_t regions = 0;              // of the goroutines kept
  Time last_time = 0;                // the trace's last event, for goroutines' totals
  // Goroutines and tasks taken back out of the archive, named by an event after their end.
  uint64_t restored = 0;

  // Goroutine k (in id order) as Summary would hold it: its regions into `regions`.
  void goroutine(size_t k, GoroutineSummary& g, std::vector<RegionSummary>& its_regions) const;
  // Task k (in id order) as Summary would hold it (goroutines sorted, each once).
  void task(size_t k, TaskSummary& t) const;
  // The place in id order of goroutine or task `id`, if kept.
  std::optional<size_t> goroutine_index(GoID id) const;
  std::optional<size_t> task_index(TaskID id) const;
};

}  // namespace gotrace::analysis
