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

// Puts the order statistics of ranks[a, b) (ascending, distinct, all within
// [lo, hi)) in place, as a full sort would; [lo, hi) holds exactly the
// values of those ranks' stretch of the sorted order. Divide and conquer: the
// middle rank by nth_element, then each side on its own part (about n log k
// instead of one pass per rank over what is left: the stretch samples run to
// millions per scenario). A rank at an end of its part is the part's minimum
// or maximum, a single scan (percentile pairs floor and floor + 1 end there).
void place_ranks(std::vector<double>& r, const std::vector<size_t>& ranks, size_t a, size_t b, size_t lo,
                 size_t hi) {
  const auto at = [&](size_t i) { return r.begin() + static_cast<std::ptrdiff_t>(i); };
  while (a < b) {
    if (ranks[a] == lo) {
      std::iter_swap(at(lo), std::min_element(at(lo), at(hi)));
      ++a, ++lo;
      continue;
    }
    if (ranks[b - 1] == hi - 1) {
      std::iter_swap(at(hi - 1), std::max_element(at(lo), at(hi)));
      --b, --hi;
      continue;
    }
    const size_t m = a + (b - a) / 2;
    std::nth_element(at(lo), at(ranks[m]), at(hi));
    place_ranks(r, ranks, a, m, lo, ranks[m]);
    a = m + 1;
    lo = ranks[m] + 1;
  }
}

// The order statistic of every rank in place (any order, repeats allowed).
void place_ranks(std::vector<double>& r, std::vector<size_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  place_ranks(r, ranks, 0, ranks.size(), 0, r.size());
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
