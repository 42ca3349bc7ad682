#include "gotrace/analysis/histogram.h"

#include <algorithm>
#include <cmath>

#include "gotrace/go_int.h"

namespace gotrace::analysis {
namespace {
// Five buckets per power of ten.
const double kLogDiv = std::log(std::pow(10.0, 1.0 / 5));
}  // namespace

void TimeHistogram::add(int64_t d) {
  int bucket = 0;
  if (d > 0) bucket = static_cast<int>(std::log(static_cast<double>(d)) / kLogDiv);
  if (buckets.size() <= static_cast<size_t>(bucket)) buckets.resize(static_cast<size_t>(bucket) + 1);
  buckets[static_cast<size_t>(bucket)]++;
  // As Go has it: while the highest bucket is 0, each sample moves the lowest.
  if (bucket < min_bucket || max_bucket == 0) min_bucket = bucket;
  if (bucket > max_bucket) max_bucket = bucket;
  count++;
}

int64_t TimeHistogram::bucket_min(int b) { return static_cast<int64_t>(std::exp(static_cast<double>(b) * kLogDiv)); }

DurationQuantiles duration_quantiles(std::vector<int64_t> d) {
  DurationQuantiles q;
  q.count = d.size();
  if (d.empty()) return q;
  std::sort(d.begin(), d.end());
  auto rank = [&](double p) {
    auto k = static_cast<size_t>(std::ceil(p * static_cast<double>(d.size())));
    return d[std::clamp<size_t>(k, 1, d.size()) - 1];
  };
  q.min = d.front();
  q.p50 = rank(0.50);
  q.p90 = rank(0.90);
  q.p99 = rank(0.99);
  q.max = d.back();
  for (int64_t v : d) q.total = wrap_add(q.total, v);
  return q;
}

DurationDistribution duration_distribution(std::vector<int64_t> durations) {
  DurationDistribution out;
  for (int64_t d : durations) out.histogram.add(d);
  out.quantiles = duration_quantiles(std::move(durations));
  return out;
}

}  // namespace gotrace::analysis
