#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "rig/retarget/retarget.h"
#include "test_skeleton.h"

namespace rig {
namespace {

constexpr double kPi = std::numbers::pi;

Quat axis_angle(double angle, Vec3 axis) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

using test::JointSpec;
using test::make_skeleton;

using test::mixamo_biped;


// Unreal-named biped with rotated bind frames, another joint order and
// legs `leg_scale` times as long.
Skeleton unreal_biped(double leg_scale) {
  const Quat leg = axis_angle(kPi / 2, Vec3::UnitZ()) * axis_angle(0.3, Vec3::UnitX());
  const Quat body = axis_angle(-kPi / 2, Vec3::UnitX()) * axis_angle(0.2, Vec3::UnitY());
  const double s = leg_scale;
  return make_skeleton({
      {"pelvis", -1, {0, 0.05 + 0.95 * s, 0.02}, body},
      {"thigh_r", 0, {-0.12, 0.05 + 0.9 * s, 0}, leg},
      {"calf_r", 1, {-0.12, 0.05 + 0.45 * s, 0}, leg},
      {"foot_r", 2, {-0.12, 0.05, 0}, leg},
      {"thigh_l", 0, {0.12, 0.05 + 0.9 * s, 0}, leg.conjugate()},
      {"calf_l", 4, {0.12, 0.05 + 0.45 * s, 0}, leg.conjugate()},
      {"foot_l", 5, {0.12, 0.05, 0}, leg.conjugate()},
      {"spine_01", 0, {0, 0.3 + 0.95 * s, 0}, body},
      {"head", 7, {0, 0.7 + 0.95 * s, 0}, axis_angle(0.4, Vec3::UnitY())},
  });
}

Character as_character(Skeleton sk) {
  Character c;
  c.skeleton = std::move(sk);
  return c;
}

// Moves and rotates the Mixamo biped's hips, spine and left leg over 1 s.
Clip mixamo_motion() {
  Clip clip;
  clip.name = "motion";
  clip.duration = 1.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 0.5, 1.0}, {Vec3(0, 1, 0), Vec3(0.2, 0.8, 0.5), Vec3(0.5, 0.9, 1.2)}};
  hips.rotation = {{0.0, 1.0}, {Quat::Identity(), axis_angle(1.0, Vec3(0.2, 1, 0.1))}};
  JointTracks spine;
  spine.joint = 1;
  spine.rotation = {{0.0, 0.4, 1.0},
                    {axis_angle(0.1, Vec3::UnitX()), axis_angle(0.5, Vec3(1, 0, 0.3)),
                     axis_angle(-0.3, Vec3::UnitZ())}};
  JointTracks thigh;
  thigh.joint = 3;
  thigh.rotation = {{0.0, 1.0}, {axis_angle(-0.8, Vec3::UnitX()), axis_angle(0.6, Vec3(1, 0.2, 0))}};
  JointTracks shin;
  shin.joint = 4;
  shin.rotation = {{0.0, 1.0}, {axis_angle(0.9, Vec3::UnitX()), axis_angle(0.1, Vec3::UnitX())}};
  clip.tracks = {hips, spine, thigh, shin};
  return clip;
}

std::vector<double> track_times(const Clip& c) {
  for (const JointTracks& jt : c.tracks) {
    if (jt.rotation.times.size() > 1) return jt.rotation.times;
  }
  return {};
}

std::string fmt_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

Vec3 pos(const Mat4& m) { return m.block<3, 1>(0, 3); }
Quat rot(const Mat4& m) { return Transform::from_matrix(m).rotation; }

TEST(Retarget, RolesAssignedOnTestSkeletons) {
  const Skeleton a = mixamo_biped(), b = unreal_biped(2.0);
  EXPECT_EQ(a.roles[4], (Role{BodyPart::kShin, Side::kLeft}));
  EXPECT_EQ(b.roles[0].part, BodyPart::kHips);
  EXPECT_EQ(b.roles[2], (Role{BodyPart::kShin, Side::kRight}));
  EXPECT_EQ(b.roles[7].part, BodyPart::kSpine);
}

TEST(Retarget, CalibrationMeasuresLegsAndHips) {
  const Calibration a = calibrate(mixamo_biped());
  EXPECT_EQ(a.hips, 0);
  EXPECT_NEAR(a.hips_bind_height, 1.0, 1e-12);
  EXPECT_NEAR(a.leg_length, 0.9, 1e-12);
  const Calibration b = calibrate(unreal_biped(2.0));
  EXPECT_NEAR(b.leg_length, 1.8, 1e-12);
  EXPECT_NEAR(b.hips_bind_height, 1.95, 1e-12);
}

