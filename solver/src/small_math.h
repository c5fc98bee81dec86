// Plain double 3-vectors, quaternions and 3x3 rotations for the scalar step
// (internal, not installed). Why not Eigen here: Eigen vectorises Vector3d
// and Quaterniond with two-lane packets plus shuffles and calls
// _transformVector out of line; straight scalar code lets the compiler
// schedule the whole link update (measured: about a third of the step's
// instructions were packet shuffles and calls).
#pragma once

#include <Eigen/Geometry>

#include <cmath>

namespace solver::detail {

struct V3 {
  double x, y, z;
};
inline V3 v3(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }
inline Eigen::Vector3d eig(const V3& v) { return {v.x, v.y, v.z}; }
inline V3 operator+(const V3& a, const V3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(const V3& a, const V3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator-(const V3& a) { return {-a.x, -a.y, -a.z}; }
inline V3 operator*(double s, const V3& a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(const V3& a, const V3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline double norm2(const V3& a) { return dot(a, a); }
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Quaternion (w, x, y, z); Eigen stores (x, y, z, w).
struct Q4 {
  double w, x, y, z;
};
inline Q4 q4(const Eigen::Quaterniond& q) { return {q.w(), q.x(), q.y(), q.z()}; }
inline Eigen::Quaterniond eig(const Q4& q) { return {q.w, q.x, q.y, q.z}; }
inline V3 vec(const Q4& q) { return {q.x, q.y, q.z}; }
inline double dot(const Q4& a, const Q4& b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
inline Q4 operator*(const Q4& a, const Q4& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z, a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x};
}
inline Q4 normalized(const Q4& q) {
  const double inv = 1.0 / std::sqrt(dot(q, q));
  return {inv * q.w, inv * q.x, inv * q.y, inv * q.z};
}
// q v q^-1 for a unit q (Eigen's formula: t = 2 q.vec x v, v + w t + q.vec x t).
inline V3 rotate(const Q4& q, const V3& v) {
  const V3 u = vec(q);
  const V3 t = 2.0 * cross(u, v);
  return v + q.w * t + cross(u, t);
}

// Row-major 3x3 rotation.
struct M3 {
  double m[9];
};
// Rotation matrix of q given two_over_norm2 = 2 / |q|^2 (Eigen's
// toRotationMatrix for a unit q, where it is 2).
inline M3 matrix_of(const Q4& q, double two_over_norm2 = 2.0) {
  const double tx = two_over_norm2 * q.x, ty = two_over_norm2 * q.y, tz = two_over_norm2 * q.z;
  const double twx = tx * q.w, twy = ty * q.w, twz = tz * q.w;
  const double txx = tx * q.x, txy = ty * q.x, txz = tz * q.x;
  const double tyy = ty * q.y, tyz = tz * q.y, tzz = tz * q.z;
  return {{1 - (tyy + tzz), txy - twz, txz + twy,  //
           txy + twz, 1 - (txx + tzz), tyz - twx,  //
           txz - twy, tyz + twx, 1 - (txx + tyy)}};
}
inline M3 m3(const Eigen::Matrix3d& a) {
  return {{a(0, 0), a(0, 1), a(0, 2), a(1, 0), a(1, 1), a(1, 2), a(2, 0), a(2, 1), a(2, 2)}};
}
inline V3 operator*(const M3& a, const V3& v) {
  const double* m = a.m;
  return {m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
          m[6] * v.x + m[7] * v.y + m[8] * v.z};
}
// Transpose times v: the inverse rotation.
inline V3 tmul(const M3& a, const V3& v) {
  const double* m = a.m;
  return {m[0] * v.x + m[3] * v.y + m[6] * v.z, m[1] * v.x + m[4] * v.y + m[7] * v.z,
          m[2] * v.x + m[5] * v.y + m[8] * v.z};
}

}  // namespace solver::detail
