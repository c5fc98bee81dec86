// Synthetic rigs and hips motions shared by solver tests and benchmarks.
#pragma once

#include <Eigen/Geometry>

#include <cmath>
#include <string>
#include <vector>

#include "solver/solver.h"

namespace solver::testing {

// Plain rig data owning its arrays; input() views them.
struct TestRig {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Eigen::Matrix4d> inverse_bind;
  std::vector<Eigen::Matrix4d> bind_world;

  int add(const std::string& name, int parent, const Eigen::Affine3d& world) {
    names.push_back(name);
    parents.push_back(parent);
    bind_world.push_back(world.matrix());
    inverse_bind.push_back(world.matrix().inverse());
    return static_cast<int>(names.size()) - 1;
  }
  ChainRigInput input() const {
    ChainRigInput in;
    in.names = names;
    in.parents = parents;
    in.inverse_bind = inverse_bind;
    return in;
  }
};

// Hips at (0, hips_height, 0) facing +Z, two legs, a tail of n bones hanging
// backwards and down from (0, hips_height - 0.05, -0.1), total length
// `length` metres. Bones share the hips' bind rotation (SPEC §3) unless
// `twist_bones` gives each tail bone a different bind rotation.
inline TestRig make_rig(int n, bool with_end = true, double length = 0.8,
                        double hips_height = 1.0, bool twist_bones = false,
                        const std::string& prefix = "", double scale = 1.0) {
  TestRig r;
  auto at = [&](const Eigen::Vector3d& p, const Eigen::Quaterniond& q = Eigen::Quaterniond::Identity()) {
    Eigen::Affine3d a = Eigen::Affine3d::Identity();
    a.translate(p * scale);
    a.rotate(q);
    return a;
  };
  const int root = r.add(prefix + "Root", -1, at(Eigen::Vector3d(0, 0, 0)));
  const int hips = r.add(prefix + "Hips", root, at(Eigen::Vector3d(0, hips_height, 0)));
  r.add(prefix + "Spine", hips, at(Eigen::Vector3d(0, hips_height + 0.2, 0)));
  const int lt = r.add(prefix + "LeftUpLeg", hips, at(Eigen::Vector3d(0.1, hips_height - 0.05, 0)));
  r.add(prefix + "LeftLeg", lt, at(Eigen::Vector3d(0.1, hips_height * 0.5, 0)));
  const int rt = r.add(prefix + "RightUpLeg", hips, at(Eigen::Vector3d(-0.1, hips_height - 0.05, 0)));
  r.add(prefix + "RightLeg", rt, at(Eigen::Vector3d(-0.1, hips_height * 0.5, 0)));
  const Eigen::Vector3d dir = Eigen::Vector3d(0, -0.6, -1.0).normalized();
  Eigen::Vector3d p(0, hips_height - 0.05, -0.1);
  int parent = hips;
  for (int i = 0; i < n; ++i) {
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    if (twist_bones) q = Eigen::AngleAxisd(0.7 * (i + 1), Eigen::Vector3d(0.3, 1, 0.2).normalized());
    parent = r.add(prefix + "Tail_" + std::to_string(i + 1), parent, at(p, q));
    p += dir * (length / n);
  }
  if (with_end) r.add(prefix + "Tail_End", parent, at(p));
  return r;
}

inline Eigen::Affine3d hips_pose(const Eigen::Vector3d& pos, double yaw_rad) {
  Eigen::Affine3d a = Eigen::Affine3d::Identity();
  a.translate(pos);
  a.rotate(Eigen::AngleAxisd(yaw_rad, Eigen::Vector3d::UnitY()));
  return a;
}

// SPEC §4 hip swing: 0.5 m sideways in 2/3 s and back while turning 90 deg,
// smooth (cosine) profile, then held. `sign` mirrors it (left/right).
inline Eigen::Affine3d hip_swing(double t, double hips_height = 1.0, double sign = 1.0) {
  const double seg = 2.0 / 3.0;
  double s = 0.0;  // 0 -> 1 -> 0
  if (t < seg) {
    s = 0.5 * (1.0 - std::cos(M_PI * t / seg));
  } else if (t < 2 * seg) {
    s = 0.5 * (1.0 + std::cos(M_PI * (t - seg) / seg));
  }
  return hips_pose(Eigen::Vector3d(sign * 0.5 * s, hips_height, 0.0), sign * 0.5 * M_PI * s);
}

// Hips of a rig built at height h, moved in world (identity bind rotation).
inline Eigen::Affine3d still_hips(double hips_height = 1.0) {
  return hips_pose(Eigen::Vector3d(0, hips_height, 0), 0.0);
}

}  // namespace solver::testing
