// Test helper: a character as if its file had built it turned about Y (the
// bind pose, the mesh and the node chain above the root joints turned
// together, the clips untouched), its roles read again.
#pragma once

#include <cmath>

#include "rig/model/model.h"
#include "rig/anatomy/roles.h"

namespace rig::test {

inline Eigen::Matrix3d turn_about_up(double degrees) {
  return Eigen::AngleAxisd(degrees * 3.14159265358979323846 / 180.0, Vec3::UnitY()).toRotationMatrix();
}

inline Character turned(const Character& in, double degrees) {
  Character c = in;
  Mat4 t = Mat4::Identity();
  t.block<3, 3>(0, 0) = turn_about_up(degrees);
  const Mat4 t_inv = t.transpose();
  Skeleton& sk = c.skeleton;
  for (Mat4& m : sk.bind_world) m = t * m;
  for (Mat4& m : sk.inverse_bind) m = m * t_inv;
  for (Mat4& m : sk.root_parent_world) m = t * m;
  for (Vec3& p : c.mesh.positions) p = t.block<3, 3>(0, 0) * p;
  if (c.has_skin()) assign_roles(sk, c.mesh, c.skin);
  else assign_roles(sk);
  return c;
}

}  // namespace rig::test
