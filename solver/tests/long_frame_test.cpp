// Frame times longer than max_substeps internal steps (a 1 s hitch, a 1 fps
// caller): the time beyond the cap is dropped, but the hips must still reach
// the new pose within the frame. Issue 15: with dt = 1 s and the hips
// alternating 0.9 m per frame, the sub-steps stopped at 64/120 of the way and
// the first particle ended up to 4x its link length from the tail root.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hips_pose;
using testing::make_rig;

// Largest |particle distance - link length| / link length over the chain,
// the first link measured from the tail root at `hips`.
double worst_length_error(const ChainDesc& desc, const ChainState& st, const Eigen::Affine3d& hips) {
  double worst = 0.0;
  Eigen::Vector3d head = root_head_world(desc, hips);
  for (int i = 0; i < desc.size(); ++i) {
    const double len = desc.links[static_cast<size_t>(i)].length;
    worst = std::max(worst, std::abs((st.pos[static_cast<size_t>(i)] - head).norm() - len) / len);
    head = st.pos[static_cast<size_t>(i)];
  }
  return worst;
}

TEST(LongFrame, OneSecondFramesKeepLinkLengths) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> out(4);
  double worst = 0.0;
  for (int f = 0; f < 20; ++f) {
    const Eigen::Affine3d hips = hips_pose(Eigen::Vector3d(f % 2 ? 0.9 : 0.0, 1.0, 0.0), 0.0);
    step(desc, ChainParams{}, st, 1.0, hips, out);
    EXPECT_EQ(st.last_substeps, ChainParams{}.max_substeps) << "frame " << f;
    worst = std::max(worst, worst_length_error(desc, st, hips));
    for (const auto& q : out) ASSERT_TRUE(q.coeffs().allFinite()) << "frame " << f;
  }
  EXPECT_LT(worst, 1e-6) << "particle length error, fraction of the link length";
}

// Below the cap nothing changes: a frame of exactly max_substeps internal
// steps takes them all and lands on the new hips too.
TEST(LongFrame, FrameAtTheCapLandsOnTheNewHips) {
  const auto rig = make_rig(3);
  ChainDesc desc;
  const ChainParams params;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> out(3);
  const double dt = params.max_substeps * params.internal_step;
  for (int f = 0; f < 6; ++f) {
    const Eigen::Affine3d hips = hips_pose(Eigen::Vector3d(f % 2 ? 0.5 : 0.0, 1.0, 0.0), 0.3 * f);
    step(desc, params, st, dt, hips, out);
    EXPECT_LT(worst_length_error(desc, st, hips), 1e-6) << "frame " << f;
  }
}

}  // namespace
}  // namespace solver
