// Limb reconciliation (rig::reconcile_limbs) on the crouching biped: feet
// pinned to the floor in their contact phases and faded out after them,
// swinging soles under the floor lifted onto it only when asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "crouch_clip.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"

namespace rig {
namespace {

using test::biped;
using test::crouch;
using test::sample_times;

Vec3 pos(const Mat4& m) { return m.block<3, 1>(0, 3); }

// ------------------------------------------------------------ reconciliation

void check_pinned(double clearance) {
  const Skeleton sk = biped();
  const Clip clip = crouch(clearance, 0.0);
  const std::vector<double> times = sample_times(30, 1.0);
  const LimbContactResult r = reconcile_limbs(sk, clip, times, LimbContactOptions{});
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  ASSERT_EQ(r.feet.size(), 2u);
  for (const FootReport& f : r.feet) {
    EXPECT_NEAR(f.leg_length, 0.9, 1e-12);
    ASSERT_EQ(f.phases.size(), 1u);
    EXPECT_EQ(f.phases[0].first, 0);
    EXPECT_EQ(f.phases[0].last, 30);
    EXPECT_EQ(f.unreached, 0);
    for (size_t k = 0; k < times.size(); ++k) {
      EXPECT_NEAR(f.clearance_before[k], clearance, 1e-12);
      EXPECT_NEAR(f.clearance_after[k], 0.0, 1e-9);
    }
  }
  // Hips untouched (bit for bit); every other joint keeps its world rotation
  // except thigh and shin; feet keep their world rotation.
  ASSERT_EQ(r.clip.tracks[0].translation.values, clip.tracks[0].translation.values);
  for (double t : times) {
    const auto before = pose_at(sk, clip, t), after = pose_at(sk, r.clip, t);
    EXPECT_EQ(before[0], after[0]);
    for (int foot : {4, 7}) {
      EXPECT_LT(Transform::from_matrix(before[foot]).rotation.angularDistance(
                    Transform::from_matrix(after[foot]).rotation),
                1e-9);
      EXPECT_NEAR((pos(after[foot]) - pos(before[foot])).y(), -clearance, 1e-9);
      EXPECT_NEAR((pos(after[foot]) - pos(after[foot - 1])).norm(), 0.45, 1e-12);
      EXPECT_NEAR((pos(after[foot - 1]) - pos(after[foot - 2])).norm(), 0.45, 1e-12);
    }
  }
}

TEST(LimbContactReconcile, SinkingFeetAreLiftedOntoTheFloor) { check_pinned(-0.03); }
TEST(LimbContactReconcile, HoveringFeetArePulledDownOntoTheFloor) { check_pinned(0.03); }

// A heel vertex skinned half to the shin: the IK turns the shin, so it does
// not rise by exactly the ankle's lift. Skinned sole points land it on the
// floor; the same point taken as rigid on the foot leaves the drawn vertex off.
TEST(LimbContactReconcile, BlendedSoleSkinLandsOnTheFloor) {
  const Skeleton sk = biped();
  const Clip clip = crouch(-0.03, 0.0);
  const std::vector<double> times = sample_times(30, 1.0);
  const double floor_y = 0.0;
  auto heel = [&](int foot) { return Vec3(sk.bind_world[foot](0, 3), 0.0, -0.05); };
  // Where linear blend skinning draws the heel in the reconciled pose.
  auto drawn_heel_y = [&](const Clip& c, double t, int foot) {
    const auto w = pose_at(sk, c, t);
    Vec3 p = Vec3::Zero();
    for (int j : {foot, foot - 1}) p += 0.5 * (w[j] * sk.inverse_bind[j] * heel(foot).homogeneous()).head<3>();
    return p.y();
  };
  double err_skinned = 0, err_rigid = 0;
  for (bool skinned : {true, false}) {
    LimbContactOptions opt;
    opt.floor_y = floor_y;
    for (int foot : {4, 7}) {
      SolePoint sp{foot, heel(foot), {}};
      if (skinned) sp.influences = {{foot, 0.5}, {foot - 1, 0.5}};
      opt.sole_points.push_back({sp});
    }
    const LimbContactResult r = reconcile_limbs(sk, clip, times, opt);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    for (const FootReport& f : r.feet) ASSERT_EQ(f.phases.size(), 1u);
    double& err = skinned ? err_skinned : err_rigid;
    for (double t : times)
      for (int foot : {4, 7}) err = std::max(err, std::abs(drawn_heel_y(r.clip, t, foot) - floor_y));
  }
  EXPECT_LT(err_skinned, 1e-6);
  EXPECT_GT(err_rigid, 1e-3) << "the rigid model should visibly miss (else this test proves nothing)";
  std::printf("blended heel off the floor: skinned %.3g, rigid %.3g\n", err_skinned, err_rigid);
}

TEST(LimbContactReconcile, SoleUnderTheFloorIsContactWhileMoving) {
  const Skeleton sk = biped();
  const std::vector<double> times = sample_times(60, 1.0);
  LimbContactOptions opt;
  // Soles 3 cm under the floor, moving 1.2 m in the second half: in the
  // ground all the time, so one phase over the whole clip, pinned.
  const LimbContactResult under = reconcile_limbs(sk, crouch(-0.03, 1.2), times, opt);
  ASSERT_TRUE(under.status.ok()) << under.status.message;
  for (const FootReport& f : under.feet) {
    ASSERT_EQ(f.phases.size(), 1u);
    EXPECT_EQ(f.phases[0].first, 0);
    EXPECT_EQ(f.phases[0].last, static_cast<int>(times.size()) - 1);
    for (double c : f.clearance_after) EXPECT_NEAR(c, 0.0, 1e-9);
  }
  // The same motion 3 cm above the floor: the moving half is not contact.
  const LimbContactResult above = reconcile_limbs(sk, crouch(0.03, 1.2), times, opt);
  ASSERT_TRUE(above.status.ok()) << above.status.message;
  for (const FootReport& f : above.feet) {
    ASSERT_EQ(f.phases.size(), 1u);
    EXPECT_LE(f.phases[0].last, 30);
  }
}

TEST(LimbContactReconcile, PinFadesOutAfterThePhase) {
  const Skeleton sk = biped();
  // Still until 0.5 s, then the body (and the feet with it) moves 1.2 m in
  // 0.5 s: no contact then. Soles 3 cm above the floor (low): under it they
  // would be in contact whatever the speed (next test).
  const Clip clip = crouch(0.03, 1.2);
  const std::vector<double> times = sample_times(60, 1.0);
  LimbContactOptions opt;
  opt.blend_time = 0.15;
  const LimbContactResult r = reconcile_limbs(sk, clip, times, opt);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  for (const FootReport& f : r.feet) {
    ASSERT_EQ(f.phases.size(), 1u);
    EXPECT_EQ(f.phases[0].first, 0);
    const int last = f.phases[0].last;
    EXPECT_GE(last, 28);
    EXPECT_LE(last, 30);
    // The weight falls monotonically to 0 within blend_time, and the sole
    // moves smoothly from the floor back to where the clip has it.
    for (int k = last + 1; k < static_cast<int>(times.size()); ++k) {
      EXPECT_LE(f.weight[k], f.weight[k - 1]);
      if (times[k] - times[last] >= opt.blend_time) {
        EXPECT_EQ(f.weight[k], 0.0);
        EXPECT_EQ(f.clearance_after[k], f.clearance_before[k]);
      }
      EXPECT_LT(std::abs(f.clearance_after[k] - f.clearance_after[k - 1]), 0.011) << "pop at sample " << k;
    }
  }
}

TEST(LimbContactReconcile, NoLegsIsAnErrorAndKeepsTheClip) {
  Skeleton sk = biped();
  for (Role& r : sk.roles) r = Role{};
  const Clip clip = crouch(0.0, 0.0);
  const std::vector<double> times = sample_times(4, 1.0);
  const LimbContactResult r = reconcile_limbs(sk, clip, times, LimbContactOptions{});
  EXPECT_FALSE(r.status.ok());
  EXPECT_EQ(r.clip.tracks.size(), clip.tracks.size());
}

// A swinging sole under the floor (no contact phase) is lifted onto the
// floor only with lift_swing_soles; the knee bends, lengths are kept.
// Phases given and empty: every sample of both legs is swing.
LimbContactOptions swing_only() {
  LimbContactOptions opt;
  opt.phases_given = true;
  opt.phases.assign(2, {});
  return opt;
}

TEST(LimbContactReconcile, SwingSoleUnderTheFloorIsLiftedOnlyWhenAsked) {
  const Skeleton sk = biped();
  const std::vector<double> times = sample_times(60, 1.0);
  LimbContactOptions opt = swing_only();
  const Clip clip = crouch(-0.03, 1.2);
  const LimbContactResult kept = reconcile_limbs(sk, clip, times, opt);
  ASSERT_TRUE(kept.status.ok()) << kept.status.message;
  for (const FootReport& f : kept.feet)
    for (double c : f.clearance_after) EXPECT_NEAR(c, -0.03, 1e-9);
  opt.lift_swing_soles = true;
  const LimbContactResult lifted = reconcile_limbs(sk, clip, times, opt);
  ASSERT_TRUE(lifted.status.ok()) << lifted.status.message;
  for (const FootReport& f : lifted.feet) {
    EXPECT_EQ(f.unreached, 0);
    for (double c : f.clearance_after) EXPECT_NEAR(c, 0.0, 1e-9);
  }
  for (double t : times) {
    const auto after = pose_at(sk, lifted.clip, t);
    for (int foot : {4, 7}) EXPECT_NEAR((pos(after[foot]) - pos(after[foot - 1])).norm(), 0.45, 1e-12);
  }
}

// A swinging sole point on the shin's skin by the ankle (a digitigrade
// heel) does not rise by the ankle's lift: the knee bends and the shin
// turns. The lift is re-aimed until that point is on the floor, never under.
TEST(LimbContactReconcile, SwingSoleOnTheShinIsReaimedOntoTheFloor) {
  const Skeleton sk = biped();
  const std::vector<double> times = sample_times(30, 1.0);
  LimbContactOptions opt = swing_only();
  opt.lift_swing_soles = true;
  for (int shin : {3, 6}) {
    const Vec3 ankle = pos(sk.bind_world[shin + 1]);
    opt.sole_points.push_back({SolePoint{shin, ankle + Vec3(0, -0.05, -0.12), {{shin, 1.0}}}});
  }
  const LimbContactResult r = reconcile_limbs(sk, crouch(-0.1, 0.0), times, opt);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  for (const FootReport& f : r.feet) {
    EXPECT_EQ(f.unreached, 0);
    for (size_t k = 0; k < f.clearance_after.size(); ++k) {
      EXPECT_LT(f.clearance_before[k], -0.04);
      EXPECT_GE(f.clearance_after[k], -1e-5);
      EXPECT_LE(f.clearance_after[k], 1e-5);
    }
  }
}

}  // namespace
}  // namespace rig
