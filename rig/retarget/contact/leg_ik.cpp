// Analytic leg IK: the two-bone solver and the digitigrade hinge solver.
// The IK places the knee by the law of cosines in the plane of the new
// hip->ankle line and the current knee offset (the usual analytic two-joint
// solution, e.g. D. Holden, "Simple Two Joint IK", 2017), then turns each
// bone by the rotation that maps its (direction, knee plane normal) frame
// onto the new one, so bone lengths are kept exactly and twist follows the
// knee plane.
#include "rig/retarget/contact/limb_contact.h"

#include <algorithm>
#include <cmath>

#include "rig/anatomy/leg_geometry.h"

namespace rig {
namespace {

using leg_geometry::knee_offset;
using leg_geometry::position;
using leg_geometry::rotation;
using leg_geometry::smoothstep;

// Any unit vector perpendicular to u.
Vec3 any_perpendicular(const Vec3& u) {
  const Vec3 other = std::abs(u.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return u.cross(other).normalized();
}

// Unit component of v perpendicular to unit u; `fallback` when v is (nearly)
// parallel to u.
Vec3 perpendicular_part(const Vec3& v, const Vec3& u, double tiny, const Vec3& fallback) {
  const Vec3 p = v - u * v.dot(u);
  if (p.norm() > tiny) return p.normalized();
  const Vec3 f = fallback - u * fallback.dot(u);
  return f.norm() > 1e-12 ? Vec3(f.normalized()) : any_perpendicular(u);
}

// Orthonormal frame with first axis `dir` and third axis as close to `normal`
// as possible.
Eigen::Matrix3d frame(const Vec3& dir, const Vec3& normal) {
  const Vec3 e1 = dir.normalized();
  Vec3 e3 = normal - e1 * normal.dot(e1);
  e3 = e3.norm() > 1e-12 ? Vec3(e3.normalized()) : any_perpendicular(e1);
  Eigen::Matrix3d f;
  f.col(0) = e1;
  f.col(1) = e3.cross(e1);
  f.col(2) = e3;
  return f;
}

Quat frame_rotation(const Vec3& dir0, const Vec3& n0, const Vec3& dir1, const Vec3& n1) {
  const Eigen::Matrix3d r = frame(dir1, n1) * frame(dir0, n0).transpose();
  return Quat(r).normalized();
}

// Knee and ankle of a chain a -> knee -> ankle with bones l1, l2 whose ankle
// goes `dist` along unit u (clamped to what the bones reach), the knee
// bending towards unit v (perpendicular to u).
void place_knee(const Vec3& a, const Vec3& u, const Vec3& v, double l1, double l2, double dist, double tiny,
                Vec3& middle, Vec3& end, bool& reached) {
  const double d = std::clamp(dist, std::abs(l1 - l2), l1 + l2);
  reached = std::abs(dist - d) <= tiny;
  const double x = d > tiny ? (l1 * l1 - l2 * l2 + d * d) / (2.0 * d) : 0.0;
  const double h = std::sqrt(std::max(0.0, l1 * l1 - x * x));
  middle = a + u * x + v * h;
  end = a + u * d;
}

}  // namespace

TwoBoneSolution solve_two_bone(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& target,
                               const Vec3& pole) {
  TwoBoneSolution s;
  s.middle = b;
  s.end = c;
  const double l1 = (b - a).norm(), l2 = (c - b).norm();
  const double total = l1 + l2;
  if (!(l1 > 0) || !(l2 > 0)) return s;  // degenerate chain: nothing to turn
  const double tiny = 1e-9 * total;

  const Vec3 ac = c - a;
  const Vec3 at = target - a;
  const double dist = at.norm();
  // Folded chain (ankle on the hip): take the target, else the thigh, as its line.
  const Vec3 u_old = ac.norm() > tiny ? Vec3(ac.normalized()) : dist > tiny ? Vec3(at / dist) : Vec3((b - a) / l1);
  const Vec3 u = dist > tiny ? Vec3(at / dist) : u_old;
  // Where the knee points: its current offset from the hip->ankle line, or
  // the pole when the leg is straight.
  const Vec3 v_old = perpendicular_part(b - a, u_old, tiny, pole);
  const Vec3 v = perpendicular_part(v_old, u, 1e-12, pole);
  const Vec3 n_old = u_old.cross(v_old), n_new = u.cross(v);

  place_knee(a, u, v, l1, l2, dist, tiny, s.middle, s.end, s.reached);
  s.upper = frame_rotation(b - a, n_old, s.middle - a, n_new);
  s.lower = frame_rotation(c - b, n_old, s.end - s.middle, n_new);
  return s;
}

HingeLegSolution solve_hinge_leg(const Skeleton& sk, const Leg& leg, const Vec3& a, const Vec3& b, const Vec3& c,
                                 const Vec3& target, const Vec3& side) {
  HingeLegSolution s;
  s.middle = b;
  s.end = c;
  s.thigh = rotation(sk.bind_world[leg.thigh]);
  s.shin = rotation(sk.bind_world[leg.shin]);
  const Vec3 a0 = position(sk.bind_world[leg.thigh]), b0 = position(sk.bind_world[leg.shin]),
             c0 = position(sk.bind_world[leg.foot]);
  const double l1 = (b - a).norm(), l2 = (c - b).norm(), total = l1 + l2;
  if (!(l1 > 0) || !(l2 > 0) || leg.bind_knee_offset.isZero() || !((c0 - a0).norm() > 0.0)) return s;
  const double tiny = 1e-9 * total;
  const Vec3 at = target - a, ac = c - a;
  const double dist = at.norm();
  const Vec3 u = dist > tiny ? Vec3(at / dist) : ac.norm() > tiny ? Vec3(ac.normalized()) : Vec3((b - a) / l1);
  // Where the knee points: the clip's knee where it clearly bends to the
  // side (within 60 deg, 5 % of the thigh off the line), the side where it
  // does not, blended in between, so the direction never jumps.
  const Vec3 off = knee_offset(a, b, c);
  const Vec3 v_side = perpendicular_part(side, u, 1e-12, leg.bind_knee_offset);
  double trust = 0.0;
  if (off.norm() > tiny) {
    const double cosine = off.normalized().dot(v_side);
    // Full trust from cos 0.9 and 2 x kBentKneeFraction, none below cos 0.5
    // (60 deg) or kBentKneeFraction.
    trust = smoothstep((cosine - 0.5) / 0.4) * smoothstep((off.norm() / l1 - kBentKneeFraction) / kBentKneeFraction);
  }
  const Vec3 v_clip = perpendicular_part(off, u, 1e-12, v_side);
  Vec3 v = trust * v_clip + (1.0 - trust) * v_side;
  v = v.norm() > 1e-9 ? Vec3(v.normalized()) : v_side;
  place_knee(a, u, v, l1, l2, dist, tiny, s.middle, s.end, s.reached);
  // Each bone's world rotation from its bind one, hinge axis onto hinge axis:
  // the thigh's twist follows the knee, never the noisy plane of a
  // near-straight clip knee.
  const Vec3 u0 = (c0 - a0).normalized();
  const Vec3 n0 = u0.cross(leg.bind_knee_offset.normalized()), n1 = u.cross(v);
  s.thigh = (frame_rotation(b0 - a0, n0, s.middle - a, n1) * s.thigh).normalized();
  s.shin = (frame_rotation(c0 - b0, n0, s.end - s.middle, n1) * s.shin).normalized();
  return s;
}

}  // namespace rig
