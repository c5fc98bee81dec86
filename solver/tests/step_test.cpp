// Runtime step: rest stays at rest, carry pose, bind pose recovery (results
// depend only on inverse bind matrices, not on bone orientation), a rotated
// end bone without Tail_End, teleport, determinism.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::hip_swing;
using testing::make_rig;
using testing::run_motion;
using testing::RunResult;
using testing::SeededBugs;
using testing::still_hips;

TEST(Rest, StillHipsStayAtRest) {
  for (int n : {1, 2, 3, 4, 6, 8}) {
    const auto rig = make_rig(n);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    ChainState st;
    init_state(desc, st);
    reset(desc, ChainParams{}, st, still_hips());
    const std::vector<Eigen::Vector3d> start = st.points;
    std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(n));
    double drift = 0.0;
    for (int f = 0; f < 300; ++f) {
      step(desc, ChainParams{}, st, 1.0 / 60.0, still_hips(), rot);
      for (size_t i = 0; i < st.points.size(); ++i) {
        ASSERT_TRUE(st.points[i].allFinite());
        drift = std::max(drift, (st.points[i] - start[i]).norm());
      }
      for (int i = 0; i < n; ++i) {
        const double len = (st.points[static_cast<size_t>(i) + 1] - st.points[static_cast<size_t>(i)]).norm();
        EXPECT_NEAR(len / desc.links[static_cast<size_t>(i)].length, 1.0, 1e-5);
      }
    }
    EXPECT_LT(drift, 1e-4) << "n=" << n;  // reset settles to the equilibrium carry pose
  }
}

// Without gravity the settled pose IS the carry pose: the tip link points
// `carry` past the centred root direction (the whole tail is lifted once).
double settled_tip_carry_deg(const ChainParams& params, int n, const SeededBugs& bugs = {}) {
  const auto rig = make_rig(n);
  ChainDesc desc;
  EXPECT_TRUE(testing::build_chain(rig.input(), params, bugs, desc).ok());
  ChainState st;
  init_state(desc, st);
  testing::reset(desc, params, bugs, st, still_hips());
  const Eigen::Vector3d tip_dir =
      (st.points[static_cast<size_t>(n)] - st.points[static_cast<size_t>(n) - 1]).normalized();
  const Eigen::Vector3d c = Eigen::Vector3d(0, -0.6, -1.0).normalized();
  return std::acos(std::clamp(tip_dir.dot(c), -1.0, 1.0)) * 180.0 / M_PI;
}

TEST(Rest, WholeTailCarriedOnce) {
  ChainParams params;
  params.gravity = 0.0;
  for (int n : {1, 2, 4, 8}) EXPECT_NEAR(settled_tip_carry_deg(params, n), 50.0, 1e-3) << n;
}

// Bug 3 (carry per joint frame) curls the tail: caught.
TEST(Rest, CatchesBugCarryPerJoint) {
  ChainParams params;
  params.gravity = 0.0;
  SeededBugs bug;
  bug.carry_per_joint = true;
  EXPECT_GT(settled_tip_carry_deg(params, 4, bug), 50.0 + 10.0);
}

// Particles follow positions only: the bind orientation of the bones (any
// rotation a rig stores in its inverse bind matrices) changes the output
// rotations but not where the tail goes. Two IBM-identical rigs give
// bit-identical results.
TEST(BindPose, OrientationOfBonesDoesNotMatter) {
  for (bool with_end : {true, false}) {
    const auto plain = make_rig(4, with_end);
    const auto twisted = make_rig(4, with_end, 0.8, 1.0, /*twist_bones=*/true);
    ChainDesc a, b;
    ASSERT_TRUE(build_chain(plain.input(), ChainParams{}, a).ok());
    ASSERT_TRUE(build_chain(twisted.input(), ChainParams{}, b).ok());
    auto motion = [](double t) { return hip_swing(t); };
    const RunResult ra = run_motion(a, ChainParams{}, motion, 60, 2.0);
    const RunResult rb = run_motion(b, ChainParams{}, motion, 60, 2.0);
    double worst = 0.0;
    for (size_t f = 0; f < ra.points.size(); ++f)
      for (size_t i = 0; i < ra.points[f].size(); ++i)
        worst = std::max(worst, (ra.points[f][i] - rb.points[f][i]).norm());
    EXPECT_LT(worst, 1e-9) << "with_end=" << with_end;

    ChainDesc a2;
    ASSERT_TRUE(build_chain(plain.input(), ChainParams{}, a2).ok());
    const RunResult ra2 = run_motion(a2, ChainParams{}, motion, 60, 2.0);
    EXPECT_EQ(std::memcmp(ra.points.back().data(), ra2.points.back().data(),
                          ra.points.back().size() * sizeof(Eigen::Vector3d)),
              0);
  }
}

