// Edge stretch (SPEC §7): skinned length / bind length of mesh edges over
// sample times, summarised by percentiles and the torn fraction.
#pragma once

#include <array>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace measure {

inline constexpr double kTornAbove = 1.5;   // ratio > this: torn (strict)
inline constexpr double kTornBelow = 0.67;  // ratio < this: torn (strict)

// Linear-interpolated percentile (q in [0,100]) of `values` (numpy's default
// "linear" method). percentile_sorted reads a sorted list; percentile and
// stretch_stats select the ranks they read (order_statistics: the same bits
// as sorting, NaN and -0 ordered as that header says). 0 for an empty list.
double percentile_sorted(std::span<const double> sorted, double q);
double percentile(std::vector<double> values, double q);

struct StretchStats {
  long samples = 0;  // edge samples (edges x sample times)
  double p01 = 0, p25 = 0, p50 = 0, p75 = 0, p95 = 0, p99 = 0, max = 0, min = 0;
  double torn_fraction = 0;  // share of samples with ratio > 1.5 or < 0.67
};

StretchStats stretch_stats(std::vector<double> ratios);

// StretchStats::torn_fraction alone (no percentiles: no reordering, no copy);
// 0 for an empty list.
double torn_fraction(std::span<const double> ratios);

// Appends |posed[a]-posed[b]| / |bind[a]-bind[b]| for each edge (a, b) with a
// non-zero bind length. Positions indexed by the edges' vertex ids.
void append_edge_ratios(std::span<const Eigen::Vector3d> bind, std::span<const Eigen::Vector3d> posed,
                        std::span<const std::pair<int, int>> edges, std::vector<double>& out);

// The bind lengths append_edge_ratios divides by, per edge, for a caller
// measuring the same edges at many poses (computed once, the same numbers).
std::vector<double> edge_lengths(std::span<const Eigen::Vector3d> bind, std::span<const std::pair<int, int>> edges);
// append_edge_ratios with those lengths (`bind_length[i]` of edges[i]).
void append_edge_ratios(std::span<const double> bind_length, std::span<const Eigen::Vector3d> posed,
                        std::span<const std::pair<int, int>> edges, std::vector<double>& out);

}  // namespace measure
