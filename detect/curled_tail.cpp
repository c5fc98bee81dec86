#include "detect/curled_tail.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "detect/geometry/geodesic.h"
#include "rig/model/model.h"

namespace detect {

namespace {

// A resting piece this far along the region's span or farther is its tip's.
constexpr double kTipShare = 0.75;

// Pieces of the ring: labels per ring entry (0..count-1), connected through
// edges between ring vertices. Binary searches in the sorted ring, so the
// cost is the ring's, not the graph's (the fused-tail split evaluates many
// cores).
int ring_pieces(const Graph& graph, const std::vector<int>& ring, std::vector<int>& label) {
  label.assign(ring.size(), -1);
  int count = 0;
  std::vector<size_t> stack;
  for (size_t i = 0; i < ring.size(); ++i) {
    if (label[i] >= 0) continue;
    label[i] = count;
    stack.push_back(i);
    while (!stack.empty()) {
      const size_t k = stack.back();
      stack.pop_back();
      for (int u : graph.neighbors_of(ring[k])) {
        const auto it = std::lower_bound(ring.begin(), ring.end(), u);
        if (it == ring.end() || *it != u) continue;
        const size_t m = static_cast<size_t>(it - ring.begin());
        if (label[m] >= 0) continue;
        label[m] = count;
        stack.push_back(m);
      }
    }
    ++count;
  }
  return count;
}

}  // namespace

std::vector<int> ring_without_resting_tip(const Graph& graph, const std::vector<rig::Vec3>& positions,
                                          const std::vector<int>& region, const std::vector<int>& ring,
                                          const rig::Vec3& root, bool* lies_along) {
  if (lies_along) *lies_along = false;
  std::vector<int> label;
  const int count = ring_pieces(graph, ring, label);
  if (count < 2 || region.empty()) return ring;
  // Each piece's spread: the RMS distance of its vertices from its centroid.
  std::vector<rig::Vec3> sum(count, rig::Vec3::Zero());
  std::vector<int> size(count, 0);
  for (size_t i = 0; i < ring.size(); ++i) sum[label[i]] += positions[ring[i]], ++size[label[i]];
  std::vector<double> spread(count, 0.0);
  for (size_t i = 0; i < ring.size(); ++i)
    spread[label[i]] += (positions[ring[i]] - sum[label[i]] / size[label[i]]).squaredNorm() / size[label[i]];
  // The base: the piece nearest where the tail leaves the pelvis.
  int base = 0;
  for (int c = 1; c < count; ++c)
    if ((sum[c] / size[c] - root).squaredNorm() < (sum[base] / size[base] - root).squaredNorm()) base = c;
  std::vector<int> sources;
  for (size_t i = 0; i < ring.size(); ++i)
    if (label[i] == base) sources.push_back(ring[i]);
  std::vector<char> allowed(static_cast<size_t>(graph.size()), 0);
  for (int v : region) allowed[v] = 1;
  for (int v : ring) allowed[v] = 1;
  const std::vector<double> g = geodesic_distance(graph, positions, sources, allowed);
  double span = 0.0;
  for (int v : region)
    if (std::isfinite(g[v])) span = std::max(span, g[v]);
  std::vector<double> nearest(count, INFINITY);
  for (size_t i = 0; i < ring.size(); ++i) nearest[label[i]] = std::min(nearest[label[i]], g[ring[i]]);
  // Near the base: within its own radius of it, or a quarter of the span.
  const double near = std::max(std::sqrt(spread[base]), 0.25 * span);
  std::vector<int> kept;
  for (size_t i = 0; i < ring.size(); ++i)
    if (!(nearest[label[i]] > near)) kept.push_back(ring[i]);
  if (lies_along)
    for (int c = 0; c < count; ++c) *lies_along = *lies_along || (nearest[c] > near && nearest[c] <= kTipShare * span);
  return kept;
}

namespace {
constexpr int kCurlSlices = 12;  // slices of g along the tail (a low-poly tail has 8-12 edge rings)
}  // namespace

double curl_turn_length(const std::vector<rig::Vec3>& points, const std::vector<double>& g,
                        const rig::Vec3& back, double length) {
  if (points.size() != g.size() || points.empty() || !(back.norm() > 0.0)) return length;
  double lo = INFINITY, hi = -INFINITY;
  for (double x : g)
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!(hi > lo)) return length;
  std::vector<double> along(kCurlSlices, 0.0), mean_g(kCurlSlices, 0.0);
  std::vector<int> count(kCurlSlices, 0);
  for (size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(g[i])) continue;
    const int s = std::min(kCurlSlices - 1, static_cast<int>((g[i] - lo) / (hi - lo) * kCurlSlices));
    along[s] += points[i].dot(back);
    mean_g[s] += g[i];
    ++count[s];
  }
  int base = -1, tip = -1, rear = -1;
  for (int s = 0; s < kCurlSlices; ++s) {
    if (count[s] == 0) continue;
    along[s] /= count[s];
    mean_g[s] /= count[s];
    if (base < 0) base = s;
    tip = s;
    if (rear < 0 || along[s] > along[rear]) rear = s;
  }
  if (rear == tip || rear == base) return length;
  const bool came_back_past_base = along[rear] - along[tip] > along[rear] - along[base];
  return came_back_past_base ? std::min(length, mean_g[rear]) : length;
}

// See curled_tail.h.
void take_rest_patch(const rig::Character& c, Analysis& a, Region& r) {
  if (r.rest_patch.empty()) return;
  std::vector<char> add(a.welded.count(), 0);
  for (int w : r.rest_patch)
    if (a.region_of[w] < 0 || a.regions[a.region_of[w]].classification.action == Action::kUnchanged) add[w] = 1;
  std::vector<int> welded = r.welded, vertices = r.vertices;
  for (int w = 0; w < a.welded.count(); ++w)
    if (add[w]) welded.push_back(w);
  for (int v = 0; v < c.mesh.vertex_count(); ++v)
    if (add[a.welded.weld_of[v]]) vertices.push_back(v);
  std::sort(welded.begin(), welded.end());
  std::sort(vertices.begin(), vertices.end());
  for (Region& o : a.regions) {
    if (o.id == r.id) continue;
    std::erase_if(o.welded, [&](int w) { return add[w] != 0; });
    std::erase_if(o.vertices, [&](int v) { return add[a.welded.weld_of[v]] != 0; });
  }
  for (int w = 0; w < a.welded.count(); ++w)
    if (add[w]) a.region_of[w] = r.id;
  r.welded = std::move(welded);
  r.vertices = std::move(vertices);
  r.reason += "; its tip rests on the body: " + std::to_string(r.rest_patch.size()) +
              " welded vertices where it lies on it join the tail, and the chain ends where the tail stops going "
              "backwards (the curl rides on its last bone)";
  r.rest_patch.clear();
}

}  // namespace detect
