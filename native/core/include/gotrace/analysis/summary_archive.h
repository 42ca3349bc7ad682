// Goroutine and task summaries put away in a few bytes each: a goroutine that ended, with
// its regions, in ~40 bytes where its GoroutineSummary and RegionSummaries take 192 and
// 184. The summarizer puts them here as they end when it is asked to (a streamed
// analysis of a trace of millions of goroutines, `gotrace analysis`), so that what it
// holds is what is live; they are read back one at a time, to be written out or to go on
// (an event naming a goroutine or task after its end).
//
// Names are string views kept as they were given (views into the store's string table,
// which outlives the summaries), numbered in a small table.
#pragma once

#include <cstdint>
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
  uint64_t put_task(const TaskSummary& t);
  void task(uint64_t at, TaskSummary& t) const;

  // Bytes held: the records and the table of names.
  size_t bytes() const;

 private:
  uint32_t name_index(std::string_view name, uint64_t pc);
  uint64_t put(const std::string& record);
  const uint8_t* at(uint64_t where) const;

  // Records in blocks (growing one array would copy it, and hold it twice meanwhile).
  std::vector<std::vector<uint8_t>> blocks_;
  std::string scratch_;
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
};

}  // namespace gotrace::analysis
