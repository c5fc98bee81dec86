#include "rig/anatomy/legs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/anatomy/facing.h"
#include "rig/anatomy/leg_geometry.h"

namespace rig {
namespace {

using leg_geometry::knee_offset;
using leg_geometry::position;

bool is_ancestor(const Skeleton& sk, int ancestor, int joint) {
  for (int j = sk.parents[joint]; j >= 0; j = sk.parents[j])
    if (j == ancestor) return true;
  return false;
}

}  // namespace

std::vector<Leg> find_legs(const Skeleton& sk) {
  std::vector<Leg> legs;
  const Vec3 forward = facing_from_roles(sk).forward();  // toes' way when a leg has none
  for (bool front : {false, true})
    for (Side side : {Side::kLeft, Side::kRight}) {
      Leg leg;
      leg.side = side;
      leg.front = front;
      int n_thigh = 0, n_shin = 0, n_foot = 0, n_toe = 0;
      for (int j = 0; j < sk.size() && j < static_cast<int>(sk.roles.size()); ++j) {
        if (sk.roles[j].side != side || sk.roles[j].front != front) continue;
        switch (sk.roles[j].part) {
          case BodyPart::kThigh: leg.thigh = j; ++n_thigh; break;
          case BodyPart::kShin: leg.shin = j; ++n_shin; break;
          case BodyPart::kFoot: leg.foot = j; ++n_foot; break;
          case BodyPart::kToe: leg.toe = j; ++n_toe; break;
          default: break;
        }
      }
      if (n_thigh != 1 || n_shin != 1 || n_foot != 1) continue;
      if (!is_ancestor(sk, leg.thigh, leg.shin)) continue;
      if (!is_ancestor(sk, leg.shin, leg.foot)) {
        // A detached foot must not move with the leg through the tree either.
        if (is_ancestor(sk, leg.foot, leg.thigh)) continue;
        leg.detached_foot = true;
      }
      if (n_toe != 1 || !is_ancestor(sk, leg.foot, leg.toe)) leg.toe = -1;
      const Vec3 a = position(sk.bind_world[leg.thigh]), b = position(sk.bind_world[leg.shin]),
                 c = position(sk.bind_world[leg.foot]);
      if ((c - a).norm() > 0.0) {
        const Vec3 u = (c - a).normalized();
        const Vec3 off = knee_offset(a, b, c);
        // Only a knee bent away from the toes (a digitigrade hock): a human
        // clip's forward knee carried onto it crosses the hip->ankle line.
        const Vec3 toes = leg.toe >= 0 ? Vec3(position(sk.bind_world[leg.toe]) - c) : forward;
        const Vec3 t = toes - u * toes.dot(u);
        if (off.norm() >= kBentKneeFraction * (b - a).norm() && t.norm() > 0.0 &&
            off.normalized().dot(t.normalized()) < -0.5)
          leg.bind_knee_offset = off;
      }
      legs.push_back(leg);
    }
  return legs;
}

bool legs_lie_level(const Skeleton& sk) {
  const int n = std::min<int>(sk.size(), static_cast<int>(sk.roles.size()));
  auto part = [&](int j) { return j >= 0 && j < n ? sk.roles[j].part : BodyPart::kNone; };
  // The body's side-to-side axis, level: from its right thighs to its left
  // ones (zero without both). A leg splayed along it is a sprawling
  // stance (a lizard's knee out to the side, its foot on the floor), not a
  // body lying level: only the run along the body counts.
  Vec3 left = Vec3::Zero(), right = Vec3::Zero();
  int lefts = 0, rights = 0;
  for (int j = 0; j < n; ++j) {
    if (part(j) != BodyPart::kThigh) continue;
    const Vec3 p = sk.bind_world[j].block<3, 1>(0, 3);
    if (sk.roles[j].side == Side::kLeft) left += p, ++lefts;
    if (sk.roles[j].side == Side::kRight) right += p, ++rights;
  }
  Vec3 lateral = Vec3::Zero();
  if (lefts > 0 && rights > 0) {
    lateral = left / lefts - right / rights;
    lateral.y() = 0.0;
    lateral = lateral.norm() > 0.0 ? Vec3(lateral.normalized()) : Vec3::Zero();
  }
  int legs = 0, level = 0;
  for (int foot = 0; foot < n; ++foot) {
    if (part(foot) != BodyPart::kFoot) continue;
    // The topmost thigh above the foot (at most n steps up: any cycle ends).
    int thigh = -1;
    for (int j = sk.parents[foot], steps = 0; j >= 0 && j < n && steps < n; j = sk.parents[j], ++steps)
      if (part(j) == BodyPart::kThigh) thigh = j;
    if (thigh < 0) continue;
    const Vec3 d = sk.bind_world[foot].block<3, 1>(0, 3) - sk.bind_world[thigh].block<3, 1>(0, 3);
    Vec3 run(d.x(), 0.0, d.z());
    run -= run.dot(lateral) * lateral;
    ++legs;
    level += std::abs(d.y()) < run.norm();
  }
  return legs > 0 && level == legs;
}

}  // namespace rig
