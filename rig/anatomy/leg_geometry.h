// Leg geometry shared by the leg IK (leg_ik.cpp) and limb reconciliation
// (limb_contact.cpp).
#pragma once

#include <algorithm>

#include "rig/model/model.h"

namespace rig::leg_geometry {

inline Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }
inline Quat rotation(const Mat4& m) { return Transform::from_matrix(m).rotation; }

// The knee b's offset from the hip a -> ankle c line (zero for a folded chain).
inline Vec3 knee_offset(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ac = c - a;
  if (!(ac.norm() > 0.0)) return Vec3::Zero();
  const Vec3 u = ac.normalized();
  return (b - a) - u * (b - a).dot(u);
}

inline double smoothstep(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * (3.0 - 2.0 * s);
}

}  // namespace rig::leg_geometry
