// Tails above the floor: the tail's skin, and the least upward turn of its
// first bone that keeps it out of the floor in a retargeted clip.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/model/pose.h"
#include "rig/retarget/clearance/tail_clearance.h"
#include "shared_character.h"
#include "test_skeleton.h"

namespace rig {
namespace {

// The Mixamo biped with a three-joint tail Tail1..Tail3 (joints 9-11) at
// `tail` and one skin triangle per tail joint centred at `skin` (each
// triangle's third corner 0.05 up and 0.05 behind), on feet skin.
Character tailed_biped(const std::array<Vec3, 3>& tail, const std::array<Vec3, 3>& skin) {
  Character c;
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  for (int k = 0; k < 3; ++k) joints.push_back({"Tail" + std::to_string(k + 1), k == 0 ? 0 : 8 + k, tail[k]});
  c.skeleton = make_skeleton(joints);
  for (int k = 0; k < 3; ++k) {
    const Vec3 p = skin[k];
    const int a = test::add_rigid_vertex(c, p - Vec3(0.05, 0, 0), 9 + k), b = test::add_rigid_vertex(c, p + Vec3(0.05, 0, 0), 9 + k),
              d = test::add_rigid_vertex(c, p + Vec3(0, 0.05, -0.05), 9 + k);
    c.mesh.triangles.push_back({a, b, d});
  }
  test::add_feet_skin(c);
  return c;
}

// A biped whose tail leaves the hips (y 1) and lies on the floor from 0.5
// behind them to 1.5 behind: Tail1 (9) at the rump, Tail2 (10) and Tail3
// (11) on the floor. Tail skin: one triangle per tail joint, the floor ones
// at y 0.
Character floor_tailed_biped() {
  return tailed_biped({Vec3(0, 0.9, -0.1), Vec3(0, 0.05, -0.5), Vec3(0, 0.05, -1.5)},
                      {Vec3(0, 0.5, -0.3), Vec3(0, 0, -1.0), Vec3(0, 0, -1.6)});
}

double lowest(const Character& c, const std::vector<int>& vertices, const Clip& clip, double t) {
  const std::vector<Vec3> p = skin_positions(c.mesh, c.skin, c.skeleton, pose_at(c.skeleton, clip, t));
  double low = std::numeric_limits<double>::infinity();
  for (int v : vertices) low = std::min(low, p[v].y());
  return low;
}

TEST(TailClearance, TheTailIsItsJointsSkinFromItsRoot) {
  const Character c = floor_tailed_biped();
  const std::vector<TailSkin> tails = tail_skins(c);
  ASSERT_EQ(tails.size(), 1u);
  EXPECT_EQ(tails[0].root, 9);
  EXPECT_EQ(tails[0].tip, 11);
  EXPECT_EQ(tails[0].vertices, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_NEAR(tails[0].bind_lowest, 0.0, 1e-12);
}

// The hips dip 0.1: the floor tail would go 0.1 under the floor. Its root
// turns up just enough (the lowest tail point back on the floor), and only
// there; at bind height nothing turns.
TEST(TailClearance, TheRootTurnsUpByTheLeastAngleThatClearsTheFloor) {
  const Character c = floor_tailed_biped();
  const std::vector<TailSkin> tails = tail_skins(c);
  const std::vector<double> times = {0.0, 1.0, 2.0};
  const Clip clip = test::hips_dip_clip(0.9);
  EXPECT_NEAR(lowest(c, tails[0].vertices, clip, 1.0), -0.1, 1e-9);  // what the clip alone does
  const ArmClearanceResult r = keep_tails_above_floor(c, tails, clip, times, {});
  ASSERT_EQ(r.angle.size(), 1u);
  EXPECT_EQ(r.angle[0][0], 0.0);
  EXPECT_EQ(r.angle[0][2], 0.0);
  EXPECT_GT(r.angle[0][1], 0.0);
  EXPECT_LT(r.angle[0][1], 0.2);  // a few degrees, not a raised tail
  EXPECT_GE(lowest(c, tails[0].vertices, r.clip, 1.0), -1e-4);
  EXPECT_LE(lowest(c, tails[0].vertices, r.clip, 1.0), 1e-3);
  // Up and back: the tip stays behind the hips.
  const std::vector<Mat4> world = pose_at(c.skeleton, r.clip, 1.0);
  EXPECT_LT(world[11](2, 3), -1.4);
}

// A tail hanging straight down from the rump to the floor (a horse's or a
// cow's) has no horizontal line of its own: it turns about the body's
// lateral axis, back and up, never forward between the legs.
TEST(TailClearance, AHangingTailSwingsBackOutOfTheFloor) {
  const Character c = tailed_biped({Vec3(0, 0.9, -0.15), Vec3(0, 0.5, -0.15), Vec3(0, 0.1, -0.15)},
                                   {Vec3(0, 0.7, -0.15), Vec3(0, 0.3, -0.15), Vec3(0, 0.0, -0.15)});
  const std::vector<TailSkin> tails = tail_skins(c);
  ASSERT_EQ(tails.size(), 1u);
  const Clip clip = test::hips_dip_clip(0.9);
  EXPECT_NEAR(lowest(c, tails[0].vertices, clip, 1.0), -0.1, 1e-9);
  const ArmClearanceResult r = keep_tails_above_floor(c, tails, clip, std::vector<double>{0.0, 1.0, 2.0}, {});
  EXPECT_EQ(r.angle[0][0], 0.0);
  EXPECT_GT(r.angle[0][1], 0.0);
  EXPECT_GE(lowest(c, tails[0].vertices, r.clip, 1.0), -1e-4);
  const std::vector<Mat4> world = pose_at(c.skeleton, r.clip, 1.0);
  EXPECT_LT(world[11](2, 3), -0.2);  // the tip swung back behind the rump, not forward under the body
}

// A floor below the tail's bind height (the caller's) does not lift a tail
// the artist modelled lower: each tail's floor is the lower of the two.
TEST(TailClearance, ATailModelledIntoTheFloorIsLeftWhereItLies) {
  const Character c = floor_tailed_biped();
  ArmClearanceOptions o;
  o.floor_y = 0.02;  // the feet's floor 2 cm above the tail's lowest point
  const ArmClearanceResult r = keep_tails_above_floor(c, tail_skins(c), Clip{}, std::vector<double>{0.0, 1.0}, o);
  EXPECT_EQ(r.angle[0][0], 0.0);
  EXPECT_EQ(r.angle[0][1], 0.0);
}

// A root whose turn would move the body is no tail to turn: here a joint
// named tail with the left thigh (by its role) hung below it.
TEST(TailClearance, TailsWhoseTurnWouldMoveTheBodyAreLeftOut) {
  Character c = floor_tailed_biped();
  c.skeleton = test::make_skeleton({
      {"mixamorig:Hips", -1, {0, 1.0, 0}},
      {"mixamorig:Spine", 0, {0, 1.2, 0}},
      {"mixamorig:Head", 1, {0, 1.6, 0}},
      {"Tail1", 0, {0, 0.9, -0.1}},  // 3
      {"mixamorig:LeftUpLeg", 3, {0.1, 0.95, 0}},
      {"mixamorig:LeftLeg", 4, {0.1, 0.5, 0}},
      {"mixamorig:LeftFoot", 5, {0.1, 0.05, 0}},
      {"mixamorig:RightUpLeg", 0, {-0.1, 0.95, 0}},
      {"mixamorig:RightLeg", 7, {-0.1, 0.5, 0}},
      {"mixamorig:RightFoot", 8, {-0.1, 0.05, 0}},
      {"Tail2", 3, {0, 0.05, -0.5}},
      {"Tail3", 10, {0, 0.05, -1.5}},
  });
  const std::vector<int> moved = {0, 1, 2, 4, 5, 6, 7, 8, 9, 3, 10, 11};  // old joint -> new
  for (std::vector<Influence>& in : c.skin.influences)
    for (Influence& i : in) i.joint = moved[i.joint];
  c.skeleton.roles[4] = {BodyPart::kThigh, Side::kLeft};  // as a rig's own roles may say
  ASSERT_TRUE(tail_joint_mask(c.skeleton)[3]);
  EXPECT_TRUE(tail_skins(c).empty());
}

// Skin resting exactly on the floor is clear (no rounding turn), and a
// non-finite floor turns nothing.
TEST(TailClearance, SkinOnTheFloorOrANonFiniteFloorTurnsNothing) {
  const Character c = floor_tailed_biped();
  ArmClearanceOptions o;
  for (const double floor : {0.0, std::numeric_limits<double>::quiet_NaN()}) {
    o.floor_y = floor;
    const ArmClearanceResult r = keep_tails_above_floor(c, tail_skins(c), Clip{}, std::vector<double>{0.0, 1.0}, o);
    ASSERT_EQ(r.angle.size(), 1u);
    EXPECT_EQ(r.angle[0][0], 0.0);
    EXPECT_EQ(r.angle[0][1], 0.0);
  }
}

// The Wolf's walk onto the Rat: the Rat's tail lies on the floor, and the
// wolf's tail tracks (mapped by name) and the dipping pelvis put it 0.16
// units (7 % of H) under the floor at most keys. Now it stays within a
// millimetre of where the Rat's own walk keeps it.
TEST(TailClearance, AWolfWalkKeepsTheRatsTailOutOfTheFloor) {
  Character rat, wolf;
  if (!load_shared_character("Rat.glb", rat) || !load_shared_character("Wolf.glb", wolf)) GTEST_SKIP() << "assets missing";
  const Clip* walk = clip_named(wolf, "AnimalArmature|Walk");
  ASSERT_NE(walk, nullptr);
  const std::vector<TailSkin> tails = tail_skins(rat);
  ASSERT_EQ(tails.size(), 1u);
  const Calibration src = calibrate(wolf.skeleton), dst = calibrate(rat.skeleton);
  for (const bool on : {false, true}) {
    TransferOptions o;
    o.tails_above_floor = on;
    const TransferResult r = transfer_clip(wolf, *walk, src, rat, dst, o);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    double low = std::numeric_limits<double>::infinity();
    for (double t : r.times) low = std::min(low, lowest(rat, tails[0].vertices, r.clip, t));
    const double floor = std::min(r.floor_y, tails[0].bind_lowest);
    if (on) {
      EXPECT_GE(low, floor - 0.005) << "floor " << floor;
      EXPECT_GT(r.diagnostics.tail_turn_keys, 0);
    } else {
      EXPECT_LT(low, floor - 0.1);  // the case this guards
    }
  }
}

}  // namespace
}  // namespace rig
