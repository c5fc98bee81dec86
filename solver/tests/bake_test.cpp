// Bake (SPEC §9): warm-up until the loop-point state stops changing, keys
// close the loop, a cold start would not.
#include <gtest/gtest.h>

#include <cstdio>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hips_pose;
using testing::make_rig;

// A walk-like hips loop: 1 s period, bob, sway and yaw.
std::vector<Eigen::Affine3d> walk_loop(int samples) {
  std::vector<Eigen::Affine3d> out;
  for (int k = 0; k < samples; ++k) {
    const double ph = 2.0 * M_PI * k / samples;
    out.push_back(hips_pose(Eigen::Vector3d(0.06 * std::sin(ph), 1.0 + 0.03 * std::cos(2 * ph), 0),
                            0.25 * std::sin(ph)));
  }
  return out;
}

TEST(Bake, LoopClosesAfterWarmUp) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const auto hips = walk_loop(30);
  BakeOptions opt;
  opt.sample_rate = 30.0;
  opt.model_height = 1.9;
  BakeResult res;
  ASSERT_TRUE(bake_loop(desc, ChainParams{}, hips, opt, res));
  EXPECT_TRUE(res.converged);
  EXPECT_GE(res.passes, 2);  // the tip settles slowly: one pass is not enough
  EXPECT_EQ(res.frames, 31);
  EXPECT_EQ(res.bones, 4);
  ASSERT_EQ(res.times.size(), 31u);
  ASSERT_EQ(res.rotations.size(), 31u * 4u);
  EXPECT_DOUBLE_EQ(res.times.back(), 1.0);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(res.rotations[static_cast<size_t>(30 * 4 + i)].coeffs(),
              res.rotations[static_cast<size_t>(i)].coeffs());
  }
  EXPECT_LT(res.closure_error_deg, 0.05);
  std::printf("bake: %d passes, change %.2e of H, closure %.4f deg\n", res.passes, res.last_change,
              res.closure_error_deg);

  // Keys animate: the tail moves during the loop.
  double range = 0.0;
  for (int k = 0; k < 31; ++k)
    range = std::max(range, res.rotations[static_cast<size_t>(k * 4 + 3)].angularDistance(
                                res.rotations[3]));
  EXPECT_GT(range * 180.0 / M_PI, 2.0);
}

// Positions at the loop point (FK of the keys) close to 1e-3 of H.
TEST(Bake, LoopPointPositionsMatch) {
  const auto rig = make_rig(6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const auto hips = walk_loop(24);
  BakeOptions opt;
  opt.sample_rate = 24.0;
  opt.model_height = 1.9;
  BakeResult res;
  ASSERT_TRUE(bake_loop(desc, ChainParams{}, hips, opt, res));
  EXPECT_TRUE(res.converged);
  // FK of the raw last recorded pass is checked through closure angle; an
  // angle error e on links of total length L moves the tip by at most e * L.
  EXPECT_LT(res.closure_error_deg * M_PI / 180.0 * desc.total_length, 1e-3 * 1.9);
}

TEST(Bake, BadInput) {
  const auto rig = make_rig(2);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  BakeResult res;
  EXPECT_FALSE(bake_loop(desc, ChainParams{}, {}, BakeOptions{}, res));
}

}  // namespace
}  // namespace solver
