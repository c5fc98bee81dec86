#include "rig/limb_contact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "rig/clip_transfer.h"
#include "rig/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

constexpr double kPi = std::numbers::pi;

Quat axis_angle(double angle, Vec3 axis) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }
Vec3 pos(const Mat4& m) { return m.block<3, 1>(0, 3); }

// ---------------------------------------------------------------- two-bone IK

struct Chain {
  Vec3 a, b, c;
};

void expect_lengths_kept(const Chain& in, const TwoBoneSolution& s) {
  EXPECT_NEAR((s.middle - in.a).norm(), (in.b - in.a).norm(), 1e-12);
  EXPECT_NEAR((s.end - s.middle).norm(), (in.c - in.b).norm(), 1e-12);
  // The rotations really move the bones there.
  EXPECT_LT((in.a + s.upper * (in.b - in.a) - s.middle).norm(), 1e-12);
  EXPECT_LT((s.middle + s.lower * (in.c - in.b) - s.end).norm(), 1e-12);
  // The knee is a hinge: both bones carry the old hinge axis onto the new one.
  const Vec3 hinge = (in.b - in.a).cross(in.c - in.b);
  if (hinge.norm() > 1e-9) {
    const Vec3 n0 = hinge.normalized();
    EXPECT_LT((s.upper * n0 - s.lower * n0).norm(), 1e-9);
    const Vec3 bent = (s.middle - in.a).cross(s.end - s.middle);
    if (bent.norm() > 1e-9) {
      EXPECT_LT((s.upper * n0 - bent.normalized()).norm(), 1e-9);
    }
  }
}

TEST(LimbContactIk, ReachesReachableTargetExactlyInTheKneePlane) {
  // Bent leg in the y-z plane (x = 0.1), knee forward (+z).
  const Chain ch{{0.1, 1.0, 0.0}, {0.1, 0.6, 0.15}, {0.1, 0.2, 0.0}};
  const Vec3 target(0.1, 0.35, 0.1);  // closer to the hip, same plane
  const TwoBoneSolution s = solve_two_bone(ch.a, ch.b, ch.c, target, Vec3::UnitZ());
  EXPECT_TRUE(s.reached);
  EXPECT_LT((s.end - target).norm(), 1e-12);
  expect_lengths_kept(ch, s);
  EXPECT_NEAR(s.middle.x(), 0.1, 1e-12) << "knee left its plane";
  // The knee still points forward of the hip->ankle line.
  const Vec3 u = (s.end - ch.a).normalized();
  const Vec3 off = (s.middle - ch.a) - u * (s.middle - ch.a).dot(u);
  EXPECT_GT(off.z(), 0.0);
  // Both bones turn about the plane normal only.
  EXPECT_LT((s.upper * Vec3::UnitX() - Vec3::UnitX()).norm(), 1e-12);
  EXPECT_LT((s.lower * Vec3::UnitX() - Vec3::UnitX()).norm(), 1e-12);
}

TEST(LimbContactIk, OutOfPlaneTargetReachedWithLengthsKept) {
  const Chain ch{{0.0, 1.0, 0.0}, {0.0, 0.55, 0.1}, {0.0, 0.1, 0.0}};
  const Vec3 target(0.2, 0.2, 0.25);
  const TwoBoneSolution s = solve_two_bone(ch.a, ch.b, ch.c, target, Vec3::UnitZ());
  EXPECT_TRUE(s.reached);
  EXPECT_LT((s.end - target).norm(), 1e-12);
  expect_lengths_kept(ch, s);
}

TEST(LimbContactIk, TargetAtCurrentAnkleChangesNothing) {
  const Chain ch{{0.0, 1.0, 0.0}, {0.0, 0.55, 0.1}, {0.0, 0.1, 0.0}};
  const TwoBoneSolution s = solve_two_bone(ch.a, ch.b, ch.c, ch.c, Vec3::UnitZ());
  EXPECT_TRUE(s.reached);
  EXPECT_LT((s.middle - ch.b).norm(), 1e-12);
  EXPECT_LT(s.upper.angularDistance(Quat::Identity()), 1e-9);
  EXPECT_LT(s.lower.angularDistance(Quat::Identity()), 1e-9);
}

