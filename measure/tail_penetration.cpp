// Tail into the legs (see tail_penetration.h).
#include "measure/tail_penetration.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace measure {

std::vector<char> outside_legs_at_bind(const rig::Character& c, std::span<const rig::LegCapsule> legs,
                                       std::span<const int> tail) {
  std::vector<char> out(tail.size(), 1);
  for (size_t i = 0; i < tail.size(); ++i)
    for (const rig::LegCapsule& k : legs)
      if (rig::capsule_depth(k, rig::Mat4::Identity(), c.mesh.positions[static_cast<size_t>(tail[i])]) > 0.0) out[i] = 0;
  return out;
}

double tail_in_legs_depth(const rig::Character& c, std::span<const rig::LegCapsule> legs, std::span<const int> tail,
                          std::span<const char> counted, std::span<const rig::Mat4> world,
                          std::span<const rig::Vec3> posed) {
  double deepest = 0.0;
  for (const rig::LegCapsule& k : legs) {
    const rig::Mat4 skinning = world[static_cast<size_t>(k.joint)] * c.skeleton.inverse_bind[static_cast<size_t>(k.joint)];
    const rig::PosedAxis axis = rig::posed_axis(k, skinning);  // once per capsule, not per vertex
    // A vertex further from the axis' middle than half the axis plus the
    // larger radius (and a margin far above rounding) has a negative depth,
    // which never raises `deepest` (>= 0): not measured. Non-finite
    // capsules measure every vertex.
    const rig::Vec3 mid = 0.5 * (axis.a + axis.b);
    const double reach = 0.5 * (axis.b - axis.a).norm() + std::max({k.radius_a, k.radius_b, 0.0});
    const double bound = reach + 1e-9 * (reach + mid.norm());
    const double bound2 = std::isfinite(bound) && mid.allFinite() ? bound * bound : std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < tail.size(); ++i) {
      if (!counted[i]) continue;
      const rig::Vec3& q = posed[static_cast<size_t>(tail[i])];
      if ((q - mid).squaredNorm() > bound2) continue;
      deepest = std::max(deepest, rig::capsule_depth(k, axis, q));
    }
  }
  return deepest;
}

Penetration penetration(std::span<const double> depths, double threshold) {
  Penetration p;
  if (depths.empty()) return p;
  long over = 0;
  for (double d : depths) {
    over += d > threshold;
    p.max_depth = std::max(p.max_depth, d);
  }
  p.frames_over_fraction = static_cast<double>(over) / static_cast<double>(depths.size());
  return p;
}

}  // namespace measure
