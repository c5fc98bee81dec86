#include "rig/model/units.h"

#include <cmath>

namespace rig {

void express_in_metres(Character& c) {
  const double s = c.meters_per_unit;
  if (!std::isfinite(s) || !(s > 0) || s == 1.0) return;
  for (Vec3& p : c.mesh.positions) p *= s;
  Skeleton& sk = c.skeleton;
  for (auto* mats : {&sk.bind_world, &sk.inverse_bind, &sk.root_parent_world})
    for (Mat4& m : *mats) m.block<3, 1>(0, 3) *= s;
  for (auto* locals : {&sk.neutral_local, &sk.stored_local})
    for (Transform& t : *locals) t.translation *= s;
  for (Clip& clip : c.clips)
    for (JointTracks& jt : clip.tracks)
      for (Vec3& v : jt.translation.values) v *= s;
  for (JointCapsule& k : c.colliders) {
    k.a *= s;
    k.b *= s;
    k.radius_a *= s;
    k.radius_b *= s;
  }
  c.meters_per_unit = 1.0;
}

}  // namespace rig
