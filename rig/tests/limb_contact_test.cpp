#include "rig/retarget/contact/limb_contact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "crouch_clip.h"

namespace rig {
namespace {

using test::biped;
using test::crouch;
using test::sample_times;

constexpr double kPi = std::numbers::pi;

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

// --------------------------------------------------------------- sole points

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

}  // namespace
}  // namespace rig
