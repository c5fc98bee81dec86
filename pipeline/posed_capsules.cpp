// Posed colliders (see posed_capsules.h).
#include "pipeline/posed_capsules.h"

namespace pipeline {

void posed_capsules(const rig::Skeleton& sk, std::span<const rig::Mat4> world,
                    std::span<const rig::JointCapsule> capsules, std::vector<solver::Capsule>& out) {
  for (const rig::JointCapsule& k : capsules) {
    if (k.joint < 0 || k.joint >= sk.size() || static_cast<size_t>(k.joint) >= world.size()) continue;
    const rig::Mat4 m = world[static_cast<size_t>(k.joint)] * sk.inverse_bind[static_cast<size_t>(k.joint)];
    out.push_back({(m * k.a.homogeneous()).head<3>(), (m * k.b.homogeneous()).head<3>(), k.radius_a, k.radius_b});
  }
}

}  // namespace pipeline
