// Arms above the floor: which skin an arm carries (carried objects left out)
// and the least outward turn that keeps it above the floor.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

// A biped whose arms hang straight down from shoulders at y 1.5 to hands at
// 0.7; hand skin reaches 0.6. A `Weapon` bone under the left hand carries a
// separate triangle (a club) down to 0.1, and one weapon-weighted vertex
// sits in the hand's own skin (a finger-like vertex, not a carried object).
Character long_armed_biped() {
  Character c;
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  joints[2].position.y() = 1.7;  // head above the shoulders
  for (const test::JointSpec& j : std::vector<test::JointSpec>{
           {"mixamorig:LeftArm", 1, {0.25, 1.5, 0}},      // 9
           {"mixamorig:LeftForeArm", 9, {0.25, 1.1, 0}},  // 10
           {"mixamorig:LeftHand", 10, {0.25, 0.7, 0}},    // 11
           {"mixamorig:RightArm", 1, {-0.25, 1.5, 0}},    // 12
           {"mixamorig:RightForeArm", 12, {-0.25, 1.1, 0}},
           {"mixamorig:RightHand", 13, {-0.25, 0.7, 0}},  // 14
           {"Weapon", 11, {0.25, 0.6, 0.1}},              // 15
       })
    joints.push_back(j);
  c.skeleton = make_skeleton(joints);
  auto vertex = [&](Vec3 p, int joint) { return test::add_rigid_vertex(c, p, joint); };
  for (int side : {1, -1}) {
    const int hand = side > 0 ? 11 : 14;
    const int a = vertex({0.25 * side, 0.6, 0.0}, hand), b = vertex({0.25 * side, 0.65, 0.05}, hand);
    const int finger = vertex({0.25 * side, 0.65, -0.05}, side > 0 ? 15 : hand);
    c.mesh.triangles.push_back({a, b, finger});
  }
  const int x = vertex({0.25, 0.1, 0.1}, 15), y = vertex({0.26, 0.3, 0.1}, 15), z = vertex({0.25, 0.3, 0.12}, 15);
  c.mesh.triangles.push_back({x, y, z});
  test::add_feet_skin(c);
  return c;
}

// The hips 0.7 below bind at t = 1 s, at bind height at 0 and 2 s.
Clip crouch_once() { return test::hips_dip_clip(0.3); }

TEST(ArmClearance, CarriedObjectsAreWholePropIslandsOnly) {
  const Character c = long_armed_biped();
  const std::vector<char> carried = carried_object_vertices(c, 1e-6);
  ASSERT_EQ(carried.size(), static_cast<size_t>(c.mesh.vertex_count()));
  for (int v = 0; v < c.mesh.vertex_count(); ++v) EXPECT_EQ(carried[v], v >= 6 && v < 9) << v;
  const std::vector<ArmSkin> arms = arm_skins(c, carried);
  ASSERT_EQ(arms.size(), 2u);
  EXPECT_EQ(arms[0].upper_arm, 9);
  EXPECT_EQ(arms[0].other_upper_arm, 12);
  EXPECT_EQ(arms[0].vertices, (std::vector<int>{0, 1, 2}));  // the weapon-weighted finger stays
  EXPECT_EQ(arms[1].vertices, (std::vector<int>{3, 4, 5}));
}

// At the crouch the hands would be 0.1 under the floor; each arm turns
// outward by the least angle that brings its skin to the floor: shoulder at
// 0.8, skin 0.9 below it, so acos(0.8 / 0.9) = 27.27 deg. The club, left
// out, would need far more. At bind height nothing turns.
TEST(ArmClearance, TurnsEachArmOutwardByTheLeastAngleThatClearsTheFloor) {
  const Character c = long_armed_biped();
  const std::vector<ArmSkin> arms = arm_skins(c, carried_object_vertices(c, 1e-6));
  const std::vector<double> times = {0.0, 1.0, 2.0};
  const ArmClearanceResult r = keep_arms_above_floor(c, arms, crouch_once(), times, {});
  ASSERT_EQ(r.angle.size(), 2u);
  const double want = std::acos(0.8 / 0.9);
  for (size_t a = 0; a < 2; ++a) {
    EXPECT_EQ(r.angle[a][0], 0.0);
    EXPECT_EQ(r.angle[a][2], 0.0);
    EXPECT_NEAR(r.angle[a][1], want, 1e-4);
    EXPECT_GE(r.clearance[a][1], 0.0);
    EXPECT_LE(r.clearance[a][1], 1e-4);
  }
  // Outward: the hands move away from the body's centre line.
  std::vector<Transform> locals = c.skeleton.neutral_local;
  apply_clip(r.clip, 1.0, locals);
  const std::vector<Mat4> world = local_to_world(c.skeleton, locals);
  EXPECT_GT(world[11](0, 3), 0.25 + 0.1);
  EXPECT_LT(world[14](0, 3), -0.25 - 0.1);
  // Untouched where clear: the bind-height keys keep the bind rotation.
  apply_clip(r.clip, 0.0, locals = c.skeleton.neutral_local);
  EXPECT_TRUE(locals[9].rotation.isApprox(c.skeleton.neutral_local[9].rotation, 1e-12));
}

// With the shoulders themselves under the floor no outward turn clears the
// arm: it is left as the clip has it (not flung out to the limit).
TEST(ArmClearance, ATurnThatCannotClearTheFloorIsNotMade) {
  const Character c = long_armed_biped();
  const std::vector<ArmSkin> arms = arm_skins(c, carried_object_vertices(c, 1e-6));
  Clip clip = crouch_once();
  clip.tracks[0].translation.values[1] = Vec3(0, -0.6, 0);  // shoulders 0.1 under the floor
  const ArmClearanceResult r = keep_arms_above_floor(c, arms, clip, std::vector<double>{0.0, 1.0, 2.0}, {});
  for (size_t a = 0; a < 2; ++a) {
    EXPECT_EQ(r.angle[a][1], 0.0);
    EXPECT_LT(r.clearance[a][1], 0.0);
  }
  EXPECT_EQ(r.clip.tracks.size(), clip.tracks.size());  // no arm track written
}

TEST(ArmClearance, NoArmsOrNoSamplesIsANoOp) {
  const Character c = long_armed_biped();
  const Clip clip = crouch_once();
  const ArmClearanceResult none = keep_arms_above_floor(c, {}, clip, std::vector<double>{0.0, 1.0}, {});
  EXPECT_EQ(none.clip.tracks.size(), clip.tracks.size());
  const std::vector<ArmSkin> arms = arm_skins(c, {});
  const ArmClearanceResult empty = keep_arms_above_floor(c, arms, clip, std::vector<double>{}, {});
  EXPECT_EQ(empty.clip.tracks.size(), clip.tracks.size());
}

}  // namespace
}  // namespace rig