TEST(Retarget, RoleMappingAcrossNamingFamilies) {
  const Skeleton a = mixamo_biped(), b = unreal_biped(1.0);
  const auto pairs = map_joints_by_role(calibrate(a), calibrate(b));
  std::vector<std::pair<std::string, std::string>> named;
  for (const auto& [t, s] : pairs) named.emplace_back(b.names[t], a.names[s]);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"pelvis", "mixamorig:Hips"},         {"thigh_r", "mixamorig:RightUpLeg"},
      {"calf_r", "mixamorig:RightLeg"},     {"foot_r", "mixamorig:RightFoot"},
      {"thigh_l", "mixamorig:LeftUpLeg"},   {"calf_l", "mixamorig:LeftLeg"},
      {"foot_l", "mixamorig:LeftFoot"},     {"spine_01", "mixamorig:Spine"},
      {"head", "mixamorig:Head"},
  };
  EXPECT_EQ(named, want);
}

TEST(Retarget, SpineChainsMapByOrderFromHips) {
  Skeleton a = make_skeleton({{"Hips", -1, {0, 1, 0}},
                              {"Spine", 0, {0, 1.1, 0}},
                              {"Spine1", 1, {0, 1.2, 0}},
                              {"Spine2", 2, {0, 1.3, 0}},
                              {"Head", 3, {0, 1.6, 0}}});
  Skeleton b = make_skeleton({{"pelvis", -1, {0, 1, 0}},
                              {"spine_01", 0, {0, 1.15, 0}},
                              {"spine_02", 1, {0, 1.3, 0}},
                              {"head", 2, {0, 1.6, 0}}});
  const auto pairs = map_joints_by_role(calibrate(a), calibrate(b));
  const std::vector<std::pair<int, int>> want = {{0, 0}, {1, 1}, {2, 2}, {3, 4}};
  EXPECT_EQ(pairs, want);
}

void expect_identity_retarget(const Skeleton& sk, const Clip& clip) {
  const Character ch = as_character(sk);
  const Calibration cal = calibrate(sk);
  const Clip out = retarget(ch, clip, cal, cal, sk);
  const std::vector<double> times = track_times(out);
  ASSERT_EQ(times.size(), 31u);
  EXPECT_EQ(times.back(), clip.duration);
  double worst_rot = 0, worst_pos = 0;
  for (double t : times) {
    const auto ws = pose_at(sk, clip, t), wt = pose_at(sk, out, t);
    for (int j = 0; j < sk.size(); ++j) {
      worst_rot = std::max(worst_rot, rot(ws[j]).angularDistance(rot(wt[j])));
      worst_pos = std::max(worst_pos, (pos(ws[j]) - pos(wt[j])).norm());
    }
  }
  ::testing::Test::RecordProperty("worst_rotation_rad", fmt_g(worst_rot));
  ::testing::Test::RecordProperty("worst_position", fmt_g(worst_pos));
  EXPECT_LT(worst_rot, 1e-9);
  EXPECT_LT(worst_pos, 1e-9);
}

TEST(Retarget, IdentityReproducesWorldRotations) {
  expect_identity_retarget(mixamo_biped(), mixamo_motion());
}

TEST(Retarget, IdentityReproducesWorldRotationsWithRotatedBind) {
  Clip clip = mixamo_motion();
  // Same motion on the Unreal biped: hips 0, spine 7, left thigh 4, left calf 5.
  clip.tracks[1].joint = 7;
  clip.tracks[2].joint = 4;
  clip.tracks[3].joint = 5;
  expect_identity_retarget(unreal_biped(1.3), clip);
}

