// Synthetic rigs and hips motions shared by solver tests and benchmarks.
#pragma once

#include <Eigen/Geometry>

#include <cmath>
#include <string>
#include <vector>

#include "solver/solver.h"
#include "solver/testing/seeded_bugs.h"

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

namespace solver::testing {

// Result of driving a chain with a hips motion.
struct RunResult {
  std::vector<double> angle_range_deg;  // per bone: max angle from its start rotation
  double max_length_error = 0.0;        // relative, over all links and frames
  bool finite = true;
  double tip_excursion = 0.0;           // max |tip - tip(0)| in the hips frame, metres
  std::vector<Eigen::Vector3d> tip_world;  // per frame, metres
  std::vector<std::vector<Eigen::Vector3d>> points;  // per frame, N+1 points
  double min_particle_y = 1e30;         // over all frames, metres
};

// `bugs`: historical bugs re-enabled in reset() and step() (none by default).
template <class Motion>
RunResult run_motion(const ChainDesc& desc, const ChainParams& params, Motion motion, double fps,
                     double duration, const SeededBugs& bugs = {}) {
  ChainState st;
  init_state(desc, st);
  reset(desc, params, bugs, st, motion(0.0));
  const size_t n = desc.links.size();
  std::vector<Eigen::Quaterniond> rot(n);
  std::vector<Eigen::Quaterniond> start(st.out_local);
  RunResult r;
  r.angle_range_deg.assign(n, 0.0);
  auto tip_local = [&](const Eigen::Affine3d& hips) {
    return Eigen::Vector3d(hips_frame_world(desc, hips).conjugate() *
                           (st.points[n] - root_head_world(desc, hips)));
  };
  const Eigen::Vector3d tip0 = tip_local(motion(0.0));
  const int frames = static_cast<int>(std::lround(duration * fps));
  for (int f = 1; f <= frames; ++f) {
    const double t = f / fps;
    const Eigen::Affine3d hips = motion(t);
    step(desc, params, bugs, st, 1.0 / fps, hips, rot);
    for (size_t i = 0; i < n; ++i) {
      if (!rot[i].coeffs().allFinite()) r.finite = false;
      const double a = rot[i].angularDistance(start[i]) * 180.0 / M_PI;
      r.angle_range_deg[i] = std::max(r.angle_range_deg[i], a);
      const double len = (st.pos[i] - (i == 0 ? root_head_world(desc, hips) : st.pos[i - 1])).norm();
      r.max_length_error = std::max(r.max_length_error, std::abs(len / desc.links[i].length - 1.0));
      const double dl = (st.points[i + 1] - st.points[i]).norm();
      r.max_length_error = std::max(r.max_length_error, std::abs(dl / desc.links[i].length - 1.0));
      if (!st.pos[i].allFinite()) r.finite = false;
      r.min_particle_y = std::min(r.min_particle_y, st.points[i + 1].y());
    }
    r.tip_excursion = std::max(r.tip_excursion, (tip_local(hips) - tip0).norm());
    r.tip_world.push_back(st.points[n]);
    r.points.push_back(st.points);
  }
  return r;
}

// Worst ratio of a bone's angle range to the largest range of its neighbours
// (a 1-link chain has no neighbours: 1). `slack_deg` is added to the
// denominator so tiny ranges do not blow the ratio up.
inline double neighbour_ratio(const std::vector<double>& range, double slack_deg = 1.0) {
  double worst = 1.0;
  for (size_t i = 0; i < range.size(); ++i) {
    double nb = 0.0;
    if (i > 0) nb = std::max(nb, range[i - 1]);
    if (i + 1 < range.size()) nb = std::max(nb, range[i + 1]);
    if (range.size() > 1) worst = std::max(worst, range[i] / (nb + slack_deg));
  }
  return worst;
}

}  // namespace solver::testing
