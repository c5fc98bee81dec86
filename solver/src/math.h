// Small internal helpers shared by the solver sources (not installed).
#pragma once

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace solver::detail {

// Shortest unit quaternion taking direction a to direction b (SPEC swing()).
inline Eigen::Quaterniond swing(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return Eigen::Quaterniond::FromTwoVectors(a, b).normalized();
}

// Bend angle of a unit quaternion, radians: 2 acos(clamp(|w|, 0, 1)).
inline double quat_angle(const Eigen::Quaterniond& q) {
  return 2.0 * std::acos(std::clamp(std::abs(q.w()), 0.0, 1.0));
}

// Rotation part of an affine transform with (possibly) uniform or axis scale.
inline Eigen::Quaterniond rotation_of(const Eigen::Matrix3d& m) {
  Eigen::Matrix3d r = m;
  for (int c = 0; c < 3; ++c) {
    const double n = r.col(c).norm();
    if (n > 0.0) r.col(c) /= n;
  }
  if (r.determinant() < 0.0) r.col(0) = -r.col(0);
  return Eigen::Quaterniond(r).normalized();
}

inline Eigen::Vector3d scale_of(const Eigen::Matrix3d& m) {
  Eigen::Vector3d s(m.col(0).norm(), m.col(1).norm(), m.col(2).norm());
  if (m.determinant() < 0.0) s.x() = -s.x();
  return s;
}

inline bool finite(const Eigen::Vector3d& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

}  // namespace solver::detail