TEST(LimbContactIk, StraightLegBendsTowardThePole) {
  const Chain ch{{0.0, 1.0, 0.0}, {0.0, 0.5, 0.0}, {0.0, 0.0, 0.0}};
  const Vec3 target(0.0, 0.2, 0.0);
  const TwoBoneSolution s = solve_two_bone(ch.a, ch.b, ch.c, target, Vec3(0, 0, 2));
  EXPECT_TRUE(s.reached);
  EXPECT_LT((s.end - target).norm(), 1e-12);
  expect_lengths_kept(ch, s);
  EXPECT_NEAR(s.middle.x(), 0.0, 1e-12);
  EXPECT_NEAR(s.middle.z(), std::sqrt(0.25 - 0.16), 1e-12);  // knee at (0, 0.6, 0.3)
  EXPECT_NEAR(s.middle.y(), 0.6, 1e-12);
}

TEST(LimbContactIk, UnreachableTargetExtendsTowardIt) {
  const Chain ch{{0.0, 1.0, 0.0}, {0.0, 0.55, 0.1}, {0.0, 0.1, 0.0}};
  const double l = (ch.b - ch.a).norm() + (ch.c - ch.b).norm();
  const Vec3 target(0.0, -1.0, 0.3);
  const TwoBoneSolution s = solve_two_bone(ch.a, ch.b, ch.c, target, Vec3::UnitZ());
  EXPECT_FALSE(s.reached);
  expect_lengths_kept(ch, s);
  EXPECT_LT((s.end - (ch.a + (target - ch.a).normalized() * l)).norm(), 1e-12);
}

// ------------------------------------------------------------ contact phases

// 60 Hz; stance at x = 0 for k = 0..24, a linear swing k = 24..48 (x from 0 to
// 1, arc 0.3 high), stance at x = 1 for k = 48..72. Leg length 1: low <= 0.06,
// still <= 0.6 /s. The swing moves 1/24 per sample = 2.5 /s, so the samples
// whose central difference touches the swing (24 and 48) are not still.
std::vector<Vec3> gait(std::vector<double>& times) {
  std::vector<Vec3> p;
  for (int k = 0; k <= 72; ++k) {
    times.push_back(k / 60.0);
    double x = 0, y = 0;
    if (k > 24 && k < 48) {
      const double u = (k - 24) / 24.0;
      x = u;
      y = 0.3 * std::sin(kPi * u);
    } else if (k >= 48) {
      x = 1.0;
    }
    p.emplace_back(x, y, 0.5);
  }
  return p;
}

TEST(LimbContactPhases, SyntheticGaitGivesTwoStancePhases) {
  std::vector<double> times;
  const std::vector<Vec3> foot = gait(times);
  const auto phases = detect_contact_phases(times, {foot}, 0.0, 1.0, ContactOptions{});
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].first, 0);
  EXPECT_EQ(phases[0].last, 23);
  EXPECT_EQ(phases[1].first, 49);
  EXPECT_EQ(phases[1].last, 72);
}

TEST(LimbContactPhases, ThresholdsScaleWithLegLength) {
  // The same gait in centimetres is the same gait.
  std::vector<double> times;
  std::vector<Vec3> foot = gait(times);
  for (Vec3& p : foot) p *= 100.0;
  const auto phases = detect_contact_phases(times, {foot}, 0.0, 100.0, ContactOptions{});
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].last, 23);
  EXPECT_EQ(phases[1].first, 49);
}

TEST(LimbContactPhases, FloatingFootIsNoContactAndBlipsAreDropped) {
  std::vector<double> times;
  std::vector<Vec3> foot = gait(times);
  for (Vec3& p : foot) p.y() += 0.07;  // above max_height everywhere
  EXPECT_TRUE(detect_contact_phases(times, {foot}, 0.0, 1.0, ContactOptions{}).empty());
  // Two still, low samples (1/60 s < min_duration) inside a fast move.
  std::vector<Vec3> blip;
  for (int k = 0; k <= 72; ++k) blip.emplace_back(k >= 30 && k <= 32 ? 1.5 : k * 0.05, 0.0, 0.0);
  EXPECT_TRUE(detect_contact_phases(times, {blip}, 0.0, 1.0, ContactOptions{}).empty());
}

TEST(LimbContactPhases, ShortGapIsClosedAndAnyLowStillPointCounts) {
  std::vector<double> times;
  std::vector<Vec3> heel = gait(times), toe = heel;
  // The heel lifts for two samples in the first stance: a gap of 3/60 s
  // (> max_gap 0.04 s) splits the phase; a toe that stays down keeps it whole.
  heel[10].y() = heel[11].y() = 0.2;
  auto phases = detect_contact_phases(times, {heel}, 0.0, 1.0, ContactOptions{});
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[0].last, 9);
  EXPECT_EQ(phases[1].first, 12);
  phases = detect_contact_phases(times, {heel, toe}, 0.0, 1.0, ContactOptions{});
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].last, 23);
  // One lifted sample: a 2/60 s gap, closed by max_gap.
  heel[11].y() = 0.0;
  phases = detect_contact_phases(times, {heel}, 0.0, 1.0, ContactOptions{});
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].first, 0);
  EXPECT_EQ(phases[0].last, 23);
}

