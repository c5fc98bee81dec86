// Legs and their sole points (rig/limb_contact.h): the thigh, shin, foot and
// toe joints of each leg, and the sole points from the joints or from the
// skinned mesh the limb reconciliation pins (limb_contact.cpp).
#include "rig/retarget/contact/limb_contact.h"

#include <algorithm>
#include <limits>

#include "rig/anatomy/leg_geometry.h"
#include "rig/anatomy/facing.h"
#include "rig/anatomy/skin_queries.h"  // dominant_joint

namespace rig {

using leg_geometry::position;

std::vector<SolePoint> joint_sole_points(const Skeleton& sk, const Leg& leg, double floor_y) {
  std::vector<SolePoint> out;
  for (int j : {leg.foot, leg.toe}) {
    if (j < 0) continue;
    Vec3 p = position(sk.bind_world[j]);
    p.y() = floor_y;
    out.push_back({j, p, {}});
  }
  return out;
}

std::vector<SolePoint> mesh_sole_points(const Character& ch, const Leg& leg, double floor_y, double band,
                                        int per_joint, double shin_fraction) {
  return mesh_sole_points(ch, group_by_dominant_joint(ch), leg, floor_y, band, per_joint, shin_fraction);
}

std::vector<SolePoint> mesh_sole_points(const Character& ch, const SkinGroups& groups, const Leg& leg, double floor_y,
                                        double band, int per_joint, double shin_fraction) {
  std::vector<SolePoint> out;
  // Feet that drive no skin (weightless IK targets: the shoe is skinned to
  // the shin): the sole is the shin's lowest skin.
  const bool foot_skin = !groups.of(leg.foot).empty() || !groups.of(leg.toe).empty();
  const std::vector<int> sole_joints = foot_skin ? std::vector<int>{leg.foot, leg.toe} : std::vector<int>{leg.shin};
  const int nv = std::min(ch.mesh.vertex_count(), static_cast<int>(ch.skin.influences.size()));
  // One joint's sole from the vertices `vs` it dominates (ascending).
  auto add_sole = [&](int j, std::vector<int> vs) {
    std::erase_if(vs, [nv](int v) { return v < 0 || v >= nv; });  // groups of another mesh
    const std::vector<int> dominated = vs;  // ascending: ties below go to the lower index
    double low = std::numeric_limits<double>::infinity();
    for (int v : vs) low = std::min(low, ch.mesh.positions[v].y());
    std::erase_if(vs, [&](int v) { return ch.mesh.positions[v].y() > low + band; });
    auto before = [&](int va, int vb) {
      const Vec3 &a = ch.mesh.positions[va], &b = ch.mesh.positions[vb];
      if (a.x() != b.x()) return a.x() < b.x();
      if (a.z() != b.z()) return a.z() < b.z();
      if (a.y() != b.y()) return a.y() < b.y();
      return va < vb;
    };
    std::sort(vs.begin(), vs.end(), before);
    // Seam duplicates: the same position twice (the lower index stays).
    vs.erase(std::unique(vs.begin(), vs.end(),
                         [&](int va, int vb) { return ch.mesh.positions[va] == ch.mesh.positions[vb]; }),
             vs.end());
    const size_t keep = std::min(vs.size(), static_cast<size_t>(std::max(1, per_joint)));
    std::vector<int> chosen;
    for (size_t i = 0; i < keep; ++i) chosen.push_back(vs[keep > 1 ? i * (vs.size() - 1) / (keep - 1) : 0]);
    // Plus the joint's bind-extreme vertex along each direction of
    // {-1,0,1}^3 with a non-positive y (ties: lower index): a pointed toe or
    // a raised heel puts a vertex lowest that is not on the bind sole.
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 0; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          const Vec3 dir(dx, dy, dz);
          int best = -1;
          for (int v : dominated)
            if (best < 0 || ch.mesh.positions[v].dot(dir) > ch.mesh.positions[best].dot(dir)) best = v;
          if (best >= 0 && std::find(chosen.begin(), chosen.end(), best) == chosen.end()) chosen.push_back(best);
        }
    for (int v : chosen) out.push_back({j, ch.mesh.positions[v], ch.skin.influences[v]});
  };
  for (int j : sole_joints) {
    if (j < 0) continue;
    const std::span<const int> group = groups.of(j);
    add_sole(j, std::vector<int>(group.begin(), group.end()));
  }
  // Shin skin next to the ankle (within shin_fraction legs) rides with the foot:
  // on a long digitigrade foot carrying a human roll it is the leg's lowest
  // point (heel-down in stance, under the floor in swing), so it is a sole
  // of its own, chosen the same way.
  if (foot_skin && leg.shin >= 0 && !out.empty() && shin_fraction > 0) {
    const Skeleton& sk = ch.skeleton;
    auto at = [&](int j) { return Vec3(sk.bind_world[j].block<3, 1>(0, 3)); };
    const double reach = shin_fraction * ((at(leg.shin) - at(leg.thigh)).norm() + (at(leg.foot) - at(leg.shin)).norm());
    std::vector<int> near;
    for (int v : groups.of(leg.shin))
      if (v >= 0 && v < nv && (ch.mesh.positions[v] - at(leg.foot)).norm() <= reach) near.push_back(v);
    if (!near.empty()) add_sole(leg.shin, near);
  }
  if (out.empty()) return joint_sole_points(ch.skeleton, leg, floor_y);
  return out;
}

}  // namespace rig
