// Legs and their sole points (rig/limb_contact.h): the thigh, shin, foot and
// toe joints of each leg, and the sole points from the joints or from the
// skinned mesh the limb reconciliation pins (limb_contact.cpp).
#include "rig/limb_contact.h"

#include <algorithm>
#include <limits>

#include "leg_geometry.h"
#include "rig/facing.h"
#include "rig/grounding.h"  // dominant_joint

namespace rig {
namespace {

using leg_geometry::knee_offset;
using leg_geometry::position;

bool is_ancestor(const Skeleton& sk, int ancestor, int joint) {
  for (int j = sk.parents[joint]; j >= 0; j = sk.parents[j])
    if (j == ancestor) return true;
  return false;
}

}  // namespace

std::vector<Leg> find_legs(const Skeleton& sk) {
  std::vector<Leg> legs;
  const Vec3 forward = facing_from_roles(sk).forward();  // toes' way when a leg has none
  for (bool front : {false, true})
    for (Side side : {Side::kLeft, Side::kRight}) {
      Leg leg;
      leg.side = side;
      leg.front = front;
      int n_thigh = 0, n_shin = 0, n_foot = 0, n_toe = 0;
      for (int j = 0; j < sk.size() && j < static_cast<int>(sk.roles.size()); ++j) {
        if (sk.roles[j].side != side || sk.roles[j].front != front) continue;
        switch (sk.roles[j].part) {
          case BodyPart::kThigh: leg.thigh = j; ++n_thigh; break;
          case BodyPart::kShin: leg.shin = j; ++n_shin; break;
          case BodyPart::kFoot: leg.foot = j; ++n_foot; break;
          case BodyPart::kToe: leg.toe = j; ++n_toe; break;
          default: break;
        }
      }
      if (n_thigh != 1 || n_shin != 1 || n_foot != 1) continue;
      if (!is_ancestor(sk, leg.thigh, leg.shin)) continue;
      if (!is_ancestor(sk, leg.shin, leg.foot)) {
        // A detached foot must not move with the leg through the tree either.
        if (is_ancestor(sk, leg.foot, leg.thigh)) continue;
        leg.detached_foot = true;
      }
      if (n_toe != 1 || !is_ancestor(sk, leg.foot, leg.toe)) leg.toe = -1;
      const Vec3 a = position(sk.bind_world[leg.thigh]), b = position(sk.bind_world[leg.shin]),
                 c = position(sk.bind_world[leg.foot]);
      if ((c - a).norm() > 0.0) {
        const Vec3 u = (c - a).normalized();
        const Vec3 off = knee_offset(a, b, c);
        // Only a knee bent away from the toes (a digitigrade hock): a human
        // clip's forward knee carried onto it crosses the hip->ankle line.
        const Vec3 toes = leg.toe >= 0 ? Vec3(position(sk.bind_world[leg.toe]) - c) : forward;
        const Vec3 t = toes - u * toes.dot(u);
        if (off.norm() >= kBentKneeFraction * (b - a).norm() && t.norm() > 0.0 &&
            off.normalized().dot(t.normalized()) < -0.5)
          leg.bind_knee_offset = off;
      }
      legs.push_back(leg);
    }
  return legs;
}

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