// ------------------------------------------------------------ reconciliation

// Mixamo biped in T-pose, legs 0.45 + 0.45, ankles 0.05 above the floor.
Skeleton biped() {
  const std::vector<test::JointSpec> joints = {
      {"mixamorig:Hips", -1, {0, 1.0, 0}},          {"mixamorig:Spine", 0, {0, 1.2, 0}},
      {"mixamorig:LeftUpLeg", 0, {0.1, 0.95, 0}},   {"mixamorig:LeftLeg", 2, {0.1, 0.5, 0}},
      {"mixamorig:LeftFoot", 3, {0.1, 0.05, 0}},    {"mixamorig:RightUpLeg", 0, {-0.1, 0.95, 0}},
      {"mixamorig:RightLeg", 5, {-0.1, 0.5, 0}},    {"mixamorig:RightFoot", 6, {-0.1, 0.05, 0}},
  };
  return test::make_skeleton(joints);
}

constexpr double kBend = 0.4;  // thigh forward, shin back, foot flat

// Knees bent by kBend, soles `clearance` above the floor; the hips travel
// `travel` along +z between t = 0.5 s and 1 s (feet dragged along).
Clip crouch(double clearance, double travel) {
  const double hips_y = 0.05 + 0.9 * std::cos(kBend) + 0.05 + clearance;
  Clip c;
  c.name = "crouch";
  c.duration = 1.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 0.5, 1.0}, {Vec3(0, hips_y, 0), Vec3(0, hips_y, 0), Vec3(0, hips_y, travel)}};
  c.tracks.push_back(hips);
  for (int side = 0; side < 2; ++side) {
    const int thigh = 2 + 3 * side;
    const Quat rots[3] = {axis_angle(-kBend, Vec3::UnitX()), axis_angle(2 * kBend, Vec3::UnitX()),
                          axis_angle(-kBend, Vec3::UnitX())};
    for (int r = 0; r < 3; ++r) {
      JointTracks jt;
      jt.joint = thigh + r;
      jt.rotation = {{0.0}, {rots[r]}};
      c.tracks.push_back(jt);
    }
  }
  return c;
}

std::vector<double> sample_times(int n, double duration) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(duration * k / n);
  return t;
}

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

}  // namespace
}  // namespace rig

// --------------------------------------------------------------- clip transfer