TEST(Retarget, ScaledLegsScaleHipsTranslationAndTransferDeltas) {
  const Skeleton a = mixamo_biped(), b = unreal_biped(2.0);
  const Calibration ca = calibrate(a), cb = calibrate(b);
  const Clip clip = mixamo_motion();
  const Clip out = retarget(as_character(a), clip, ca, cb, b);
  const auto pairs = map_joints_by_role(ca, cb);
  double worst_pos = 0, worst_rot = 0;
  for (double t : track_times(out)) {
    const auto ws = pose_at(a, clip, t), wt = pose_at(b, out, t);
    const Vec3 ds = pos(ws[0]) - pos(a.bind_world[0]);
    const Vec3 dt = pos(wt[0]) - pos(b.bind_world[0]);
    worst_pos = std::max(worst_pos, (dt - 2.0 * ds).norm());
    for (const auto& [tj, sj] : pairs) {
      const Quat src_delta = rot(ws[sj]) * rot(a.bind_world[sj]).conjugate();
      const Quat dst_delta = rot(wt[tj]) * rot(b.bind_world[tj]).conjugate();
      worst_rot = std::max(worst_rot, src_delta.angularDistance(dst_delta));
    }
  }
  ::testing::Test::RecordProperty("worst_hips_offset_error", fmt_g(worst_pos));
  ::testing::Test::RecordProperty("worst_delta_rotation_rad", fmt_g(worst_rot));
  EXPECT_LT(worst_pos, 1e-9);
  EXPECT_LT(worst_rot, 1e-9);
  // Root motion is kept: the hips travel 2 x (0.5, -0.1, 1.2) by the end.
  const auto end = pose_at(b, out, 1.0);
  EXPECT_TRUE((pos(end[0]) - pos(b.bind_world[0])).isApprox(Vec3(1.0, -0.2, 2.4), 1e-9));
}

// The Mixamo biped under a root joint at the floor (no role), as rigs that
// hang their hips and IK feet under a root do.
Skeleton rooted_biped() {
  return make_skeleton({
      {"root", -1, {0, 0, 0}},
      {"mixamorig:Hips", 0, {0, 1.0, 0}},
      {"mixamorig:Spine", 1, {0, 1.2, 0}},
      {"mixamorig:Head", 2, {0, 1.6, 0}},
      {"mixamorig:LeftUpLeg", 1, {0.1, 0.95, 0}},
      {"mixamorig:LeftLeg", 4, {0.1, 0.5, 0}},
      {"mixamorig:LeftFoot", 5, {0.1, 0.05, 0}},
      {"mixamorig:RightUpLeg", 1, {-0.1, 0.95, 0}},
      {"mixamorig:RightLeg", 7, {-0.1, 0.5, 0}},
      {"mixamorig:RightFoot", 8, {-0.1, 0.05, 0}},
  });
}

TEST(Retarget, RootJointCarriesTheTravelOverTheFloor) {
  const Skeleton a = mixamo_biped(), b = rooted_biped();
  ASSERT_EQ(b.roles[0].part, BodyPart::kNone);
  const Calibration ca = calibrate(a), cb = calibrate(b);
  ASSERT_EQ(cb.hips, 1);
  const Clip clip = mixamo_motion();
  const Clip out = retarget(as_character(a), clip, ca, cb, b);
  ASSERT_FALSE(out.tracks.empty());
  double worst_hips = 0;
  for (double t : track_times(out)) {
    const auto ws = pose_at(a, clip, t), wt = pose_at(b, out, t);
    const Vec3 travel = pos(ws[0]) - pos(a.bind_world[0]);
    // The root follows the hips over the floor (x, z), never up or down ...
    EXPECT_TRUE((pos(wt[0]) - pos(b.bind_world[0])).isApprox(Vec3(travel.x(), 0, travel.z()), 1e-9)) << t;
    // ... and the hips go where they go without a root.
    worst_hips = std::max(worst_hips, (pos(wt[1]) - pos(b.bind_world[1]) - travel).norm());
  }
  EXPECT_LT(worst_hips, 1e-9);
  // The hips (0.5, -0.1, 1.2) away at the end: the root is (0.5, 0, 1.2) away.
  EXPECT_TRUE(pos(pose_at(b, out, 1.0)[0]).isApprox(Vec3(0.5, 0, 1.2), 1e-9));
}

