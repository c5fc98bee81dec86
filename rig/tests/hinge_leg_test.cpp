// A leg with a bent bind knee (a digitigrade hock) solved as a hinge: the
// knee keeps its side and the leg turns smoothly while the clip's knee
// crosses the hip->ankle line.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

Vec3 pos(const Mat4& m) { return m.block<3, 1>(0, 3); }

// A biped whose left knee sits 0.1 behind its hip->ankle line in bind (a
// hock bending back; toes forward +z).
Skeleton hocked_biped() {
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  joints[4].position.z() = -0.1;  // left shin (knee)
  return test::make_skeleton(joints);
}

Quat rot(const Mat4& m) { return Transform::from_matrix(m).rotation; }
Quat axis_angle(double angle, const Vec3& axis) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

Vec3 offset_from_line(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u = (c - a).normalized();
  return (b - a) - u * (b - a).dot(u);
}

TEST(HingeLeg, ABentBindKneeIsRead) {
  const Skeleton sk = hocked_biped();
  const std::vector<Leg> legs = find_legs(sk);
  ASSERT_EQ(legs.size(), 2u);
  EXPECT_LT(legs[0].bind_knee_offset.z(), -0.05);  // left: back
  EXPECT_TRUE(legs[1].bind_knee_offset.isZero());   // right: straight
}

TEST(HingeLeg, TheKneeKeepsItsSideAndTurnsSmoothly) {
  const Skeleton sk = hocked_biped();
  const Leg leg = find_legs(sk).front();
  const Vec3 a = pos(sk.bind_world[leg.thigh]);
  Quat previous_thigh = Quat::Identity(), previous_shin = Quat::Identity();
  for (int k = 0; k <= 20; ++k) {
    // The clip's knee swings from 0.08 behind the line to 0.08 in front of
    // it (a human knee carried onto the hock); the ankle is lifted.
    const double z = -0.08 + 0.008 * k;
    const Vec3 b = a + Vec3(0, -0.45, z), c = a + Vec3(0, -0.9, 0);
    const Vec3 side = leg.bind_knee_offset;
    const HingeLegSolution s = solve_hinge_leg(sk, leg, a, b, c, c + Vec3(0, 0.3, 0.05), side);
    ASSERT_TRUE(s.reached) << k;
    EXPECT_NEAR((s.middle - a).norm(), (b - a).norm(), 1e-9);  // the clip's bone lengths
    EXPECT_LT((s.end - (c + Vec3(0, 0.3, 0.05))).norm(), 1e-9);
    // Always bent back, to its side.
    EXPECT_GT(offset_from_line(a, s.middle, s.end).dot(side), 0.0) << k;
    // The bones really point where the solution says (bind rotation turned).
    const Vec3 thigh_bind = pos(sk.bind_world[leg.shin]) - pos(sk.bind_world[leg.thigh]);
    const Quat thigh_turn = s.thigh * Transform::from_matrix(sk.bind_world[leg.thigh]).rotation.conjugate();
    EXPECT_LT((thigh_turn * thigh_bind.normalized() - (s.middle - a).normalized()).norm(), 1e-9) << k;
    if (k > 0) {
      EXPECT_LT(s.thigh.angularDistance(previous_thigh), 0.1) << k;
      EXPECT_LT(s.shin.angularDistance(previous_shin), 0.1) << k;
    }
    previous_thigh = s.thigh;
    previous_shin = s.shin;
  }
}

// A human knee and ankle carried onto the hock (thigh forward, knee bent
// forward, foot bent at the ankle), the ankle `ankle_height` over the floor.
Clip human_leg_on_hock(const Skeleton& sk, double ankle_height) {
  Clip c;
  c.name = "swing";
  c.duration = 1.0;
  const Quat rots[3] = {axis_angle(-0.5, Vec3::UnitX()), axis_angle(1.0, Vec3::UnitX()),
                        axis_angle(-0.2, Vec3::UnitX())};
  for (int r = 0; r < 3; ++r) {
    JointTracks jt;
    jt.joint = 3 + r;  // left thigh, shin, foot
    jt.rotation = {{0.0}, {(sk.neutral_local[3 + r].rotation * rots[r]).normalized()}};
    c.tracks.push_back(jt);
  }
  const double ankle_y = pos(pose_at(sk, c, 0.0)[5]).y();
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0}, {sk.neutral_local[0].translation + Vec3(0, ankle_height - ankle_y, 0)}};
  c.tracks.push_back(hips);
  return c;
}

// The hinge solver turns the shin far from the clip's; out of stance the
// foot keeps the clip's ankle bend on that shin (kept in world, a human
// swing folded the T-Rex's ankles by up to 170 deg), in stance its world
// rotation (the sole lands as the source placed it).
TEST(HingeLeg, TheFootKeepsTheAnkleBendInSwingAndItsWorldRotationInStance) {
  const Skeleton sk = hocked_biped();
  const std::vector<double> times = {0.0, 0.5, 1.0};
  for (const bool stance : {false, true}) {
    const Clip clip = human_leg_on_hock(sk, stance ? 0.0 : 0.2);
    LimbContactOptions opt;
    opt.phases_given = true;
    opt.phases.assign(2, {});
    if (stance) opt.phases[0] = {ContactPhase{0, 2}};
    const LimbContactResult r = reconcile_limbs(sk, clip, times, opt);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    EXPECT_EQ(r.feet[0].unreached, 0);
    const auto before = pose_at(sk, clip, 0.5), after = pose_at(sk, r.clip, 0.5);
    // The shin really was re-solved (the two rules differ by this much).
    ASSERT_GT(rot(before[4]).angularDistance(rot(after[4])), 0.3) << stance;
    const Quat bend_before = rot(before[4]).conjugate() * rot(before[5]);
    const Quat bend_after = rot(after[4]).conjugate() * rot(after[5]);
    if (stance) {
      EXPECT_LT(rot(before[5]).angularDistance(rot(after[5])), 1e-9);
      EXPECT_NEAR(r.feet[0].clearance_after[1], 0.0, 1e-9);
    } else {
      EXPECT_LT(bend_before.angularDistance(bend_after), 1e-9);
    }
  }
}

TEST(HingeLeg, AStraightBindLegGetsItsBindRotations) {
  const Skeleton sk = hocked_biped();
  const Leg right = find_legs(sk)[1];
  const Vec3 a = pos(sk.bind_world[right.thigh]);
  const HingeLegSolution s = solve_hinge_leg(sk, right, a, a + Vec3(0, -0.45, 0.05), a + Vec3(0, -0.9, 0),
                                             a + Vec3(0, -0.8, 0), Vec3::UnitZ());
  EXPECT_FALSE(s.reached);
  EXPECT_TRUE(s.thigh.isApprox(Transform::from_matrix(sk.bind_world[right.thigh]).rotation, 1e-12));
}

}  // namespace
}  // namespace rig
