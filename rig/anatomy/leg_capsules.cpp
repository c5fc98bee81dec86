// Tapered capsules fitted to a body's legs (see leg_capsules.h).
#include "rig/anatomy/leg_capsules.h"

#include <algorithm>
#include <cmath>

#include "rig/anatomy/legs.h"
#include "rig/anatomy/skin_queries.h"

namespace rig {

namespace {

Vec3 joint_position(const Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

// Where q projects on the segment [a, b] (0..1) and its distance from there.
std::pair<double, double> along(const Vec3& a, const Vec3& b, const Vec3& q) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0.0 ? std::clamp((q - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return {t, (q - (a + t * ab)).norm()};
}

double median(std::vector<double>& v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

std::vector<LegCapsule> fit_leg_capsules(const Character& c, std::span<const char> exclude) {
  std::vector<LegCapsule> out;
  const Skeleton& sk = c.skeleton;
  if (!c.has_skin()) return out;
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  for (const Leg& leg : find_legs(sk)) {
    const int bones[2][2] = {{leg.thigh, leg.shin}, {leg.shin, leg.foot}};
    for (const auto& bone : bones) {
      if (bone[0] < 0 || bone[1] < 0) continue;
      LegCapsule k;
      k.joint = bone[0];
      k.a = joint_position(sk, bone[0]);
      // A detached foot sits where the shin's bind offset puts it (legs.h).
      k.b = joint_position(sk, bone[1]);
      std::vector<double> near_a, near_b;
      for (int v = 0; v < nv; ++v) {
        if (!exclude.empty() && static_cast<size_t>(v) < exclude.size() && exclude[static_cast<size_t>(v)]) continue;
        if (dominant_joint(c.skin.influences[static_cast<size_t>(v)]) != bone[0]) continue;
        const auto [t, d] = along(k.a, k.b, c.mesh.positions[static_cast<size_t>(v)]);
        (t < 0.5 ? near_a : near_b).push_back(d);
      }
      if (static_cast<int>(near_a.size()) < kMinCapsuleVertices || static_cast<int>(near_b.size()) < kMinCapsuleVertices)
        continue;
      k.radius_a = median(near_a);
      k.radius_b = median(near_b);
      out.push_back(k);
    }
  }
  return out;
}

PosedAxis posed_axis(const LegCapsule& k, const Mat4& skinning) {
  return {(skinning * k.a.homogeneous()).head<3>(), (skinning * k.b.homogeneous()).head<3>()};
}

double capsule_depth(const LegCapsule& k, const PosedAxis& axis, const Vec3& q) {
  const auto [t, d] = along(axis.a, axis.b, q);
  return k.radius_a + t * (k.radius_b - k.radius_a) - d;
}

double capsule_depth(const LegCapsule& k, const Mat4& skinning, const Vec3& q) {
  return capsule_depth(k, posed_axis(k, skinning), q);
}

}  // namespace rig
