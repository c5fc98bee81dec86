// A NaN or infinite hips transform is ignored at runtime in every build type
// (issue 15): the state is kept, the frame counted, and the chain goes on
// exactly as if the bad frame had not been given.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hip_swing;
using testing::make_rig;

TEST(NonFiniteHips, IgnoredStateKeptAndCounted) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState with_bad, clean;
  init_state(desc, with_bad);
  init_state(desc, clean);
  std::vector<Eigen::Quaterniond> a(4), b(4);
  const double dt = 1.0 / 60.0;
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    for (int f = 0; f < 240; ++f) {
      const Eigen::Affine3d hips = hip_swing(f * dt);
      if (f % 40 == 20) {  // a poisoned frame, then the same frame done right
        Eigen::Affine3d poisoned = hips;
        poisoned.translation().x() = bad;
        step(desc, ChainParams{}, with_bad, dt, poisoned, a);
        for (const auto& q : a) ASSERT_TRUE(q.coeffs().allFinite()) << "frame " << f;
      }
      step(desc, ChainParams{}, with_bad, dt, hips, a);
      step(desc, ChainParams{}, clean, dt, hips, b);
      for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_TRUE(a[i].coeffs().allFinite()) << "frame " << f;
        ASSERT_EQ(a[i].coeffs(), b[i].coeffs()) << "frame " << f << " bone " << i;
      }
    }
  }
  EXPECT_EQ(with_bad.rejected_hips, 12);
  EXPECT_EQ(clean.rejected_hips, 0);
}

TEST(NonFiniteHips, FirstFrameNonFiniteLeavesChainUninitialised) {
  const auto rig = make_rig(3);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> out(3);
  Eigen::Affine3d nan = Eigen::Affine3d::Identity();
  nan.linear()(0, 0) = std::numeric_limits<double>::quiet_NaN();
  step(desc, ChainParams{}, st, 1.0 / 60.0, nan, out);
  EXPECT_FALSE(st.initialized);
  EXPECT_EQ(st.rejected_hips, 1);
  for (const auto& q : out) EXPECT_TRUE(q.coeffs().allFinite());
  step(desc, ChainParams{}, st, 1.0 / 60.0, hip_swing(0.0), out);
  EXPECT_TRUE(st.initialized);
  for (const auto& p : st.pos) EXPECT_TRUE(p.allFinite());
}

}  // namespace
}  // namespace solver
