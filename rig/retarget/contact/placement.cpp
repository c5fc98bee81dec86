#include "rig/retarget/contact/placement.h"

#include <algorithm>
#include <limits>

#include "rig/retarget/contact/grounding.h"

namespace rig {

std::vector<bool> tail_skin_mask(const Character& c, const PlacementOptions& opt) {
  std::vector<bool> tail_joint = tail_joint_mask(c.skeleton, opt.tail_joints);
  // Props (a sword in a hand) never set the body's bottom either.
  const std::vector<bool> prop = prop_joint_mask(c.skeleton);
  for (size_t j = 0; j < tail_joint.size() && j < prop.size(); ++j) tail_joint[j] = tail_joint[j] || prop[j];
  const int n = static_cast<int>(tail_joint.size());
  std::vector<bool> out(c.skin.influences.size(), false);
  for (size_t v = 0; v < out.size(); ++v) {
    double share = 0.0;
    for (const Influence& in : c.skin.influences[v]) {
      if (in.joint >= 0 && in.joint < n && tail_joint[in.joint]) share += in.weight;
    }
    out[v] = share > opt.tail_share;
  }
  return out;
}

Placement place_on_floor(const Character& c, std::span<const Vec3> positions, const PlacementOptions& opt) {
  Placement p;
  const int nv = static_cast<int>(positions.size());
  if (nv == 0) return p;
  const std::vector<bool> tail = tail_skin_mask(c, opt);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double body = kInf, all = kInf;
  p.frame_min = Vec3::Constant(kInf);
  p.frame_max = Vec3::Constant(-kInf);
  for (int v = 0; v < nv; ++v) {
    const Vec3& x = positions[v];
    all = std::min(all, x.y());
    p.frame_min = p.frame_min.cwiseMin(x);
    p.frame_max = p.frame_max.cwiseMax(x);
    // Vertices beyond the skin have no influences: body skin.
    if (v < static_cast<int>(tail.size()) && tail[v]) {
      ++p.tail_vertices;
      continue;
    }
    ++p.body_vertices;
    body = std::min(body, x.y());
  }
  p.empty = false;
  p.mesh_bottom = all;
  // All tail (no body skin): fall back to the whole mesh rather than fail.
  p.body_bottom = p.body_vertices > 0 ? body : all;
  p.vertical_offset = opt.floor_height - p.body_bottom;
  p.frame_min.y() += p.vertical_offset;
  p.frame_max.y() += p.vertical_offset;
  return p;
}

Placement place_on_floor(const Character& c, const PlacementOptions& opt) {
  return place_on_floor(c, c.mesh.positions, opt);
}

}  // namespace rig
