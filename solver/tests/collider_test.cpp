// Colliders (issue 46): a tail swung fast past a shin never passes through
// it, whether the shin meets its tip or the middle of a link, and a pushed
// link keeps its length; without colliders the step is unchanged, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hips_pose;
using testing::make_rig;

constexpr double kDeg = M_PI / 180.0;

// Hips turning +-70 deg about Y every 0.4 s: the tail sweeps side to side.
Eigen::Affine3d swinging_hips(double t) {
  return hips_pose(Eigen::Vector3d(0, 1.0, 0), 70.0 * kDeg * std::sin(2.0 * M_PI * t / 0.4));
}

// A vertical shin (world Y from -5 to 5: nothing passes over or under it)
// at horizontal distance `radius_from_axis` from the hips' axis, `deg` round
// from straight behind them (the tail's side at +yaw).
Capsule shin(double radius_from_axis, double deg, double r) {
  const Eigen::Vector3d at(-radius_from_axis * std::sin(deg * kDeg), 0.0, -radius_from_axis * std::cos(deg * kDeg));
  return {at + Eigen::Vector3d(0, -5, 0), at + Eigen::Vector3d(0, 5, 0), r, r};
}

double distance_to_axis(const Eigen::Vector3d& p, const Capsule& k) {
  const Eigen::Vector3d d = p - k.a;
  return std::hypot(d.x(), d.z());  // vertical axis
}

// The largest depth of any link (sampled along it) inside the shin, metres.
double deepest(const std::vector<Eigen::Vector3d>& points, const Capsule& k, double margin) {
  double worst = -1.0;
  for (size_t i = 0; i + 1 < points.size(); ++i)
    for (int s = 0; s <= 20; ++s) {
      const Eigen::Vector3d p = points[i] + (points[i + 1] - points[i]) * (s / 20.0);
      worst = std::max(worst, k.radius_a + margin - distance_to_axis(p, k));
    }
  return worst;
}

struct SwingRun {
  double max_tip_deg = -1e9;    // largest angle of the tail tip round the hips' axis
  double max_depth = -1.0;      // deepest any link went into the shin (margin included)
  double max_length_error = 0;  // relative
};

SwingRun swing(int links, std::span<const Capsule> colliders, double dt = 1.0 / 30.0) {
  const auto rig = make_rig(links);
  ChainParams params;
  ChainDesc desc;
  EXPECT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(links));
  SwingRun r;
  for (int f = 0; f <= 60; ++f) {
    const double t = f * dt;
    step(desc, params, st, f == 0 ? 0.0 : dt, FrameInput{swinging_hips(t), colliders}, rot);
    const Eigen::Vector3d tip = st.points.back();
    r.max_tip_deg = std::max(r.max_tip_deg, std::atan2(-tip.x(), -tip.z()) / kDeg);
    // The particles of the latest internal step (the displayed points
    // interpolate between two of them).
    std::vector<Eigen::Vector3d> particles{root_head_world(desc, swinging_hips(t))};
    particles.insert(particles.end(), st.pos.begin(), st.pos.end());
    if (!colliders.empty()) r.max_depth = std::max(r.max_depth, deepest(particles, colliders[0], params.collider_margin));
    for (int i = 0; i < links; ++i) {
      const double len = (st.points[static_cast<size_t>(i) + 1] - st.points[static_cast<size_t>(i)]).norm();
      r.max_length_error = std::max(r.max_length_error, std::abs(len / desc.links[static_cast<size_t>(i)].length - 1.0));
    }
  }
  return r;
}

TEST(Colliders, AFastSwingNeverPassesThroughAShin) {
  // The shin stands where the tail's middle sweeps (its tip sweeps farther
  // out): a test of the tip alone never sees it.
  const Capsule leg[] = {shin(0.4, 25.0, 0.04)};
  const SwingRun free_run = swing(1, {});
  ASSERT_GT(free_run.max_tip_deg, 35.0) << "without colliders the tail sweeps past the shin's angle";
  const SwingRun blocked = swing(1, leg);
  EXPECT_LT(blocked.max_tip_deg, 25.0) << "the tail stops at the shin, on its own side";
  EXPECT_LT(blocked.max_depth, 1e-3) << "and never inside it (margin included)";
  EXPECT_LT(blocked.max_length_error, 1e-9) << "a pushed link keeps its length";
  // The same swing in one 0.1 s frame per sample: sub-steps cannot skip it.
  EXPECT_LT(swing(1, leg, 0.1).max_tip_deg, 25.0);
}

TEST(Colliders, EveryLinkOfALongerTailStaysOut) {
  const Capsule leg[] = {shin(0.45, 25.0, 0.04)};
  const SwingRun blocked = swing(4, leg);
  EXPECT_LT(blocked.max_depth, 2e-3);
  EXPECT_LT(blocked.max_length_error, 1e-6);
}

TEST(Colliders, NoUsableCollidersIsTheStepWithoutThem) {
  const auto rig = make_rig(4);
  ChainParams params;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState a, b;
  init_state(desc, a);
  init_state(desc, b);
  std::vector<Eigen::Quaterniond> ra(4), rb(4);
  for (int f = 0; f <= 60; ++f) {
    const double dt = f == 0 ? 0.0 : 1.0 / 60.0;
    step(desc, params, a, dt, swinging_hips(f / 60.0), ra);
    // A collider with a NaN or a negative radius is ignored: nothing non-finite gets in.
    const Capsule broken[] = {{Eigen::Vector3d(NAN, 0, 0), Eigen::Vector3d::Zero(), 0.1, 0.1},
                              {Eigen::Vector3d(0, 0, -0.5), Eigen::Vector3d(0, 2, -0.5), -0.1, 0.1}};
    step(desc, params, b, dt, FrameInput{swinging_hips(f / 60.0), broken}, rb);
    for (size_t i = 0; i < 4; ++i) ASSERT_EQ(0, std::memcmp(ra[i].coeffs().data(), rb[i].coeffs().data(), 4 * sizeof(double)));
  }
}

// A reset puts the tail somewhere new: the next step takes the colliders
// where it gives them, not swept from where the last frame had them.
TEST(Colliders, AResetStartsTheCollidersAfresh) {
  const auto rig = make_rig(4);
  ChainParams params;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState used, fresh;
  init_state(desc, used);
  init_state(desc, fresh);
  std::vector<Eigen::Quaterniond> ra(4), rb(4);
  const Capsule there[] = {shin(0.4, 25.0, 0.04)};
  for (int f = 0; f <= 30; ++f) step(desc, params, used, f == 0 ? 0.0 : 1.0 / 60.0, FrameInput{swinging_hips(f / 60.0), there}, ra);
  const Eigen::Affine3d elsewhere = hips_pose(Eigen::Vector3d(0.5, 1.0, 0.0), 0.0);
  Capsule here[] = {shin(0.4, 25.0, 0.04)};
  here[0].a.x() += 0.5, here[0].b.x() += 0.5;
  reset(desc, params, used, elsewhere);
  reset(desc, params, fresh, elsewhere);
  step(desc, params, used, 1.0 / 60.0, FrameInput{elsewhere, here}, ra);
  step(desc, params, fresh, 1.0 / 60.0, FrameInput{elsewhere, here}, rb);
  for (size_t i = 0; i < 4; ++i) ASSERT_EQ(0, std::memcmp(ra[i].coeffs().data(), rb[i].coeffs().data(), 4 * sizeof(double)));
}

}  // namespace
}  // namespace solver