namespace rig {
namespace {

TEST(ClipTransfer, LeadingBindPoseKeyIsDetectedAndTrimmed) {
  const Skeleton sk = biped();
  Clip clip = crouch(0.0, 0.0);
  EXPECT_FALSE(starts_with_bind_pose(sk, clip));  // one key per leg track, no jump
  // Prepend a bind-pose key at t = 0 before a crouch keyed from 1/120 s.
  Clip snap;
  snap.duration = 1.0;
  for (const JointTracks& jt : clip.tracks) {
    JointTracks t = jt;
    if (!t.rotation.empty()) {
      t.rotation.times = {0.0, 1.0 / 120, 1.0};
      t.rotation.values = {sk.neutral_local[t.joint].rotation, jt.rotation.values[0], jt.rotation.values[0]};
    }
    if (!t.translation.empty()) {
      t.translation.times = {0.0, 1.0 / 120, 1.0};
      t.translation.values = {sk.neutral_local[t.joint].translation, jt.translation.values[0], jt.translation.values[0]};
    }
    snap.tracks.push_back(t);
  }
  EXPECT_TRUE(starts_with_bind_pose(sk, snap));
  const Clip trimmed = trim_clip_start(snap, 1.0 / 120);
  EXPECT_NEAR(trimmed.duration, 1.0 - 1.0 / 120, 1e-15);
  EXPECT_FALSE(starts_with_bind_pose(sk, trimmed));
  for (double t : {0.0, 0.3, 1.0 - 1.0 / 120}) {
    const auto a = pose_at(sk, trimmed, t), b = pose_at(sk, snap, t + 1.0 / 120);
    for (int j = 0; j < sk.size(); ++j) EXPECT_LT((a[j] - b[j]).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// Hips tracks of the transfer never depend on limb reconciliation: limbs
// change thigh, shin and foot only (the grounding tables rely on it).
TEST(ClipTransfer, LimbReconciliationNeverTouchesTheHips) {
  const Skeleton sk = biped();
  Character source;
  source.skeleton = sk;
  Character target;
  target.skeleton = sk;
  const Calibration cal = calibrate(sk);
  const Clip clip = crouch(-0.03, 0.4);
  TransferOptions with, without;
  with.align_floor = without.align_floor = false;  // keep the 3 cm sink for the IK to fix
  without.reconcile_limbs = false;
  const TransferResult a = transfer_clip(source, clip, cal, target, cal, with);
  const TransferResult b = transfer_clip(source, clip, cal, target, cal, without);
  ASSERT_TRUE(a.status.ok()) << a.status.message;
  ASSERT_TRUE(b.status.ok()) << b.status.message;
  ASSERT_EQ(a.feet.size(), 2u);
  ASSERT_EQ(a.clip.tracks.size(), b.clip.tracks.size());
  const std::vector<int> legs = {2, 3, 4, 5, 6, 7};
  int changed = 0;
  for (size_t i = 0; i < a.clip.tracks.size(); ++i) {
    const JointTracks &x = a.clip.tracks[i], &y = b.clip.tracks[i];
    ASSERT_EQ(x.joint, y.joint);
    EXPECT_EQ(x.translation.values, y.translation.values) << sk.names[x.joint];
    bool same = x.rotation.values.size() == y.rotation.values.size();
    for (size_t k = 0; same && k < x.rotation.values.size(); ++k)
      same = x.rotation.values[k].coeffs() == y.rotation.values[k].coeffs();
    if (std::find(legs.begin(), legs.end(), x.joint) == legs.end()) EXPECT_TRUE(same) << sk.names[x.joint];
    else changed += same ? 0 : 1;
  }
  EXPECT_GT(changed, 0) << "the feet were not pinned at all";
  for (const FootReport& f : a.feet)
    for (size_t k = 0; k < f.contact.size(); ++k)
      if (f.contact[k]) {
        EXPECT_NEAR(f.clearance_after[k], 0.0, 1e-9);
      }
}

// A shoe skinned to the shin under a weightless foot joint (an IK target):
// the sole points are that shin's lowest skin, not the foot joint's
// projection; with foot skin, the foot's own.
TEST(LimbContactSoles, WeightlessFootTakesTheShinsLowestSkin) {
  Character c;
  c.skeleton = biped();
  const Leg leg = find_legs(c.skeleton).front();
  // Shin skin: a shoe at y 0..0.1 and a calf at y 0.3; one vertex on the thigh.
  const std::vector<std::pair<Vec3, int>> verts = {{{0.1, 0.0, 0.1}, leg.shin},  {{0.1, 0.0, -0.05}, leg.shin},
                                                   {{0.1, 0.1, 0.0}, leg.shin},  {{0.1, 0.3, 0.0}, leg.shin},
                                                   {{0.1, 0.7, 0.0}, leg.thigh}};
  for (const auto& [p, j] : verts) {
    c.mesh.positions.push_back(p);
    c.skin.influences.push_back({{j, 1.0}});
  }
  auto lowest_y = [](const std::vector<SolePoint>& s) {
    double y = 1e9;
    for (const SolePoint& p : s) y = std::min(y, p.bind_position.y());
    return y;
  };
  const std::vector<SolePoint> shoe = mesh_sole_points(c, leg, 0.0, 0.02);
  ASSERT_FALSE(shoe.empty());
  for (const SolePoint& p : shoe) EXPECT_EQ(p.joint, leg.shin);
  EXPECT_EQ(lowest_y(shoe), 0.0);
  EXPECT_TRUE(std::none_of(shoe.begin(), shoe.end(), [](const SolePoint& p) { return p.bind_position.y() > 0.25; }))
      << "the calf is no sole";
  // Give the foot joint a vertex: it is the sole again, plus the shin's skin
  // within a quarter leg (0.225) of the ankle (the shoe, not the calf).
  c.mesh.positions.push_back({0.1, 0.02, 0.15});
  c.skin.influences.push_back({{leg.foot, 1.0}});
  const std::vector<SolePoint> foot = mesh_sole_points(c, leg, 0.0, 0.02);
  ASSERT_FALSE(foot.empty());
  EXPECT_EQ(foot.front().joint, leg.foot);
  const Vec3 ankle = c.skeleton.bind_world[leg.foot].block<3, 1>(0, 3);
  for (const SolePoint& p : foot) {
    EXPECT_TRUE(p.joint == leg.foot || p.joint == leg.shin);
    if (p.joint == leg.shin) {
      EXPECT_LE((p.bind_position - ankle).norm(), 0.225 + 1e-12);
    }
  }
  EXPECT_TRUE(std::any_of(foot.begin(), foot.end(), [&](const SolePoint& p) { return p.joint == leg.shin; }));
  EXPECT_TRUE(std::none_of(foot.begin(), foot.end(), [](const SolePoint& p) { return p.bind_position.y() > 0.25; }));
}

TEST(ClipTransfer, FloorAlignmentPutsTheStanceLevelOnTheFloor) {
  const Skeleton sk = biped();
  Character c;
  c.skeleton = sk;
  const Calibration cal = calibrate(sk);
  for (double sink : {-0.03, 0.02}) {
    TransferOptions opt;
    opt.reconcile_limbs = false;
    const TransferResult r = transfer_clip(c, crouch(sink, 0.4), cal, c, cal, opt);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    EXPECT_NEAR(r.floor_alignment, sink, 1e-9);
    // The hips moved by exactly -sink in world y at every key.
    for (double t : r.times) {
      const auto before = pose_at(sk, crouch(sink, 0.4), t), after = pose_at(sk, r.clip, t);
      EXPECT_NEAR(after[0](1, 3) - before[0](1, 3), -sink, 1e-9);
    }
  }
}

TEST(ClipTransfer, MismatchedCalibrationIsAnErrorNotAnException) {
  const Skeleton sk = biped();
  Character c;
  c.skeleton = sk;
  Calibration wrong = calibrate(sk);
  wrong.names.pop_back();
  const TransferResult r = transfer_clip(c, crouch(0, 0), wrong, c, calibrate(sk));
  EXPECT_FALSE(r.status.ok());
  EXPECT_TRUE(r.clip.tracks.empty());
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

// Against the foot's own lowest level, a clip whose feet stand 0.5 m above
// the bind floor still shows its stance (the still half), and the moving
// half is no contact; the under-the-floor rule is off when asked.
TEST(LimbContactPhases, OwnFloorFindsTheStanceOfARaisedClip) {
  const Skeleton sk = biped();
  const std::vector<double> times = sample_times(60, 1.0);
  const auto own = detect_own_floor_contacts(sk, crouch(0.5, 1.2), times, LimbContactOptions{});
  ASSERT_EQ(own.size(), 2u);
  for (const auto& phases : own) {
    ASSERT_EQ(phases.size(), 1u);
    EXPECT_EQ(phases[0].first, 0);
    EXPECT_LE(phases[0].last, 31);
  }
  EXPECT_TRUE(detect_leg_contacts(sk, crouch(0.5, 1.2), times, LimbContactOptions{})[0].empty());
  LimbContactOptions still;
  still.contact.under_floor_is_contact = false;
  for (const auto& phases : detect_leg_contacts(sk, crouch(-0.03, 1.2), times, still)) {
    ASSERT_EQ(phases.size(), 1u);
    EXPECT_LE(phases[0].last, 31);
  }
}

// A sole that dips 0.2 m under its stand while it moves (a synthetic crouch
// or landing that does not keep the feet planted) does not set the own
// floor: the floor is the lowest level a sole rests at, so the stand is
// still found. Taking the dip for the floor puts the stand 22 % of the leg
// above it, out of the contact band.
TEST(LimbContactPhases, OwnFloorIsWhereTheSoleRestsNotWhereItDipsMoving) {
  const Skeleton sk = biped();
  const std::vector<double> times = sample_times(60, 1.0);
  Clip clip = crouch(0.5, 1.2);
  Track<Vec3>& hips = clip.tracks[0].translation;
  const Vec3 stand = hips.values[0];
  hips.times = {0.0, 0.5, 0.75, 1.0};
  hips.values = {stand, stand, stand + Vec3(0, -0.2, 0.6), stand + Vec3(0, 0, 1.2)};
  const auto own = detect_own_floor_contacts(sk, clip, times, LimbContactOptions{});
  ASSERT_EQ(own.size(), 2u);
  for (const auto& phases : own) {
    ASSERT_EQ(phases.size(), 1u);
    EXPECT_EQ(phases[0].first, 0);
    EXPECT_GE(phases[0].last, 29);
    EXPECT_LE(phases[0].last, 31);
  }
}

}  // namespace
}  // namespace rig
