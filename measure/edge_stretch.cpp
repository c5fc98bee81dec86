#include "measure/edge_stretch.h"

#include <algorithm>
#include <cmath>

namespace measure {

double percentile_sorted(std::span<const double> v, double q) {
  if (v.empty()) return 0.0;
  const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  const double f = pos - static_cast<double>(lo);
  return v[lo] + f * (v[hi] - v[lo]);
}

namespace {

// The ranks percentile_sorted reads for q (floor and the next one).
void add_ranks(size_t n, double q, std::vector<size_t>& ranks) {
  const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(n - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  ranks.push_back(lo);
  ranks.push_back(std::min(lo + 1, n - 1));
}

// Puts the order statistic of every rank in place, as a full sort would,
// with one nth_element per rank over what is left (linear time: the stretch
// samples run to millions per scenario and a sort was a sixth of the gate).
void place_ranks(std::vector<double>& r, std::vector<size_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  auto first = r.begin();
  for (size_t k : ranks) {
    const auto nth = r.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(first, nth, r.end());
    first = nth + 1;
  }
}

}  // namespace

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::vector<size_t> ranks;
  add_ranks(values.size(), q, ranks);
  place_ranks(values, ranks);
  return percentile_sorted(values, q);  // reads only the placed ranks
}

StretchStats stretch_stats(std::vector<double> r) {
  StretchStats s;
  s.samples = static_cast<long>(r.size());
  if (r.empty()) return s;
  const double qs[] = {1, 25, 50, 75, 95, 99};
  std::vector<size_t> ranks = {0, r.size() - 1};
  for (double q : qs) add_ranks(r.size(), q, ranks);
  place_ranks(r, ranks);
  // percentile_sorted reads only the placed ranks.
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

}  // namespace measure