// A chain without Tail_End whose last bone is rotated 28 deg (the mouse)
// settles to the same rest as the clean rig with a Tail_End helper placed on
// the continued tangent.
TEST(BindPose, RotatedEndBoneContinuesTangent) {
  const auto clean = make_rig(3, /*with_end=*/true);
  auto rotated = make_rig(3, /*with_end=*/false);
  // Rotate the last bone's bind frame (IBM) by 28 deg about Y.
  Eigen::Affine3d w(rotated.bind_world.back());
  w.rotate(Eigen::AngleAxisd(28.0 * M_PI / 180.0, Eigen::Vector3d::UnitY()));
  rotated.bind_world.back() = w.matrix();
  rotated.inverse_bind.back() = w.matrix().inverse();
  ChainDesc a, b;
  ASSERT_TRUE(build_chain(clean.input(), ChainParams{}, a).ok());
  ASSERT_TRUE(build_chain(rotated.input(), ChainParams{}, b).ok());
  auto motion = [](double t) { return hip_swing(t); };
  const RunResult ra = run_motion(a, ChainParams{}, motion, 60, 2.0);
  const RunResult rb = run_motion(b, ChainParams{}, motion, 60, 2.0);
  double worst = 0.0;
  for (size_t f = 0; f < ra.points.size(); ++f)
    for (size_t i = 0; i < ra.points[f].size(); ++i)
      worst = std::max(worst, (ra.points[f][i] - rb.points[f][i]).norm());
  EXPECT_LT(worst, 1e-9);
}

// Output rotations composed with neutral translations reproduce the
// particle positions (the caller can put them straight into a pose).
TEST(Output, LocalRotationsReproduceParticles) {
  const auto rig = make_rig(4, true, 0.8, 1.0, true);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> rot(4);
  for (int f = 0; f < 40; ++f) step(desc, ChainParams{}, st, 1.0 / 60.0, hip_swing(f / 60.0), rot);
  // FK with the rig's own neutral locals: hips world * L(Tail_1) * ...
  Eigen::Affine3d world = hip_swing(39 / 60.0);  // hips bind rotation is identity
  for (int i = 0; i < 4; ++i) {
    const ChainLink& l = desc.links[static_cast<size_t>(i)];
    Eigen::Affine3d local = Eigen::Affine3d::Identity();
    local.translate(l.neutral_translation);
    local.rotate(rot[static_cast<size_t>(i)]);
    world = world * local;
    EXPECT_LT((world.translation() - st.points[static_cast<size_t>(i)]).norm(), 1e-9) << i;
  }
  const Eigen::Vector3d tip = world * (desc.links[3].bind_dir_local * desc.links[3].length);
  EXPECT_LT((tip - st.points[4]).norm(), 1e-9);
}

