// Small internal helpers shared by the solver sources (not installed).
#pragma once

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace solver::detail {

// Shortest unit quaternion taking direction a to direction b (SPEC swing()).
// Same rotation as Eigen's FromTwoVectors (used for the opposite case) with
// one square root for both input norms and one for the result.
[[gnu::noinline]] inline Eigen::Quaterniond swing_opposite(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return Eigen::Quaterniond::FromTwoVectors(a, b).normalized();  // rare: SVD picks the axis
}
inline Eigen::Quaterniond swing(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  const double norms = std::sqrt(a.squaredNorm() * b.squaredNorm());
  const double c = norms > 0.0 ? a.dot(b) / norms : 1.0;
  if (!(c > -1.0 + 1e-12)) return swing_opposite(a, b);
  const Eigen::Vector3d axis = a.cross(b) / norms;
  Eigen::Quaterniond q(1.0 + c, axis.x(), axis.y(), axis.z());
  return q.normalized();
}

// slerp(a, b, 1/2), exactly: the normalised sum on the shorter arc (what
// Eigen's slerp computes at t = 1/2 with three sines and an acos).
inline Eigen::Quaterniond half_way(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  const double sign = a.dot(b) < 0.0 ? -1.0 : 1.0;
  Eigen::Quaterniond q;
  q.coeffs() = a.coeffs() + sign * b.coeffs();
  return q.normalized();
}

// Eigen's a.slerp(t, b) with one sincos instead of three sines:
// sin((1-t)theta) = sin(theta) cos(t theta) - cos(theta) sin(t theta) and
// sin(theta) = sqrt(1 - cos^2 theta). Same result to rounding.
inline Eigen::Quaterniond slerp(const Eigen::Quaterniond& a, double t, const Eigen::Quaterniond& b) {
  const double d = a.dot(b);
  const double abs_d = std::abs(d);
  double scale_a = 1.0 - t, scale_b = t;
  if (abs_d < 1.0 - Eigen::NumTraits<double>::epsilon()) {
    const double theta = std::acos(abs_d);
    const double sin_theta = std::sqrt(1.0 - abs_d * abs_d);
    const double sin_t = std::sin(t * theta), cos_t = std::cos(t * theta);
    scale_b = sin_t / sin_theta;
    scale_a = cos_t - abs_d * scale_b;  // sin((1-t)theta) / sin(theta)
  }
  if (d < 0.0) scale_b = -scale_b;
  Eigen::Quaterniond q;
  q.coeffs() = scale_a * a.coeffs() + scale_b * b.coeffs();
  return q;
}

// The threshold t of the cosine test "|w| < t" that is equivalent to
// "rotation angle 2 acos|w| > limit_rad" for every limit: a limit of pi or
// more is never exceeded (-1), a negative one always (2).
inline double cos_half_angle_threshold(double limit_rad) {
  if (limit_rad >= M_PI) return -1.0;
  if (limit_rad < 0.0) return 2.0;
  return std::cos(0.5 * limit_rad);
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
