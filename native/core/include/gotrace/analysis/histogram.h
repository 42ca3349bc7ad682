// Duration distributions for the task and region views: Go's TimeHistogram (five
// log-spaced buckets per decade, as `go tool trace` draws them) and exact quantiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gotrace::analysis {

// Go's traceviewer.TimeHistogram.
struct TimeHistogram {
  size_t count = 0;
  std::vector<int64_t> buckets;  // buckets[b]: durations in [bucket_min(b), bucket_min(b+1))
  int min_bucket = 0, max_bucket = 0;  // the first and last non-empty buckets

  void add(int64_t duration);
  // The smallest duration of bucket b: 10^(b/5) ns, truncated.
  static int64_t bucket_min(int b);
};

// Exact order statistics of a set of durations (nearest rank: the q-quantile is the
// smallest duration with at least q of them at or below it). All 0 when empty.
struct DurationQuantiles {
  size_t count = 0;
  int64_t min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  int64_t total = 0;
};
DurationQuantiles duration_quantiles(std::vector<int64_t> durations);

// Both at once, as the task and region views show them.
struct DurationDistribution {
  TimeHistogram histogram;
  DurationQuantiles quantiles;
};
DurationDistribution duration_distribution(std::vector<int64_t> durations);

}  // namespace gotrace::analysis
