// Ground contact (SPEC §4): particles at or above floor + rho, raised floor,
// settle onto the floor and lift off when the hips rise, never stretch a bone
// nor move the body, floor can be disabled.
#include <gtest/gtest.h>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hips_pose;
using testing::make_rig;
using testing::run_motion;
using testing::RunResult;

// Crouch backward: hips drop from 1.0 m to 0.35 m while moving back 0.4 m and
// turning 30 deg, then hold.
Eigen::Affine3d crouch_backward(double t) {
  const double s = t < 1.0 ? 0.5 * (1.0 - std::cos(M_PI * t)) : 1.0;
  return hips_pose(Eigen::Vector3d(0.0, 1.0 - 0.65 * s, -0.4 * s), 0.5 * s);
}

double min_tip_y(const RunResult& r) { return r.min_particle_y; }

TEST(Ground, CrouchKeepsParticlesAboveFloor) {
  for (int n : {1, 4, 8}) {
    const auto rig = make_rig(n);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    const RunResult r = run_motion(desc, ChainParams{}, crouch_backward, 60, 3.0);
    EXPECT_TRUE(r.finite);
    EXPECT_LT(r.max_length_error, 1e-5);
    EXPECT_GE(min_tip_y(r), 0.0 + 0.025 - 1e-6) << "n=" << n;
  }
}

TEST(Ground, RaisedFloor) {
  ChainParams params;
  params.floor_height = 0.2;
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  const RunResult r = run_motion(desc, params, crouch_backward, 60, 3.0);
  EXPECT_GE(min_tip_y(r), 0.2 + 0.025 - 1e-6);
  EXPECT_LT(r.max_length_error, 1e-5);
}

TEST(Ground, DisabledFloorLetsTailThrough) {
  ChainParams params;
  params.floor_enabled = false;
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  const RunResult r = run_motion(desc, params, crouch_backward, 60, 3.0);
  EXPECT_LT(min_tip_y(r), 0.0);
}

// Hips below floor + rho: u is clamped, no bone stretches, the root (body)
// is never moved.
TEST(Ground, NeverLiftsTheBody) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  auto sunk = [](double) { return hips_pose(Eigen::Vector3d(0, 0.02, 0), 0.0); };
  const RunResult r = run_motion(desc, ChainParams{}, sunk, 60, 2.0);
  EXPECT_TRUE(r.finite);
  EXPECT_LT(r.max_length_error, 1e-5);
  const Eigen::Vector3d root = root_head_world(desc, sunk(0.0));
  for (const auto& pts : r.points) EXPECT_LT((pts[0] - root).norm(), 1e-12);
}

// Settle onto the floor with the hips low, then lift off when they rise:
// no sticking (back in the high carry pose) and no popping (bounded speed).
TEST(Ground, SettleAndLiftOff) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  auto motion = [](double t) {
    const double s = t < 2.0 ? 0.0 : (t < 2.5 ? 0.5 * (1.0 - std::cos(M_PI * (t - 2.0) / 0.5)) : 1.0);
    return hips_pose(Eigen::Vector3d(0, 0.35 + 0.65 * s, 0), 0.0);
  };
  ChainState st, ref;
  init_state(desc, st);
  init_state(desc, ref);
  reset(desc, ChainParams{}, st, motion(0.0));
  reset(desc, ChainParams{}, ref, motion(10.0));
  std::vector<Eigen::Quaterniond> rot(4);
  int contacts_low = 0;
  for (int i = 0; i < 4; ++i) contacts_low += st.contact[static_cast<size_t>(i)];
  EXPECT_GT(contacts_low, 0) << "tail should rest on the floor with the hips at 0.35 m";
  std::vector<Eigen::Vector3d> prev = st.points;
  double max_jump = 0.0;
  for (int f = 1; f <= 8 * 60; ++f) {
    const double t = f / 60.0;
    step(desc, ChainParams{}, st, 1.0 / 60.0, motion(t), rot);
    for (size_t i = 1; i < st.points.size(); ++i) {
      // Relative to the root head: the hips' own motion is not a pop.
      const Eigen::Vector3d rel = st.points[i] - st.points[0];
      const Eigen::Vector3d rel_prev = prev[i] - prev[0];
      max_jump = std::max(max_jump, (rel - rel_prev).norm());
    }
    prev = st.points;
    if (t > 4.0) {
      for (int i = 0; i < 4; ++i) EXPECT_EQ(st.contact[static_cast<size_t>(i)], 0) << "stuck at t=" << t;
    }
  }
  // Hips rise at up to 2.04 m/s (3.4 cm per frame); a pop would be a jump of
  // the order of a link (0.2 m) relative to the root.
  EXPECT_LT(max_jump, 0.06);
  for (size_t i = 0; i < st.points.size(); ++i) EXPECT_LT((st.points[i] - ref.points[i]).norm(), 5e-3);
}

}  // namespace
}  // namespace solver
