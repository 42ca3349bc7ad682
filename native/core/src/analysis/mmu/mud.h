// Go's mud (internal/trace/mud.go): an updatable mutator utilization distribution, the
// sum of uniform distributions and Dirac deltas over utilization [0, 1], with a
// histogram that tracks one inverse cumulative sum as mass is added.
#pragma once

#include <array>
#include <utility>
#include <vector>

namespace gotrace::analysis::detail {

class Mud {
 public:
  // Adds a uniform function over [l, r] with total weight `area` (a Dirac delta if l == r).
  void add(double l, double r, double area);
  // Sets the cumulative mass whose utilization approx_inv_cumulative_sum bounds.
  void set_track_mass(double mass);
  // Bounds [lower, upper) of the tracked inverse cumulative sum; false if the mass so
  // far is less than the tracked mass.
  bool approx_inv_cumulative_sum(double& lower, double& upper) const;
  // The utilization x such that at least y time was spent at utilization <= x; NaN if
  // empty. `ok` is false if the total mass is less than y (x is then the maximum).
  double inv_cumulative_sum(double y, bool* ok = nullptr);

 private:
  struct Edge {
    double x = 0, delta = 0;  // at x the function increases by delta
    double dirac = 0;         // and has a Dirac delta of this area
  };
  static constexpr int kDegree = 1024;  // buckets of the summary histogram

  std::vector<Edge> sorted_, unsorted_;
  double track_mass_ = 0;
  int track_bucket_ = 0;   // bucket of track_mass_ (kDegree if beyond the total mass)
  double track_sum_ = 0;   // cumulative sum of hist_[:track_bucket_]
  std::array<double, kDegree> hist_{};
};

}  // namespace gotrace::analysis::detail
