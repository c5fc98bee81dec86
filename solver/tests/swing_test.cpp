// Invariant sweeps under the SPEC §4 hip swing (0.5 m sideways in 2/3 s and
// back while turning 90 deg) on chains of 1, 2, 3, 4, 6 and 8 bones, mirror
// symmetry, frame-rate independence, and the historical bugs each caught.
#include <gtest/gtest.h>

#include <cstdio>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hip_swing;
using testing::make_rig;
using testing::neighbour_ratio;
using testing::run_motion;
using testing::RunResult;
using testing::SeededBugs;

constexpr double kModelHeight = 1.9;     // H of the test character, metres (fox-sized)
constexpr double kTailLength = 0.8;      // metres
constexpr double kNeighbourFactor = 2.0; // max angle range / (neighbours' max + 1 deg)
constexpr double kMinExcursion = 0.25;   // tip excursion in the hips frame / tail length

struct SwingCheck {
  bool finite = true;
  double length_error = 0.0;
  double ratio = 0.0;
  double excursion = 0.0;  // relative to the tail length
};

SwingCheck run_swing(int n, const ChainParams& params, const SeededBugs& bugs = {}, double fps = 60.0) {
  const auto rig = make_rig(n, true, kTailLength);
  ChainDesc desc;
  EXPECT_TRUE(testing::build_chain(rig.input(), params, bugs, desc).ok());
  const RunResult r =
      run_motion(desc, params, [](double t) { return hip_swing(t); }, fps, 3.0, bugs);
  SwingCheck c;
  c.finite = r.finite;
  c.length_error = r.max_length_error;
  c.ratio = neighbour_ratio(r.angle_range_deg);
  c.excursion = r.tip_excursion / kTailLength;
  return c;
}

bool passes(const SwingCheck& c) {
  return c.finite && c.length_error < 1e-5 && c.ratio <= kNeighbourFactor &&
         c.excursion >= kMinExcursion;
}

TEST(HipSwing, InvariantsHoldOnEveryChainLength) {
  for (int n : {1, 2, 3, 4, 6, 8}) {
    const SwingCheck c = run_swing(n, ChainParams{});
    EXPECT_TRUE(c.finite) << "n=" << n;
    EXPECT_LT(c.length_error, 1e-5) << "n=" << n;
    EXPECT_LE(c.ratio, kNeighbourFactor) << "n=" << n;
    EXPECT_GE(c.excursion, kMinExcursion) << "n=" << n << ": the tail must visibly move";
    std::printf("hip swing n=%d: neighbour ratio %.2f, tip excursion %.3f of L\n", n, c.ratio,
                c.excursion);
  }
}

// Rope rule: after every step the velocity along each link is zero.
double max_radial_velocity(const ChainParams& params, int n, const SeededBugs& bugs = {}) {
  const auto rig = make_rig(n);
  ChainDesc desc;
  EXPECT_TRUE(testing::build_chain(rig.input(), params, bugs, desc).ok());
  ChainState st;
  init_state(desc, st);
  testing::reset(desc, params, bugs, st, hip_swing(0.0));
  std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(n));
  double worst = 0.0;
  for (int f = 1; f <= 180; ++f) {
    const Eigen::Affine3d hips = hip_swing(f / 60.0);
    testing::step(desc, params, bugs, st, 1.0 / 60.0, hips, rot);
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector3d head =
          i == 0 ? root_head_world(desc, hips) : st.pos[static_cast<size_t>(i - 1)];
      const Eigen::Vector3d dir = (st.pos[static_cast<size_t>(i)] - head).normalized();
      worst = std::max(worst, std::abs(st.vel[static_cast<size_t>(i)].dot(dir)));
    }
  }
  return worst;
}

TEST(HipSwing, RopeKeepsNoRadialVelocity) {
  for (int n : {1, 4, 8}) EXPECT_LT(max_radial_velocity(ChainParams{}, n), 1e-9) << "n=" << n;
}