TEST(Teleport, TenMetreJumpCarriesTailRigidly) {
  const auto rig = make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st, ref;
  init_state(desc, st);
  init_state(desc, ref);
  std::vector<Eigen::Quaterniond> rot(4);
  reset(desc, ChainParams{}, st, still_hips());
  for (int f = 0; f < 30; ++f) step(desc, ChainParams{}, st, 1.0 / 60.0, still_hips(), rot);
  const Eigen::Affine3d far = testing::hips_pose(Eigen::Vector3d(10, 1, 0), 0.0);
  reset(desc, ChainParams{}, ref, far);
  double worst_carry = 0.0;
  for (int f = 0; f < 30; ++f) {  // 0.5 s
    step(desc, ChainParams{}, st, 1.0 / 60.0, far, rot);
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(st.points[static_cast<size_t>(i) + 1].allFinite());
      const double len =
          (st.points[static_cast<size_t>(i) + 1] - st.points[static_cast<size_t>(i)]).norm();
      EXPECT_NEAR(len / desc.links[static_cast<size_t>(i)].length, 1.0, 1e-5);
    }
    for (size_t i = 0; i < st.points.size(); ++i)
      worst_carry = std::max(worst_carry, (st.points[i] - ref.points[i]).norm());
  }
  EXPECT_EQ(st.teleports, 1);
  EXPECT_LT(worst_carry, 1e-3);  // in carry pose within 0.5 s (immediately)

  // Also with a 180 deg turn in the same frame.
  const Eigen::Affine3d turned = testing::hips_pose(Eigen::Vector3d(-5, 1, 3), M_PI);
  reset(desc, ChainParams{}, ref, turned);
  for (int f = 0; f < 30; ++f) step(desc, ChainParams{}, st, 1.0 / 60.0, turned, rot);
  for (size_t i = 0; i < st.points.size(); ++i)
    EXPECT_LT((st.points[i] - ref.points[i]).norm(), 1e-3);
}

TEST(Robustness, ZeroAndHugeDtAreSafe) {
  const auto rig = make_rig(3);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> rot(3);
  step(desc, ChainParams{}, st, 0.0, still_hips(), rot);
  step(desc, ChainParams{}, st, 5.0, hip_swing(0.3), rot);  // hitch: capped substeps
  EXPECT_LE(st.last_substeps, ChainParams{}.max_substeps);
  step(desc, ChainParams{}, st, -1.0, hip_swing(0.3), rot);
  for (const auto& q : rot) EXPECT_TRUE(q.coeffs().allFinite());
}

std::uint64_t hash_state(const ChainState& st) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the raw bits
  auto feed = [&](const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  feed(st.pos.data(), st.pos.size() * sizeof(Eigen::Vector3d));
  feed(st.vel.data(), st.vel.size() * sizeof(Eigen::Vector3d));
  feed(st.out_local.data(), st.out_local.size() * sizeof(Eigen::Quaterniond));
  return h;
}

TEST(Determinism, SameInputSameBits) {
  std::uint64_t hashes[2];
  for (int run = 0; run < 2; ++run) {
    const auto rig = make_rig(6);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    ChainState st;
    init_state(desc, st);
    std::vector<Eigen::Quaterniond> rot(6);
    for (int f = 0; f < 200; ++f) {
      const double dt = (f % 3 == 0) ? 1.0 / 30.0 : 1.0 / 144.0;  // uneven frames
      step(desc, ChainParams{}, st, dt, hip_swing(f * 0.0125, 0.6), rot);
    }
    hashes[run] = hash_state(st);
  }
  EXPECT_EQ(hashes[0], hashes[1]) << "hash " << std::hex << hashes[0] << " vs " << hashes[1];
}

// The test-only entry points with no seeded bugs are the public ones, bit
// for bit (with the floor on: low hips).
TEST(Determinism, NoSeededBugsIsThePublicSolver) {
  const auto rig = make_rig(6, true, 0.8, 0.6);
  ChainDesc pub, seeded;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, pub).ok());
  ASSERT_TRUE(testing::build_chain(rig.input(), ChainParams{}, SeededBugs{}, seeded).ok());
  ChainState a, b;
  init_state(pub, a);
  init_state(seeded, b);
  reset(pub, ChainParams{}, a, hip_swing(0.0, 0.6));
  testing::reset(seeded, ChainParams{}, SeededBugs{}, b, hip_swing(0.0, 0.6));
  std::vector<Eigen::Quaterniond> rot(6);
  for (int f = 1; f <= 200; ++f) {
    const double dt = (f % 3 == 0) ? 1.0 / 30.0 : 1.0 / 144.0;
    step(pub, ChainParams{}, a, dt, hip_swing(f * 0.0125, 0.6), rot);
    testing::step(seeded, ChainParams{}, SeededBugs{}, b, dt, hip_swing(f * 0.0125, 0.6), rot);
  }
  EXPECT_EQ(hash_state(a), hash_state(b));
}

}  // namespace
}  // namespace solver
