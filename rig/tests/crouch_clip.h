// The Mixamo biped (no head) and its crouch clip shared by the limb contact,
// limb reconciliation and clip transfer tests.
#pragma once

#include <cmath>
#include <vector>

#include "rig/model/model.h"
#include "test_skeleton.h"

namespace rig::test {

inline Quat axis_angle(double angle, Vec3 axis) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

// Mixamo biped in T-pose, legs 0.45 + 0.45, ankles 0.05 above the floor.
inline Skeleton biped() {
  const std::vector<test::JointSpec> joints = {
      {"mixamorig:Hips", -1, {0, 1.0, 0}},          {"mixamorig:Spine", 0, {0, 1.2, 0}},
      {"mixamorig:LeftUpLeg", 0, {0.1, 0.95, 0}},   {"mixamorig:LeftLeg", 2, {0.1, 0.5, 0}},
      {"mixamorig:LeftFoot", 3, {0.1, 0.05, 0}},    {"mixamorig:RightUpLeg", 0, {-0.1, 0.95, 0}},
      {"mixamorig:RightLeg", 5, {-0.1, 0.5, 0}},    {"mixamorig:RightFoot", 6, {-0.1, 0.05, 0}},
  };
  return test::make_skeleton(joints);
}

inline constexpr double kBend = 0.4;  // thigh forward, shin back, foot flat

// Knees bent by kBend, soles `clearance` above the floor; the hips travel
// `travel` along +z between t = 0.5 s and 1 s (feet dragged along).
inline Clip crouch(double clearance, double travel) {
  const double hips_y = 0.05 + 0.9 * std::cos(kBend) + 0.05 + clearance;
  Clip c;
  c.name = "crouch";
  c.duration = 1.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 0.5, 1.0}, {Vec3(0, hips_y, 0), Vec3(0, hips_y, 0), Vec3(0, hips_y, travel)}};
  c.tracks.push_back(hips);
  for (int side = 0; side < 2; ++side) {
    const int thigh = 2 + 3 * side;
    const Quat rots[3] = {axis_angle(-kBend, Vec3::UnitX()), axis_angle(2 * kBend, Vec3::UnitX()),
                          axis_angle(-kBend, Vec3::UnitX())};
    for (int r = 0; r < 3; ++r) {
      JointTracks jt;
      jt.joint = thigh + r;
      jt.rotation = {{0.0}, {rots[r]}};
      c.tracks.push_back(jt);
    }
  }
  return c;
}

inline std::vector<double> sample_times(int n, double duration) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(duration * k / n);
  return t;
}

}  // namespace rig::test
