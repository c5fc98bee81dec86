#include "rig/retarget/clearance/body_floor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "rig/anatomy/skin_queries.h"
#include "rig/model/lowest_skin.h"
#include "rig/model/pose.h"
#include "rig/retarget/clearance/arm_clearance.h"  // carried_object_vertices

namespace rig {

std::vector<int> body_floor_vertices(const Character& c, const GroundingOptions& opt, double weld_tolerance) {
  std::vector<int> body;
  if (!c.has_skin()) return body;
  const Skeleton& sk = c.skeleton;
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  const std::vector<bool> tail = tail_joint_mask(sk, opt.tail_joints);
  const std::vector<char> carried = carried_object_vertices(c, weld_tolerance);
  std::vector<char> listed_tail(static_cast<size_t>(std::max(0, nv)), 0);
  for (int v : opt.tail_vertices)
    if (v >= 0 && v < nv) listed_tail[static_cast<size_t>(v)] = 1;
  for (int v = 0; v < nv; ++v) {
    const int d = dominant_joint(c.skin.influences[v]);
    if (d < 0 || d >= sk.size()) continue;  // no influence: not skinned
    if (tail[static_cast<size_t>(d)] || listed_tail[static_cast<size_t>(v)]) continue;
    if (static_cast<size_t>(v) < carried.size() && carried[static_cast<size_t>(v)]) continue;
    body.push_back(v);
  }
  return body;
}

BodyFloorDepth body_under_floor(const Character& c, std::span<const int> vertices, const Clip& clip,
                                std::span<const double> times, double floor_y) {
  if (vertices.empty() || !c.has_skin() || !std::isfinite(floor_y)) return body_under_floor(c, LowestSkinIndex{}, clip, times, floor_y);
  return body_under_floor(c, index_lowest_skin(c, vertices), clip, times, floor_y);
}

BodyFloorDepth body_under_floor(const Character& c, const LowestSkinIndex& index, const Clip& clip,
                                std::span<const double> times, double floor_y) {
  BodyFloorDepth out;
  out.depth.assign(times.size(), 0.0);
  const Skeleton& sk = c.skeleton;
  const std::span<const int> vertices = index.vertices;
  if (vertices.empty() || !c.has_skin() || !std::isfinite(floor_y)) return out;
  std::vector<std::pair<double, int>> order;
  std::vector<Transform> locals;
  std::vector<Mat4> world(static_cast<size_t>(sk.size()));
  std::vector<Eigen::RowVector4d> height;  // y row of each skinning matrix
  const double cap = floor_y + 1e-9 * (1.0 + std::abs(floor_y));
  for (size_t k = 0; k < times.size(); ++k) {
    locals = sk.neutral_local;
    apply_clip(clip, times[k], locals);
    local_to_world(sk, locals, world);
    skinning_heights(sk, world, height);
    // Only a point under the floor is deep (a margin far above rounding):
    // the groups above it are not searched (lowest_skinned_below).
    const LowestItem lowest = lowest_skinned_below(
        index, height, cap, [](int) { return true; }, [&](int v) { return skinned_height(c, v, height); }, order);
    const double low = lowest.y;
    const int low_v = lowest.item >= 0 ? vertices[static_cast<size_t>(lowest.item)] : -1;
    // A non-finite pose (never expected) counts as no depth rather than
    // crossing the boundary as NaN.
    const double d = std::isfinite(low) ? std::max(0.0, floor_y - low) : 0.0;
    out.depth[k] = d;
    if (d > out.max_depth) {
      out.max_depth = d;
      out.key = static_cast<int>(k);
      out.vertex = low_v;
      out.joint = dominant_joint(c.skin.influences[static_cast<size_t>(low_v)]);
    }
  }
  return out;
}

std::vector<double> body_floor_lift(const BodyFloorDepth& depth, std::span<const double> times, double tolerance,
                                    double smoothing_radius_s) {
  std::vector<double> raw(depth.depth.size(), 0.0);
  bool any = false;
  for (size_t k = 0; k < raw.size(); ++k) {
    raw[k] = std::max(0.0, depth.depth[k] - std::max(0.0, tolerance));
    any |= raw[k] > 0.0;
  }
  if (!any) return raw;
  return smooth_lift(raw, smoothing_samples(times, smoothing_radius_s));
}

}  // namespace rig
