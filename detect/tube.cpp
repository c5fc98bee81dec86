#include "detect/tube.h"

#include <algorithm>
#include <cmath>

#include "detect/rewrite/grow_chain.h"
#include "detect/geometry/geodesic.h"

namespace detect {

namespace {
constexpr int kBinsPerSlice = 4;  // a slice slides a quarter of its width at a time
constexpr double kRingsPerSlice = 2.0;
}  // namespace

std::vector<rig::Vec3> area_normals(const std::vector<rig::Vec3>& positions,
                                    const std::vector<std::array<int, 3>>& triangles) {
  std::vector<rig::Vec3> n(positions.size(), rig::Vec3::Zero());
  const int count = static_cast<int>(positions.size());
  for (const auto& t : triangles) {
    if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= count || t[1] >= count || t[2] >= count) continue;
    const rig::Vec3 face = (positions[t[1]] - positions[t[0]]).cross(positions[t[2]] - positions[t[0]]);
    if (!face.allFinite()) continue;
    for (int v : t) n[v] += face;
  }
  return n;
}

TubeCut trim_to_tube(const Graph& graph, const std::vector<rig::Vec3>& positions,
                     const std::vector<rig::Vec3>& normals, const std::vector<int>& core, int seed,
                     double min_slice, double max_closure, int max_bins) {
  TubeCut out;
  out.kept = core;
  const int n = graph.size();
  if (core.empty() || seed < 0 || seed >= n || static_cast<int>(positions.size()) != n ||
      static_cast<int>(normals.size()) != n || !(min_slice >= 0.0) || !std::isfinite(min_slice) ||
      max_bins < kBinsPerSlice * 2)
    return out;
  std::vector<char> allowed(static_cast<size_t>(n), 0);
  for (int v : core) {
    if (v < 0 || v >= n) return out;
    allowed[v] = 1;
  }
  if (!allowed[seed]) return out;
  const std::vector<double> g = geodesic_distance(graph, positions, {seed}, allowed);
  double far = 0.0;
  std::vector<std::pair<int, int>> edges;
  for (int v : core) {
    if (std::isfinite(g[v])) far = std::max(far, g[v]);
    for (int u : graph.neighbors_of(v))
      if (u > v && allowed[u]) edges.emplace_back(v, u);
  }
  if (!(far > 0.0)) return out;
  // A slice holds whole rings of the mesh: kRingsPerSlice edge steps along g.
  const double slice = std::max({min_slice, kRingsPerSlice * edge_step_along(edges, g), far / max_bins * kBinsPerSlice});
  if (!(slice > 0.0) || !std::isfinite(slice)) return out;
  out.slice = slice;
  const double bin = slice / kBinsPerSlice;
  const int bins = std::min(max_bins, static_cast<int>(far / bin) + 1);
  std::vector<rig::Vec3> sum(static_cast<size_t>(bins), rig::Vec3::Zero());
  std::vector<double> total(static_cast<size_t>(bins), 0.0);
  for (int v : core) {
    if (!std::isfinite(g[v]) || !normals[v].allFinite()) continue;
    const int b = std::min(bins - 1, static_cast<int>(g[v] / bin));
    sum[b] += normals[v];
    total[b] += normals[v].norm();
  }
  // Closure of the slice starting at bin b (-1: no skin with normals in it).
  auto closure_at = [&](int b) {
    rig::Vec3 s = rig::Vec3::Zero();
    double t = 0.0;
    for (int k = b; k < b + kBinsPerSlice; ++k) {
      s += sum[k];
      t += total[k];
    }
    return t > 0.0 ? s.norm() / t : -1.0;
  };
  bool closed = false;
  for (int b = 0; b + kBinsPerSlice <= bins; ++b) {
    const double closure = closure_at(b);
    if (closure < 0.0) continue;
    if (!closed) {
      closed = closure < max_closure;
      continue;
    }
    if (closure < max_closure) continue;
    // Open for a whole slice on (the next slice's start included): a belly
    // strip. A tube cut obliquely at the core's end opens only in its last
    // slice.
    if (b + 2 * kBinsPerSlice > bins) break;
    bool open = true;
    for (int k = b + 1; k <= b + kBinsPerSlice && open; ++k) open = closure_at(k) >= max_closure;
    if (!open) continue;
    out.cut = true;
    out.cut_from_tip = (b + 0.5 * kBinsPerSlice) * bin;  // the slice's middle
    out.open_closure = closure;
    std::erase_if(out.kept, [&](int v) { return !(g[v] < out.cut_from_tip); });
    return out;
  }
  return out;
}

}  // namespace detect
