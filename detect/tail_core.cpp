#include "detect/tail_core.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "detect/attachment.h"
#include "detect/beside_legs.h"
#include "rig/anatomy/legs.h"
#include "detect/geometry/components.h"
#include "detect/geometry/geodesic.h"
#include "detect/geometry/shape.h"
#include "detect/tube.h"
#include "detect/format.h"

namespace detect {

namespace {

// The region split raises its threshold at most this many times (issue 15:
// one vertex at 1e38 made the 0.0025 H steps run for hours); longer reaches
// take proportionally larger steps.
constexpr int kMaxSplitSteps = 2000;

// Geodesic length (the chain's L percentile) of a region from its ring.
double length_from_ring(const Analysis& a, const Region& r, double percentile_p) {
  std::vector<char> allowed(a.far.size(), 0);
  for (int v : r.welded) allowed[v] = 1;
  const std::vector<double> g = geodesic_distance(a.graph, a.welded_positions, r.ring, allowed);
  std::vector<double> values;
  values.reserve(r.welded.size());
  for (int v : r.welded) values.push_back(g[v]);
  return percentile(values, percentile_p);
}

}  // namespace

Region core_at(const Analysis& a, const Region& domain, const std::vector<double>& distance, double level,
               int seed) {
  Region core;
  core.cut_level = level;
  std::vector<char> mask(a.far.size(), 0);
  for (int v : domain.welded) mask[v] = distance[v] > level * a.height;
  if (!mask[seed]) return core;
  std::vector<char> in_core;
  component_of(a.graph, mask, seed, in_core);
  for (int v : domain.welded) {
    if (in_core[v]) core.welded.push_back(v);
  }
  for (int v : domain.vertices) {
    if (in_core[a.welded.weld_of[v]]) core.vertices.push_back(v);
  }
  return core;
}

bool passes_as_tail_core(const Analysis& a, const Context& x, Region& core) {
  const Params& p = x.params;
  if (static_cast<int>(core.welded.size()) < p.min_region_vertices) return false;
  // A tail protrudes (classify): the protrusion evaluate would find (the
  // centroid of shape_of is this mean) decides most levels without evaluating
  // the whole core.
  const rig::Vec3 mean = centroid(positions_of(a, core.welded));
  if (!(protrusion_of(a, x, core.welded, mean).centroid_ratio >= p.classify.protrusion))
    return false;
  evaluate(a, x, core);
  if (core.classification.cls != AppendageClass::kTail) return false;
  if (core.shape.flatness > p.classify.max_flatness) return false;
  return length_from_ring(a, core, p.chain.length_percentile) >= p.split_min_length * a.height;
}

namespace {

// A core that runs on past the tail's base along a fat belly (see
// trim_to_tube) ends where it stops being a tube, when what is left still
// passes as a tail core; else it stays as found.
void trim_core_to_tube(const Analysis& a, const Context& x, int seed, Region& core) {
  const std::vector<rig::Vec3> normals = area_normals(a.welded_positions, a.welded.triangles);
  const TubeCut t = trim_to_tube(a.graph, a.welded_positions, normals, core.welded, seed, 0.0,
                                 x.params.tube_max_closure);
  if (!t.cut) return;
  Region trimmed;
  trimmed.cut_level = core.cut_level;
  trimmed.welded = t.kept;
  for (int v : core.vertices)
    if (std::binary_search(t.kept.begin(), t.kept.end(), a.welded.weld_of[v])) trimmed.vertices.push_back(v);
  if (!passes_as_tail_core(a, x, trimmed)) return;
  trimmed.tube_end = t.cut_from_tip;
  trimmed.tube_end_closure = t.open_closure;
  trimmed.reason += "; stops being a tube " + fmt("%.3f", t.cut_from_tip / a.height) +
                    " H from the tip (slice normals sum to " + fmt("%.2f", t.open_closure) + " of their length >= " +
                    fmt("%.2f", x.params.tube_max_closure) + "): " + std::to_string(core.welded.size() - t.kept.size()) +
                    " core vertices beyond it left to the body";
  core = std::move(trimmed);
}

}  // namespace

bool find_tail_core(const Analysis& a, const Context& x, const Region& r, Region& out, bool legs_aside) {
  const double H = a.height;
  const Params& p = x.params;
  if (!(p.split_step > 0.0) || r.welded.empty()) return false;
  int seed = r.welded.front();
  for (int v : r.welded) {
    if (a.skeleton_distance[v] > a.skeleton_distance[seed]) seed = v;
  }
  if (!std::isfinite(a.skeleton_distance[seed])) return false;
  const bool lying = rig::legs_lie_level(x.sk);
  if (legs_aside) {
    if (!lying || !find_tail_beside_legs(a, x, r, seed, out)) return false;
    trim_core_to_tube(a, x, seed, out);
    return true;
  }
  const double first = p.far_fraction * H;
  const double step = std::max(p.split_step * H, (r.reach - first) / kMaxSplitSteps);
  if (!(step > 0.0) || !std::isfinite(step)) return false;
  const Region* domain = &r;  // the previous level's core once there is one
  Region previous;
  for (int k = 1; k <= kMaxSplitSteps; ++k) {
    const double level = (first + k * step) / H;
    if (level * H >= r.reach) return false;
    Region core = core_at(a, *domain, a.skeleton_distance, level, seed);
    if (static_cast<int>(core.welded.size()) < p.min_region_vertices)
      return false;  // so is every higher core
    if (!passes_as_tail_core(a, x, core)) {
      previous = std::move(core);
      domain = &previous;
      continue;
    }
    // The saddle's cut ring still runs over the fillet where tail and
    // trunk skin blend; cut split_margin x H higher when the core still
    // passes there (inside this core; a negative margin searches the region).
    const double higher = level + p.split_margin;
    Region cut = core_at(a, higher >= level ? core : r, a.skeleton_distance, higher, seed);
    if (passes_as_tail_core(a, x, cut)) {
      out = std::move(cut);
    } else {
      out = std::move(core);
    }
    // Issue 45 class 4 (beside_legs.h): lying level and cut beside a leg, the
    // tail runs along the trailing legs.
    Region along;
    if (lying && cut_beside_a_leg(x, out) && find_tail_beside_legs(a, x, r, seed, along)) out = std::move(along);
    trim_core_to_tube(a, x, seed, out);
    return true;
  }
  return false;
}

}  // namespace detect
