#include "measure/edge_stretch.h"

#include <algorithm>
#include <cmath>

#include "measure/order_statistics.h"

namespace measure {

namespace {

// Where percentile_sorted reads for q in a sorted list of n: ranks lo and hi
// (floor and the next one), interpolated by f.
struct PercentileAt {
  size_t lo, hi;
  double f;
};

PercentileAt percentile_at(size_t n, double q) {
  const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(n - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  return {lo, std::min(lo + 1, n - 1), pos - static_cast<double>(lo)};
}

double interpolate(double at_lo, double at_hi, double f) { return at_lo + f * (at_hi - at_lo); }

}  // namespace

double percentile_sorted(std::span<const double> v, double q) {
  if (v.empty()) return 0.0;
  const PercentileAt at = percentile_at(v.size(), q);
  return interpolate(v[at.lo], v[at.hi], at.f);
}

// The two ranks it reads by order_statistics, not a sort: stretch samples
// run to millions per scenario.
double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const PercentileAt at = percentile_at(values.size(), q);
  const size_t ranks[] = {at.lo, at.hi};
  const std::vector<double> v = order_statistics(values, ranks);
  return interpolate(v[0], v[1], at.f);
}

StretchStats stretch_stats(std::vector<double> r) {
  StretchStats s;
  s.samples = static_cast<long>(r.size());
  if (r.empty()) return s;
  const double qs[] = {1, 25, 50, 75, 95, 99};
  PercentileAt at[6];
  std::vector<size_t> ranks = {0, r.size() - 1};
  for (int i = 0; i < 6; ++i) {
    at[i] = percentile_at(r.size(), qs[i]);
    ranks.push_back(at[i].lo);
    ranks.push_back(at[i].hi);
  }
  const std::vector<double> v = order_statistics(r, ranks);
  double* const p[] = {&s.p01, &s.p25, &s.p50, &s.p75, &s.p95, &s.p99};
  for (int i = 0; i < 6; ++i) *p[i] = interpolate(v[2 + 2 * i], v[3 + 2 * i], at[i].f);
  s.min = v[0];
  s.max = v[1];
  s.torn_fraction = torn_fraction(r);
  return s;
}

double torn_fraction(std::span<const double> r) {
  if (r.empty()) return 0.0;
  long torn = 0;
  for (double x : r) torn += (x > kTornAbove || x < kTornBelow);
  return static_cast<double>(torn) / static_cast<double>(r.size());
}

void append_edge_ratios(std::span<const Eigen::Vector3d> bind, std::span<const Eigen::Vector3d> posed,
                        std::span<const std::pair<int, int>> edges, std::vector<double>& out) {
  for (const auto& [a, b] : edges) {
    const double l0 = (bind[a] - bind[b]).norm();
    if (l0 <= 0) continue;
    out.push_back((posed[a] - posed[b]).norm() / l0);
  }
}

std::vector<double> edge_lengths(std::span<const Eigen::Vector3d> bind, std::span<const std::pair<int, int>> edges) {
  std::vector<double> out;
  out.reserve(edges.size());
  for (const auto& [a, b] : edges) out.push_back((bind[a] - bind[b]).norm());
  return out;
}

void append_edge_ratios(std::span<const double> bind_length, std::span<const Eigen::Vector3d> posed,
                        std::span<const std::pair<int, int>> edges, std::vector<double>& out) {
  for (size_t i = 0; i < edges.size(); ++i) {
    const double l0 = bind_length[i];
    if (l0 <= 0) continue;
    out.push_back((posed[edges[i].first] - posed[edges[i].second]).norm() / l0);
  }
}

}  // namespace measure
