// Batch with idle sway (issue 46) against the scalar reference: the same
// hips into both, chains standing, walking off at their own time and
// standing again (the sway fades out and back in), now and then a NaN hips
// or a reset. The batch sways as the scalar solver does (within float's
// reach of it, and by the documented amount), every kernel gives the same
// bits, and so does any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "solver/batch.h"
#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Quaternionf;
using Eigen::Vector3d;
using Eigen::Vector3f;

constexpr double kHipsHeight = 1.0;
constexpr double kH = 2.0 * kHipsHeight;  // a biped's hips at half its height
constexpr int kLinks = 8;

// Chain c breathes standing, walks (1.2 m/s, the hips yawing 8 deg a step)
// from 3 + 0.1 c s for 2 s, then stands again where it stopped.
Affine3d hips(int chain, double t) {
  const double start = 3.0 + 0.1 * chain, stop = start + 2.0;
  const double walked = std::clamp(t - start, 0.0, stop - start);
  const bool walking = t > start && t < stop;
  const double bob = walking ? 0.03 * std::cos(4.0 * M_PI * t) : 0.004 * std::sin(M_PI * t);
  return testing::hips_pose(Vector3d(0.0, kHipsHeight + bob, 1.2 * walked),
                            walking ? 0.14 * std::sin(2.0 * M_PI * t) : 0.0);
}

// The tip's turn about the vertical from straight behind, degrees (the
// hips face +Z when standing).
double tip_yaw_deg(const Vector3d& root, const Vector3d& tip) {
  const Vector3d d = tip - root;
  return std::atan2(-d.x(), -d.z()) * 180.0 / M_PI;
}

struct SwayRun {
  double max_point_error = 0.0;  // batch vs scalar, metres
  double sway_effect = 0.0;      // scalar with vs without sway, largest point distance, metres
  double batch_yaw_min = 1e9, batch_yaw_max = -1e9;  // standing, 1.2..3 s, chain 0
  int rejected = 0;
  std::vector<Quaternionf> out;  // every frame
};

// `count` chains for 8 s at 60 fps (a 1/144 s frame every 5th), sway on.
SwayRun compare(int count, int threads = 1, BatchIsa isa = BatchIsa::kAuto) {
  const auto rig = testing::make_rig(kLinks, true, 0.8, kHipsHeight);
  const ChainParams params = idle_sway(ChainParams{});
  ChainDesc desc;
  EXPECT_TRUE(build_chain(rig.input(), params, desc).ok());
  Batch batch(desc, params, count, isa);
  batch.set_threads(threads);
  const size_t n = static_cast<size_t>(count);
  std::vector<ChainState> scalar(n), calm(n);
  for (auto& st : scalar) init_state(desc, st);
  for (auto& st : calm) init_state(desc, st);
  std::vector<Affine3d> input(n);
  std::vector<Quaternionf> out(n * kLinks);
  std::vector<Quaterniond> rot(kLinks);
  std::vector<Vector3f> pts(kLinks + 1);
  SwayRun r;
  double t = 0.0;
  for (int f = 0; f <= 480; ++f) {
    const double dt = f == 0 ? 0.0 : (f % 5 == 2 ? 1.0 / 144.0 : 1.0 / 60.0);
    t += dt;
    for (int c = 0; c < count; ++c) {
      input[static_cast<size_t>(c)] = hips(c, t);
      // A NaN hips now and then: that chain holds, its sway clock too.
      if (f % 60 == 30 && c % 5 == f % 3 && c > 0)
        input[static_cast<size_t>(c)](1, 3) = std::nan("");
    }
    if (f == 240) {  // chain 2 reset mid-run: its sway starts over
      batch.reset(2, input[2]);
      reset(desc, params, scalar[2], input[2]);
      reset(desc, ChainParams{}, calm[2], input[2]);
    }
    batch.step(dt, input, out);
    r.out.insert(r.out.end(), out.begin(), out.end());
    for (int c = 0; c < count; ++c) {
      const size_t u = static_cast<size_t>(c);
      step(desc, params, scalar[u], dt, input[u], rot);
      step(desc, ChainParams{}, calm[u], dt, input[u], rot);
      if (!input[u].matrix().allFinite()) continue;
      batch.points(c, pts);
      for (size_t i = 0; i <= kLinks; ++i) {
        r.max_point_error =
            std::max(r.max_point_error, (pts[i].cast<double>() - scalar[u].points[i]).norm());
        r.sway_effect = std::max(r.sway_effect, (calm[u].points[i] - scalar[u].points[i]).norm());
      }
      if (c == 0 && t >= 1.2 && t <= 3.0) {
        const double yaw = tip_yaw_deg(pts[0].cast<double>(), pts[kLinks].cast<double>());
        r.batch_yaw_min = std::min(r.batch_yaw_min, yaw);
        r.batch_yaw_max = std::max(r.batch_yaw_max, yaw);
      }
    }
  }
  for (int c = 0; c < count; ++c) r.rejected += batch.rejected_hips(c);
  return r;
}

TEST(BatchIdleSway, SwaysAsTheScalarSolverDoes) {
  const SwayRun r = compare(19);
  std::printf(
      "[batch sway] 19 chains x 8 s: batch vs scalar max %.4f %% of H; the sway itself moves "
      "points up to "
      "%.2f %% of H; standing tip yaw %.2f..%.2f deg; %d NaN hips held\n",
      100.0 * r.max_point_error / kH, 100.0 * r.sway_effect / kH, r.batch_yaw_min, r.batch_yaw_max,
      r.rejected);
  EXPECT_GT(r.rejected, 0);
  EXPECT_GT(r.sway_effect / kH, 0.02) << "the comparison is of a swaying tail";
  EXPECT_LT(r.max_point_error, 0.02 * r.sway_effect)
      << "the batch's sway is the scalar one's, to float's reach";
  // Documented (params.h): idle_sway() swings the tip 4-12 deg each way.
  for (double side : {r.batch_yaw_max, -r.batch_yaw_min}) {
    EXPECT_GT(side, 4.0);
    EXPECT_LT(side, 12.0);
  }
}

TEST(BatchIdleSway, EveryIsaGivesTheSameBits) {
  const SwayRun base = compare(21, 1, BatchIsa::kBaseline);
  for (BatchIsa isa : {BatchIsa::kAvx2, BatchIsa::kAvx512}) {
    const auto rig = testing::make_rig(kLinks);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    if (Batch(desc, ChainParams{}, 1, isa).isa() != isa) {
      std::printf("[isa] CPU without %s: not compared\n", batch_isa_name(isa));
      continue;
    }
    const SwayRun other = compare(21, 1, isa);
    ASSERT_EQ(other.out.size(), base.out.size());
    for (size_t k = 0; k < base.out.size(); ++k)
      ASSERT_EQ(
          std::memcmp(base.out[k].coeffs().data(), other.out[k].coeffs().data(), 4 * sizeof(float)),
          0)
          << batch_isa_name(isa) << " vs baseline, output " << k;
  }
}

TEST(BatchIdleSway, SameBitsForAnyThreadCount) {
  const SwayRun one = compare(37, 1);
  for (int threads : {2, 3}) {
    const SwayRun other = compare(37, threads);
    ASSERT_EQ(other.out.size(), one.out.size());
    for (size_t k = 0; k < one.out.size(); ++k)
      ASSERT_EQ(
          std::memcmp(one.out[k].coeffs().data(), other.out[k].coeffs().data(), 4 * sizeof(float)),
          0)
          << threads << " threads, output " << k;
  }
}

}  // namespace
}  // namespace solver
