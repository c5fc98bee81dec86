// Small internal helpers shared by the solver sources (not installed).
#pragma once

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

#include "small_math.h"

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
// swing() for unit a and b (the step's directions are unit to rounding)
// with c = a.b given: returns the unnormalised (1 + c, a x b) and sets
// `norm2` to its squared norm, from the identity |(1 + c, a x b)|^2 = 2 (1 + c)
// for unit vectors while c >= 0 (so the square root does not wait for the
// cross product), from the components otherwise. Antiparallel: the exact
// swing, norm2 = 1.
[[gnu::always_inline]] inline Q4 swing_raw(double c, const V3& a, const V3& b, double& norm2) {
  if (c <= -1.0 + 1e-12) {
    norm2 = 1.0;
    return q4(swing_opposite(eig(a), eig(b)));
  }
  const V3 axis = cross(a, b);
  const Q4 q{1.0 + c, axis.x, axis.y, axis.z};
  norm2 = c >= 0.0 ? 2.0 + 2.0 * c : dot(q, q);
  return q;
}
inline Q4 scaled(double s, const Q4& q) { return {s * q.w, s * q.x, s * q.y, s * q.z}; }

// slerp(a, b, 1/2), exactly: the normalised sum on the shorter arc (what
// Eigen's slerp computes at t = 1/2 with three sines and an acos).
inline Q4 half_way(const Q4& a, const Q4& b) {
  const double sign = dot(a, b) < 0.0 ? -1.0 : 1.0;
  return normalized(Q4{a.w + sign * b.w, a.x + sign * b.x, a.y + sign * b.y, a.z + sign * b.z});
}

// The slerp weights without sin or acos. With theta the angle between the
// unit quaternions (cos theta = |a.b|) and z = sin^2(theta / 2):
//   sin(t theta) / sin theta = t S_t(z),  S_t(z) = 2F1(1 - t, 1 + t; 3/2; z)
// (U_{t-1}(cos theta) / t), and sin((1 - t) theta) / sin theta = u S_u(z)
// with u = 1 - t. For t in [0, 1] every coefficient of S is positive and at
// most z times the previous one, so for z <= kSlerpPolyMaxZ the degree-8
// polynomial is S to rounding (remainder < z^9 / (1 - z) < 2^-56), summed
// with no cancellation.
inline constexpr int kSlerpPolyDegree = 8;
inline constexpr double kSlerpPolyMaxZ = 1.0 / 80.0;  // theta <= 12.8 deg
struct SlerpPoly {
  double t = 0.0, u = 1.0;
  double ct[kSlerpPolyDegree], cu[kSlerpPolyDegree];  // coefficients of z^1..z^8
};
// The coefficients depend on t only: computed before z is known (and once
// per internal step for the constant coupling rate).
inline SlerpPoly slerp_poly(double t) {
  SlerpPoly p;
  p.t = t;
  p.u = 1.0 - t;
  const double t2 = t * t, u2 = p.u * p.u;
  double ct = 1.0, cu = 1.0;
  for (int k = 0; k < kSlerpPolyDegree; ++k) {
    const double sq = (k + 1.0) * (k + 1.0);
    const double inv_den = 1.0 / ((k + 1.0) * (k + 1.5));  // constant-folded
    ct *= (sq - t2) * inv_den;
    cu *= (sq - u2) * inv_den;
    p.ct[k] = ct;
    p.cu[k] = cu;
  }
  return p;
}
// 1 + c[0] z + ... + c[7] z^8 by Estrin's scheme (short dependency chain).
inline double slerp_poly_sum(const double* c, double z, double z2, double z4) {
  const double p01 = 1.0 + c[0] * z, p23 = c[1] + c[2] * z, p45 = c[3] + c[4] * z, p67 = c[5] + c[6] * z;
  const double p03 = p01 + p23 * z2, p47 = p45 + p67 * z2;
  return (p03 + p47 * z4) + c[7] * (z4 * z4);
}

// Spherical linear interpolation of unit quaternions on the shorter arc
// (Eigen's a.slerp(t, b)). For t in [0, 1] and quaternions within 12.8
// degrees (the step's uses: consecutive internal steps, the hips across a
// frame, a bend and its neighbours' target) the weights come from the
// polynomials above, with z = (1 - |a.b|) / 2; otherwise from one acos and one sincos. Same result to rounding; the
// result is unit to rounding.
[[gnu::always_inline]] inline Q4 slerp(const Q4& a, const SlerpPoly& poly, const Q4& b) {
  const double t = poly.t;
  const double d = dot(a, b);
  const double sign = d < 0.0 ? -1.0 : 1.0;
  // The weights need z only to absolute rounding (S' <= 2/3), so the
  // cancellation in 1 - |d| costs nothing.
  const double z = 0.5 * (1.0 - std::abs(d));
  double scale_a = poly.u, scale_b = t;
  if (t >= 0.0 && t <= 1.0 && z <= kSlerpPolyMaxZ) {
    const double z2 = z * z, z4 = z2 * z2;
    scale_a = poly.u * slerp_poly_sum(poly.cu, z, z2, z4);
    scale_b = t * slerp_poly_sum(poly.ct, z, z2, z4);
  } else {
    const double abs_d = std::abs(d);
    if (abs_d < 1.0 - Eigen::NumTraits<double>::epsilon()) {
      // sin((1-t)theta) = sin(theta) cos(t theta) - cos(theta) sin(t theta).
      const double theta = std::acos(abs_d);
      const double sin_theta = std::sqrt(1.0 - abs_d * abs_d);
      const double sin_t = std::sin(t * theta), cos_t = std::cos(t * theta);
      scale_b = sin_t / sin_theta;
      scale_a = cos_t - abs_d * scale_b;
    }
  }
  scale_b *= sign;
  return {scale_a * a.w + scale_b * b.w, scale_a * a.x + scale_b * b.x, scale_a * a.y + scale_b * b.y,
          scale_a * a.z + scale_b * b.z};
}
inline Q4 slerp(const Q4& a, double t, const Q4& b) { return slerp(a, slerp_poly(t), b); }

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
