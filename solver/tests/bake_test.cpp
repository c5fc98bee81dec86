// Bake (SPEC §9): warm-up until the loop-point state stops changing, keys
// close the loop, a cold start would not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// A cold start (no warm-up) does not close: its seam is worse than the
// warmed-up loop's, per bone and at the tip. The measured seam is reported
// before closing; close_loop = false keeps the raw last key.
TEST(Bake, ColdStartSeamIsWorse) {
  const auto rig = make_rig(5);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const auto hips = walk_loop(30);
  BakeOptions warm;
  warm.model_height = 1.9;
  BakeOptions cold = warm;
  cold.max_passes = 0;
  cold.close_loop = false;
  BakeResult w, c;
  ASSERT_TRUE(bake_loop(desc, ChainParams{}, hips, warm, w));
  ASSERT_TRUE(bake_loop(desc, ChainParams{}, hips, cold, c));
  EXPECT_EQ(c.passes, 0);
  EXPECT_FALSE(c.converged);
  ASSERT_EQ(w.bone_closure_error_deg.size(), 5u);
  ASSERT_EQ(c.bone_closure_error_deg.size(), 5u);
  double wmax = 0;
  for (double e : w.bone_closure_error_deg) wmax = std::max(wmax, e);
  EXPECT_DOUBLE_EQ(wmax, w.closure_error_deg);
  EXPECT_GT(c.closure_error_deg, 10.0 * w.closure_error_deg + 0.1);
  EXPECT_GT(c.tip_closure_error, 10.0 * w.tip_closure_error);
  // Without closing, the raw last key differs from the first by the seam.
  const auto& last = c.rotations[static_cast<size_t>(30 * 5 + 4)];
  EXPECT_NEAR(last.angularDistance(c.rotations[4]) * 180.0 / M_PI, c.bone_closure_error_deg[4], 1e-9);
  // Closed: the tip track closes too.
  EXPECT_EQ(w.tip_in_hips.size(), 31u);
  EXPECT_EQ(w.tip_in_hips.back(), w.tip_in_hips.front());
  std::printf("seam: warm %.4f deg / %.2e m, cold %.3f deg / %.3e m\n", w.closure_error_deg, w.tip_closure_error,
              c.closure_error_deg, c.tip_closure_error);
}

// Non-looping clip: starts settled in carry pose (the same pose reset()
// gives), one key per hips sample, and the tail moves with the hips.
TEST(Bake, ClipStartsSettled) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  auto hips = walk_loop(30);
  hips.push_back(hips.front());
  BakeOptions opt;
  opt.model_height = 1.9;
  BakeResult res;
  ASSERT_TRUE(bake_clip(desc, ChainParams{}, hips, opt, res));
  EXPECT_EQ(res.frames, 31);
  EXPECT_EQ(res.passes, 0);
  ASSERT_EQ(res.rotations.size(), 31u * 4u);
  ChainState st;
  init_state(desc, st);
  reset(desc, ChainParams{}, st, hips[0]);
  for (int i = 0; i < 4; ++i)
    EXPECT_LT(res.rotations[static_cast<size_t>(i)].angularDistance(st.out_local[static_cast<size_t>(i)]), 1e-12);
  double range = 0;
  for (const auto& a : res.tip_in_hips)
    for (const auto& b : res.tip_in_hips) range = std::max(range, (a - b).norm());
  EXPECT_GT(range, 0.01);
  for (const auto& q : res.rotations) EXPECT_NEAR(q.norm(), 1.0, 1e-12);
}

TEST(Bake, NonFiniteHipsRejected) {
  const auto rig = make_rig(3);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  auto hips = walk_loop(10);
  hips[3].translation().x() = std::nan("");
  BakeResult res;
  EXPECT_FALSE(bake_loop(desc, ChainParams{}, hips, BakeOptions{}, res));
  EXPECT_FALSE(bake_clip(desc, ChainParams{}, hips, BakeOptions{}, res));
  EXPECT_TRUE(res.rotations.empty());
  BakeOptions bad;
  bad.sample_rate = 0;
  EXPECT_FALSE(bake_clip(desc, ChainParams{}, walk_loop(10), bad, res));
}

TEST(Bake, BadInput) {
  const auto rig = make_rig(2);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  BakeResult res;
  EXPECT_FALSE(bake_loop(desc, ChainParams{}, {}, BakeOptions{}, res));
}

// A tail that strikes the floor can settle into a cycle of several loops
// (here it repeats every third loop: one internal step more or less in
// contact per loop) instead of a fixed loop. The warm-up recognises the
// cycle and writes its mean loop, which closes; one loop of the cycle alone
// would not (its end is the next loop's start).
TEST(Bake, FloorStrikeCycleOfLoopsIsWrittenAsItsMeanLoop) {
  const auto rig = make_rig(8);
  ChainParams p;
  p.floor_height = 0.58;  // the 0.8 m tail of a 1 m hips grazes it
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), p, desc).ok());
  const auto hips = walk_loop(30);
  BakeOptions opt;
  opt.model_height = 1.9;
  BakeResult r;
  ASSERT_TRUE(bake_loop(desc, p, hips, opt, r));
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.cycle_loops, 3);
  EXPECT_GT(r.last_change, 100.0 * opt.tolerance) << "the cycle's loops start apart";
  EXPECT_LT(r.closure_error_deg, 0.01);
  EXPECT_LT(r.tip_closure_error / 1.9, opt.tolerance);
  // One loop of the settled cycle (the state after the same warm-up, keys
  // of its next loop) does not close.
  BakeOptions one = opt;
  one.max_passes = r.passes;
  one.tolerance = 0.0;  // no stop, no cycle: the plain recorded loop
  one.close_loop = false;
  BakeResult single;
  ASSERT_TRUE(bake_loop(desc, p, hips, one, single));
  EXPECT_FALSE(single.converged);
  EXPECT_GT(single.closure_error_deg, 10.0 * r.closure_error_deg + 0.05);
  std::printf("floor strike: %d passes, cycle of %d loops (starts %.2e of H apart): mean loop seam %.5f deg, "
              "one loop's %.3f deg\n",
              r.passes, r.cycle_loops, r.last_change, r.closure_error_deg, single.closure_error_deg);
  // The tail still moves.
  double range = 0.0;
  for (int k = 0; k < r.frames; ++k)
    range = std::max(range, r.rotations[static_cast<size_t>(k * 8 + 7)].angularDistance(r.rotations[7]));
  EXPECT_GT(range * 180.0 / M_PI, 2.0);
}

}  // namespace
}  // namespace solver