// The Mixamo biped with arms from shoulders at (+-0.2, 1.5, 0), upper arm
// and forearm 0.3 each and a finger 0.1 past the hand, held `down_deg` below
// horizontal (0: a T-pose, 40: an A-pose) and turned `forward_deg` towards
// +Z; the whole skeleton then turned `facing_deg` about Y. Joints 9-12 left
// (arm, forearm, hand, finger), 13-16 right.
Skeleton armed_biped(double down_deg, double forward_deg = 0.0, double facing_deg = 0.0) {
  std::vector<JointSpec> joints = test::mixamo_biped_joints();
  const double d = down_deg * kPi / 180, f = forward_deg * kPi / 180;
  for (const double side : {1.0, -1.0}) {
    const Vec3 dir(side * std::cos(d) * std::cos(f), -std::sin(d), std::cos(d) * std::sin(f));
    const Vec3 shoulder(0.2 * side, 1.5, 0);
    const std::string s = side > 0 ? "Left" : "Right";
    const int first = static_cast<int>(joints.size());
    joints.push_back({"mixamorig:" + s + "Arm", 1, shoulder});
    joints.push_back({"mixamorig:" + s + "ForeArm", first, shoulder + 0.3 * dir});
    joints.push_back({"mixamorig:" + s + "Hand", first + 1, shoulder + 0.6 * dir});
    joints.push_back({"mixamorig:" + s + "HandIndex1", first + 2, shoulder + 0.7 * dir});
  }
  const Quat turn = axis_angle(facing_deg * kPi / 180, Vec3::UnitY());
  for (JointSpec& j : joints) {
    j.position = turn * j.position;
    j.rotation = turn * j.rotation;
  }
  return make_skeleton(joints);
}

// Arms swinging down to the sides and forward, elbows bending, over 1 s.
Clip arm_swing() {
  Clip clip;
  clip.name = "arms";
  clip.duration = 1.0;
  for (const double side : {1.0, -1.0}) {
    JointTracks arm, fore;
    arm.joint = side > 0 ? 9 : 13;
    fore.joint = arm.joint + 1;
    arm.rotation = {{0.0, 0.5, 1.0},
                    {axis_angle(-side * 1.2, Vec3::UnitZ()), axis_angle(-side * 1.3, Vec3(0.3 * side, 0, 1)),
                     axis_angle(-side * 1.1, Vec3(-0.2 * side, 0.1, 1))}};
    fore.rotation = {{0.0, 1.0}, {axis_angle(0.2, Vec3::UnitY()), axis_angle(0.9, Vec3(0, 1, 0.2))}};
    clip.tracks.push_back(arm);
    clip.tracks.push_back(fore);
  }
  return clip;
}

// Over the clip: the largest angle between the source's arm bones (upper
// arm, forearm, hand to finger; turned by the facing turn) and the
// target's, and between their turns from bind.
struct ArmErrors {
  double direction = 0.0, delta = 0.0;
};
ArmErrors arm_errors(const Skeleton& a, const Skeleton& b) {
  const Clip clip = arm_swing();
  const Calibration ca = calibrate(a), cb = calibrate(b);
  const Clip out = retarget(as_character(a), clip, ca, cb, b);
  EXPECT_FALSE(out.tracks.empty());
  const Eigen::Matrix3d face = cb.facing.to_canonical.transpose() * ca.facing.to_canonical;
  const Quat face_turn(face);
  ArmErrors e;
  for (double t : track_times(out)) {
    const auto ws = pose_at(a, clip, t), wt = pose_at(b, out, t);
    for (const int j : {9, 10, 11, 13, 14, 15}) {
      const Vec3 ds = face * (pos(ws[j + 1]) - pos(ws[j])), dt = pos(wt[j + 1]) - pos(wt[j]);
      e.direction = std::max(e.direction, std::atan2(ds.cross(dt).norm(), ds.dot(dt)));
      const Quat src_delta = face_turn * rot(ws[j]) * rot(a.bind_world[j]).conjugate() * face_turn.conjugate();
      const Quat dst_delta = rot(wt[j]) * rot(b.bind_world[j]).conjugate();
      e.delta = std::max(e.delta, src_delta.angularDistance(dst_delta));
    }
  }
  return e;
}