// Bug 2 (correction / dt fed back into the velocity) must be caught: the rope
// invariant breaks, and the hip-swing sweep fails on some chain length.
TEST(HipSwing, CatchesBugRopeVelocityFeedback) {
  SeededBugs bug;
  bug.rope_velocity_feedback = true;
  EXPECT_GT(max_radial_velocity(ChainParams{}, 4, bug), 0.1);
  bool any_failed = false;
  for (int n : {1, 2, 3, 4, 6, 8}) {
    const SwingCheck c = run_swing(n, ChainParams{}, bug);
    if (!passes(c)) any_failed = true;
  }
  EXPECT_TRUE(any_failed) << "hip-swing sweep cannot detect rope velocity feedback";
}

// Bug 3 (carry per joint) must be caught by the swing sweep too: the
// compounding carry curls the tail, the neighbour ratio blows up.
TEST(HipSwing, CatchesBugCarryPerJoint) {
  SeededBugs bug;
  bug.carry_per_joint = true;
  bool any_failed = false;
  for (int n : {1, 2, 3, 4, 6, 8}) {
    if (!passes(run_swing(n, ChainParams{}, bug))) any_failed = true;
  }
  EXPECT_TRUE(any_failed);
}

// Tip trajectory at 30, 60 and 144 fps within 2 % of H (max over the clip).
double fps_spread(const ChainParams& params, int n, const SeededBugs& bugs = {}) {
  const auto rig = make_rig(n, true, kTailLength);
  ChainDesc desc;
  EXPECT_TRUE(testing::build_chain(rig.input(), params, bugs, desc).ok());
  auto motion = [](double t) { return hip_swing(t); };
  const RunResult r30 = run_motion(desc, params, motion, 30.0, 3.0, bugs);
  const RunResult r60 = run_motion(desc, params, motion, 60.0, 3.0, bugs);
  const RunResult r144 = run_motion(desc, params, motion, 144.0, 3.0, bugs);
  // Compare at the common times k/30 s.
  double worst = 0.0;
  for (size_t k = 0; k < r30.tip_world.size(); ++k) {
    const Eigen::Vector3d a = r30.tip_world[k];
    const Eigen::Vector3d b = r60.tip_world[2 * k + 1];
    const Eigen::Vector3d c = r144.tip_world[24 * (k + 1) / 5 - 1];
    worst = std::max({worst, (a - b).norm(), (a - c).norm(), (b - c).norm()});
  }
  return worst / kModelHeight;
}

TEST(FrameRate, TipTrajectoryIndependentOfFps) {
  for (int n : {1, 4, 8}) {
    const double spread = fps_spread(ChainParams{}, n);
    EXPECT_LT(spread, 0.02) << "n=" << n;
    std::printf("fps spread n=%d: %.4f of H\n", n, spread);
  }
}

// Bug 1 (fixed-fraction follow, 12 % per frame) is a frame-rate dependent
// stiff spring: the fps test must fail with it.
TEST(FrameRate, CatchesBugFixedFractionFollow) {
  SeededBugs bug;
  bug.fixed_fraction_follow = true;
  EXPECT_GT(fps_spread(ChainParams{}, 4, bug), 0.02);
}

// Mirrored hips motion gives a mirrored tail (error <= 1e-4 of H).
TEST(Mirror, MirroredHipsGiveMirroredTail) {
  for (int n : {1, 3, 4, 8}) {
    const auto rig = make_rig(n, true, kTailLength);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    const RunResult right =
        run_motion(desc, ChainParams{}, [](double t) { return hip_swing(t, 1.0, 1.0); }, 60, 3.0);
    const RunResult left =
        run_motion(desc, ChainParams{}, [](double t) { return hip_swing(t, 1.0, -1.0); }, 60, 3.0);
    double worst = 0.0;
    for (size_t f = 0; f < right.points.size(); ++f) {
      for (size_t i = 0; i < right.points[f].size(); ++i) {
        Eigen::Vector3d m = left.points[f][i];
        m.x() = -m.x();
        worst = std::max(worst, (m - right.points[f][i]).norm());
      }
    }
    EXPECT_LE(worst, 1e-4 * kModelHeight) << "n=" << n;
  }
}

}  // namespace
}  // namespace solver
