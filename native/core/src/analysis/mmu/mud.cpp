// A port of Go's mud.go (Go 1.23).
#include "mud.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace gotrace::analysis::detail {

void Mud::add(double l, double r, double area) {
  if (area == 0) return;
  if (r < l) std::swap(l, r);

  // The edges.
  if (l == r) {
    unsorted_.push_back({l, 0, area});
  } else {
    double delta = area / (r - l);
    unsorted_.push_back({l, delta, 0});
    unsorted_.push_back({r, -delta, 0});
  }

  // The histogram (Go's math.Modf: integer and fractional parts).
  double lb_float;
  double lf = std::modf(l * kDegree, &lb_float);
  int lb = static_cast<int>(lb_float);
  if (lb >= kDegree) {
    lb = kDegree - 1;
    lf = 1;
  }
  if (l == r) {
    hist_[lb] += area;
  } else {
    double rb_float;
    double rf = std::modf(r * kDegree, &rb_float);
    int rb = static_cast<int>(rb_float);
    if (rb >= kDegree) {
      rb = kDegree - 1;
      rf = 1;
    }
    if (lb == rb) {
      hist_[lb] += area;
    } else {
      double per_bucket = area / (r - l) / kDegree;
      hist_[lb] += per_bucket * (1 - lf);
      hist_[rb] += per_bucket * rf;
      for (int i = lb + 1; i < rb; i++) hist_[i] += per_bucket;
    }
  }

  // The tracked mass.
  if (double thresh = static_cast<double>(track_bucket_) / kDegree; l < thresh) {
    if (r < thresh) {
      track_sum_ += area;
    } else {
      track_sum_ += area * (thresh - l) / (r - l);
    }
    if (track_sum_ >= track_mass_) {
      // The tracked mass now falls in another bucket.
      set_track_mass(track_mass_);
    }
  }
}

void Mud::set_track_mass(double mass) {
  track_mass_ = mass;
  double sum = 0;
  for (int i = 0; i < kDegree; i++) {
    double next = sum + hist_[i];
    if (next > mass) {
      track_bucket_ = i;
      track_sum_ = sum;
      return;
    }
    sum = next;
  }
  track_bucket_ = kDegree;
  track_sum_ = sum;
}

bool Mud::approx_inv_cumulative_sum(double& lower, double& upper) const {
  if (track_bucket_ == kDegree) {
    lower = upper = std::numeric_limits<double>::quiet_NaN();
    return false;
  }
  lower = static_cast<double>(track_bucket_) / kDegree;
  upper = static_cast<double>(track_bucket_ + 1) / kDegree;
  return true;
}

double Mud::inv_cumulative_sum(double y, bool* ok) {
  if (ok) *ok = false;
  if (sorted_.empty() && unsorted_.empty()) return std::numeric_limits<double>::quiet_NaN();

  // Sort the new edges and merge them into the sorted ones.
  std::sort(unsorted_.begin(), unsorted_.end(), [](const Edge& a, const Edge& b) { return a.x < b.x; });
  if (sorted_.empty()) {
    sorted_ = std::move(unsorted_);
  } else {
    std::vector<Edge> merged(sorted_.size() + unsorted_.size());
    size_t i = 0, j = 0;
    for (size_t o = 0; o < merged.size(); o++) {
      if (i >= sorted_.size()) {
        std::copy(unsorted_.begin() + static_cast<std::ptrdiff_t>(j), unsorted_.end(), merged.begin() + static_cast<std::ptrdiff_t>(o));
        break;
      } else if (j >= unsorted_.size()) {
        std::copy(sorted_.begin() + static_cast<std::ptrdiff_t>(i), sorted_.end(), merged.begin() + static_cast<std::ptrdiff_t>(o));
        break;
      } else if (sorted_[i].x < unsorted_[j].x) {
        merged[o] = sorted_[i++];
      } else {
        merged[o] = unsorted_[j++];
      }
    }
    sorted_ = std::move(merged);
  }
  unsorted_.clear();

  // Walk the edges in order, summing.
  double csum = 0, rate = 0, prev_x = 0;
  for (const Edge& e : sorted_) {
    double new_csum = csum + (e.x - prev_x) * rate;
    if (new_csum >= y) {
      // y was passed between the previous edge and this one. With no slope, anywhere in
      // between will do: e.x also covers y == 0.
      if (ok) *ok = true;
      if (rate == 0) return e.x;
      return (y - csum) / rate + prev_x;
    }
    new_csum += e.dirac;
    if (new_csum >= y) {
      if (ok) *ok = true;  // passed by the Dirac delta at e.x
      return e.x;
    }
    csum = new_csum;
    prev_x = e.x;
    rate += e.delta;
  }
  return prev_x;
}

}  // namespace gotrace::analysis::detail
