#include "metrics/stretch.h"

#include <algorithm>
#include <cmath>

namespace harness {

double percentile_sorted(std::span<const double> v, double q) {
  if (v.empty()) return 0.0;
  const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  const double f = pos - static_cast<double>(lo);
  return v[lo] + f * (v[hi] - v[lo]);
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, q);
}

StretchStats stretch_stats(std::vector<double> r) {
  StretchStats s;
  s.samples = static_cast<long>(r.size());
  if (r.empty()) return s;
  std::sort(r.begin(), r.end());
  s.p01 = percentile_sorted(r, 1);
  s.p25 = percentile_sorted(r, 25);
  s.p50 = percentile_sorted(r, 50);
  s.p75 = percentile_sorted(r, 75);
  s.p95 = percentile_sorted(r, 95);
  s.p99 = percentile_sorted(r, 99);
  s.min = r.front();
  s.max = r.back();
  long torn = 0;
  for (double x : r) torn += (x > kTornAbove || x < kTornBelow);
  s.torn_fraction = static_cast<double>(torn) / static_cast<double>(r.size());
  return s;
}

void append_edge_ratios(std::span<const Eigen::Vector3d> bind, std::span<const Eigen::Vector3d> posed,
                        std::span<const std::pair<int, int>> edges, std::vector<double>& out) {
  for (const auto& [a, b] : edges) {
    const double l0 = (bind[a] - bind[b]).norm();
    if (l0 <= 0) continue;
    out.push_back((posed[a] - posed[b]).norm() / l0);
  }
}

}  // namespace harness
