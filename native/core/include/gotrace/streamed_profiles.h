// The whole trace's profiles of every type (profile.h: net, sync, syscall, sched) for a
// trace read streamed (each generation's events handed on, then released: streamed_read.h,
// stepped_read.h): what the profile views show of all of a trace too large to hold whole.
//
// A profile counts each goroutine's time from its first run to its end (Go's filter of
// `go tool trace -pprof`: profile_selection.h), which the summary knows once the whole
// trace is read: so the profiles are made in a second streamed read, after the one that
// summarized the trace (StreamedSummary), with that summary's goroutines.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gotrace/analysis/flame_graph.h"
#include "gotrace/analysis/profile.h"
#include "gotrace/analysis/summary.h"
#include "gotrace/event_store.h"

namespace gotrace {

class StreamedProfiles {
 public:
  // `tables`: the first read's store (its string and stack tables name what the profiles
  // hold); `summary`: its whole summary; `events`: the second read's store, whose events
  // add() is handed. All three outlive this.
  StreamedProfiles(const EventStore& tables, const analysis::Summary& summary, const EventStore& events);
  // The same with the summary's goroutines as their lifetimes alone (StreamedSummary's),
  // kept until the profiles are made.
  StreamedProfiles(const EventStore& tables, analysis::GoroutineLifetimes lifetimes, const EventStore& events);
  ~StreamedProfiles();
  StreamedProfiles(const StreamedProfiles&) = delete;
  StreamedProfiles& operator=(const StreamedProfiles&) = delete;

  // Events [from, to) of the second read's store, which follow those added before, while
  // it holds them.
  void add(size_t from, size_t to);
  // After the last events: the profiles are made.
  void finish();
  bool finished() const { return profiles_.has_value(); }
  // The whole trace's profile of a type, as TraceSession::whole_profile gives it for the
  // trace read whole; a runtime_error before finish() ("still being read").
  const analysis::Profile& profile(analysis::ProfileType type) const;
  // Its flame graph (made on the first ask, and kept) and its gzipped pprof.
  const analysis::FlameGraph& flame(analysis::ProfileType type);
  std::vector<uint8_t> pprof(analysis::ProfileType type) const;

 private:
  static constexpr size_t kTypes = std::size(analysis::kProfileTypes);
  const EventStore& tables_;
  analysis::GoroutineLifetimes lifetimes_;
  analysis::ProfileFilter filter_;  // the summary's goroutines, from their first run to their end
  std::optional<analysis::ProfilePass> pass_;
  std::optional<std::array<analysis::Profile, kTypes>> profiles_;
  std::array<std::unique_ptr<analysis::FlameGraph>, kTypes> flames_;
};

}  // namespace gotrace