// An A-pose target's arms, hands and fingers point where a T-pose source's
// do at every key (a walk's arms stay at its sides, not 40 deg further in,
// through its body), also when it faces another way; a T-pose's few degrees
// and a limb pointing elsewhere entirely keep the source's turns from rest
// exactly; between, part of the difference is taken.
TEST(Retarget, ArmsHeldLowerAtRestFollowTheSourcesArmDirections) {
  const Skeleton t_pose = armed_biped(0.0);
  ASSERT_EQ(t_pose.roles[9].part, BodyPart::kUpperArm);
  ASSERT_EQ(t_pose.roles[14].part, BodyPart::kForearm);
  ASSERT_EQ(t_pose.roles[15].part, BodyPart::kHand);
  for (const double facing : {0.0, 90.0}) {
    SCOPED_TRACE("target turned " + fmt_g(facing) + " deg");
    const ArmErrors a_pose = arm_errors(t_pose, armed_biped(40.0, 0.0, facing));
    EXPECT_LT(a_pose.direction, 1e-9);
    EXPECT_GT(a_pose.delta, 0.6);  // the turns from rest differ by the 40 deg the rests do
  }
  const ArmErrors near = arm_errors(t_pose, armed_biped(5.0));
  EXPECT_LT(near.delta, 1e-9);
  EXPECT_GT(near.direction, 0.08);  // the 5 deg stay
  const ArmErrors forward = arm_errors(t_pose, armed_biped(10.0, 85.0));  // arms forward (a T-Rex's)
  EXPECT_LT(forward.delta, 1e-9);
  const ArmErrors ramp = arm_errors(t_pose, armed_biped(17.5));  // half of the 17.5 deg taken
  EXPECT_GT(ramp.direction, 0.12);
  EXPECT_LT(ramp.direction, 0.19);
}

template <typename T>
bool same_track(const Track<T>& x, const Track<T>& y) {
  if (x.times != y.times || x.values.size() != y.values.size()) return false;
  for (size_t i = 0; i < x.values.size(); ++i) {
    if constexpr (std::is_same_v<T, Quat>) {
      if (x.values[i].coeffs() != y.values[i].coeffs()) return false;
    } else {
      if (x.values[i] != y.values[i]) return false;
    }
  }
  return true;
}

bool same_clip(const Clip& x, const Clip& y) {
  if (x.duration != y.duration || x.tracks.size() != y.tracks.size()) return false;
  for (size_t i = 0; i < x.tracks.size(); ++i) {
    if (x.tracks[i].joint != y.tracks[i].joint ||
        !same_track(x.tracks[i].translation, y.tracks[i].translation) ||
        !same_track(x.tracks[i].rotation, y.tracks[i].rotation) ||
        !same_track(x.tracks[i].scale, y.tracks[i].scale)) {
      return false;
    }
  }
  return true;
}

bool same_locals(const std::vector<Transform>& x, const std::vector<Transform>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].translation != y[i].translation || x[i].rotation.coeffs() != y[i].rotation.coeffs() ||
        x[i].scale != y[i].scale) {
      return false;
    }
  }
  return true;
}

TEST(Retarget, CalibrationIsolationFromLivePose) {
  const Character source = as_character(mixamo_biped());
  Skeleton target = unreal_biped(1.5);
  const Calibration cs = calibrate(source.skeleton), ct = calibrate(target);
  const Clip clip = mixamo_motion();
  const Clip clean = retarget(source, clip, cs, ct, target);

  // Preview playback moves and rotates the live hips between requests.
  const int hips = ct.hips;
  target.stored_local[hips].translation += Vec3(0.3, -0.4, 0.25);
  target.stored_local[hips].rotation = axis_angle(0.7, Vec3(1, 1, 0)) * target.stored_local[hips].rotation;
  const std::vector<Transform> live = target.stored_local;
  const std::vector<Transform> source_locals = source.skeleton.stored_local;

  const Clip again = retarget(source, clip, cs, ct, target);
  EXPECT_TRUE(same_clip(clean, again));
  // A calibration taken now still ignores the live pose.
  const Clip recalibrated = retarget(source, clip, cs, calibrate(target), target);
  EXPECT_TRUE(same_clip(clean, recalibrated));
  // The computation changed neither the live pose nor the source.
  EXPECT_TRUE(same_locals(target.stored_local, live));
  EXPECT_TRUE(same_locals(source.skeleton.stored_local, source_locals));
}

TEST(Retarget, SizeMismatchGivesEmptyClip) {
  const Skeleton a = mixamo_biped();
  const Skeleton b = make_skeleton({{"pelvis", -1, {0, 1, 0}}, {"head", 0, {0, 1.6, 0}}});
  EXPECT_TRUE(retarget(as_character(a), mixamo_motion(), calibrate(b), calibrate(b), b).tracks.empty());
  EXPECT_TRUE(retarget(as_character(a), mixamo_motion(), calibrate(a), calibrate(a), b).tracks.empty());
  EXPECT_TRUE(retarget(as_character(a), mixamo_motion(), calibrate(a), calibrate(a), a, 0.0).tracks.empty());
  EXPECT_FALSE(retarget(as_character(a), mixamo_motion(), calibrate(a), calibrate(a), a).tracks.empty());
}

}  // namespace
}  // namespace rig
