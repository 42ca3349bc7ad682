#include "gotrace/analysis/summary_json.h"

namespace gotrace::analysis {

void duration_distribution_json(JsonWriter& w, const DurationDistribution& d) {
  w.begin_object();
  w.key("histogram").begin_object();
  w.field("count", static_cast<uint64_t>(d.histogram.count));
  w.key("buckets").begin_array();
  // Dense from the first to the last non-empty bucket; each with its lower bound.
  const auto& b = d.histogram.buckets;
  size_t first = 0;
  while (first < b.size() && b[first] == 0) first++;
  size_t last = b.size();
  while (last > first && b[last - 1] == 0) last--;
  for (size_t i = first; i < last; i++) {
    w.begin_object();
    w.field("min", TimeHistogram::bucket_min(static_cast<int>(i)));
    w.field("count", b[i]);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  const DurationQuantiles& q = d.quantiles;
  w.key("quantiles").begin_object();
  w.field("count", static_cast<uint64_t>(q.count));
  w.field("min", q.min);
  w.field("p50", q.p50);
  w.field("p90", q.p90);
  w.field("p99", q.p99);
  w.field("max", q.max);
  w.field("total", q.total);
  w.end_object();
  w.end_object();
}

}  // namespace gotrace::analysis
