// Names help, never decide alone (issue 11): the shared characters with every
// joint renamed j0..jN read the same body roles and the same tail bones as
// with their names, as far as the shape tells them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "rig/retarget/contact/grounding.h"
#include "rig/io/io.h"
#include "rig/anatomy/roles.h"
#include "renamed_character.h"
#include "test_skeleton.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

// The character as loaded, and a copy whose joints are named j<index>, its
// roles read again from the skeleton and skin alone.
bool load_both(const std::string& rel, Character& named, Character& unnamed) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/" + rel;
  if (!fs::exists(path) || !load(path, named).ok()) return false;
  unnamed = test::renamed(named);
  return true;
}

#define LOAD_BOTH(rel)                                                                    \
  Character named, unnamed;                                                               \
  if (!load_both(rel, named, unnamed)) GTEST_SKIP() << "asset missing: " << rel << " (set TAILRIG_ASSETS)";

std::string role_at(const Character& c, const std::string& name_in_named, const Character& named) {
  const int j = named.skeleton.find(name_in_named);
  return j < 0 ? "missing" : role_name(c.skeleton.roles[j]);
}

// A T-Rex's legs start with a bone across the pelvis' width (BackLeg ->
// BackUpLeg, level): the thigh is the bone after it (was: BackLeg read as the
// thigh, which floated the unnamed T-Rex's retargeted walk by 3.2 m), and the
// tail, named nothing, is the same tail as with its names (was: none).
TEST(RolesUnnamed, TrexLegsStartAfterTheHipBoneAndTheTailIsReadByShape) {
  LOAD_BOTH("characters/Trex.glb");
  for (const char* name : {"BackLeg.L", "BackUpLeg.L", "BackLowLeg.L", "BackFoot.L", "BackUpLeg.R", "FrontUpLeg.L"})
    EXPECT_EQ(role_at(unnamed, name, named), role_at(named, name, named)) << name;
  EXPECT_EQ(role_at(unnamed, "BackUpLeg.R", named), "right thigh");
  const std::vector<bool> named_tail = tail_joint_mask(named.skeleton), unnamed_tail = tail_joint_mask(unnamed.skeleton);
  int tail = 0;
  for (int j = 0; j < named.skeleton.size(); ++j) {
    EXPECT_EQ(unnamed_tail[j], named_tail[j]) << named.skeleton.names[j];
    tail += unnamed_tail[j] ? 1 : 0;
  }
  EXPECT_EQ(tail, 6);  // Back (the rump bone the tail hangs from) and Tail1..5
}

// A head whose only children are ears (lateral chains) is no leaf: the head
// is then the highest central joint, and the arms hang from the trunk up to
// it (was: no head, so no spine and no arms).
TEST(RolesUnnamed, BunnyHeadWithEarsAndItsArmsAreFound) {
  LOAD_BOTH("characters/Bunny.glb");
  for (const char* name : {"Body", "Hips", "Torso", "Neck", "Head", "UpperArm.L", "LowerArm.R", "UpperLeg.L"})
    EXPECT_EQ(role_at(unnamed, name, named), role_at(named, name, named)) << name;
}

// T-pose arms whose finger tips rise a little over a long reach are arms
// (was: any end more than 0.1 H above the shoulder read as pointing up).
TEST(RolesUnnamed, DemonTPoseArmsWithRisingFingersAreArms) {
  LOAD_BOTH("characters/demon.gltf");
  for (const char* name : {"Shoulder.L", "UpperArm.L", "LowerArm.L", "UpperArm.R", "LowerArm.R", "Head"})
    EXPECT_EQ(role_at(unnamed, name, named), role_at(named, name, named)) << name;
}

// Rump bones that run forward along the trunk (a rat's Hips -> Torso, no
// name saying so) are no tail; the chain that leads away from the head is.
TEST(RolesUnnamed, RatRumpBonesRunningForwardAreNoTail) {
  Character rat;
  const std::string path = std::string(TAILRIG_ASSETS) + "/characters/Rat.glb";
  if (!fs::exists(path)) GTEST_SKIP() << "asset missing: " << path;
  ASSERT_TRUE(load(path, rat).ok());
  const std::vector<bool> mask = tail_joint_mask(rat.skeleton);
  for (const char* name : {"Hips", "Torso"}) EXPECT_FALSE(mask[rat.skeleton.find(name)]) << name;
  for (const char* name : {"Back", "Tail1", "Tail7"}) EXPECT_TRUE(mask[rat.skeleton.find(name)]) << name;
}

// A forearm that fans straight into fingers has no hand bone: no finger
// takes the hand role (was: Index1 / Middle1 read as the hand).
TEST(RolesUnnamed, FingersOffTheForearmAreNoHand) {
  for (const char* rel : {"characters/Bunny.glb", "characters/demon.gltf"}) {
    LOAD_BOTH(rel);
    int hands = 0;
    for (int j = 0; j < unnamed.skeleton.size(); ++j) {
      hands += unnamed.skeleton.roles[j].part == BodyPart::kHand ? 1 : 0;
      EXPECT_EQ(role_name(unnamed.skeleton.roles[j]), role_name(named.skeleton.roles[j]))
          << rel << " " << named.skeleton.names[j];
    }
    EXPECT_EQ(hands, 0) << rel;
  }
}

// An Unreal-style forearm carries twist and corrective bones beside the hand
// (four children): the hand, at the wrist, is still the hand; three fingers
// fanning out at the wrist are not.
TEST(RolesUnnamed, TwistBonesBesideTheHandKeepTheHand) {
  for (const bool fingers_on_forearm : {false, true}) {
    std::vector<test::JointSpec> j = test::mixamo_biped_joints();
    for (const double s : {1.0, -1.0}) {
      const int base = static_cast<int>(j.size());
      j.push_back({"shoulder", 1, {s * 0.05, 1.45, 0}});
      j.push_back({"upper_arm", base, {s * 0.15, 1.45, 0}});
      j.push_back({"forearm", base + 1, {s * 0.45, 1.45, 0}});
      if (fingers_on_forearm) {
        for (const double z : {-0.02, 0.0, 0.02}) j.push_back({"finger", base + 2, {s * 0.72, 1.45, z}});
      } else {
        j.push_back({"hand", base + 2, {s * 0.72, 1.45, 0}});
        for (const double x : {0.52, 0.6}) j.push_back({"twist", base + 2, {s * x, 1.45, 0}});
        j.push_back({"corrective", base + 2, {s * 0.45, 1.45, 0}});
        for (const double z : {-0.02, 0.0, 0.02}) j.push_back({"finger", base + 3, {s * 0.8, 1.45, z}});
      }
    }
    for (auto& spec : j) spec.name.assign(1, 'j');  // nothing said by names
    Skeleton sk = test::make_skeleton(j);
    int hands = 0, forearms = 0;
    for (const Role& r : sk.roles) {
      hands += r.part == BodyPart::kHand ? 1 : 0;
      forearms += r.part == BodyPart::kForearm ? 1 : 0;
    }
    EXPECT_EQ(forearms, 2) << fingers_on_forearm;
    EXPECT_EQ(hands, fingers_on_forearm ? 0 : 2) << fingers_on_forearm;
  }
}

// A rat's Shoulders sits off the centre line but its chain (Neck, Head)
// comes back to it: trunk, not a right arm; the head is the head.
TEST(RolesUnnamed, RatHeadChainOffCentreIsNoArm) {
  LOAD_BOTH("characters/Rat.glb");
  for (const char* name : {"Shoulders", "Neck", "Head", "Hips", "Torso", "FrontUpLeg.R", "BackUpLeg.L"})
    EXPECT_EQ(role_at(unnamed, name, named), role_at(named, name, named)) << name;
  EXPECT_EQ(role_at(unnamed, "Head", named), "head");
}

// A wolf's front leg starts with a bone running sideways off the chest
// (FrontShoulder -> FrontUpperLeg): the thigh is the next one even when
// only thigh and shin follow (was: FrontShoulder read as the thigh).
TEST(RolesUnnamed, WolfFrontLegsStartAfterTheSidewaysShoulderBone) {
  LOAD_BOTH("characters/Wolf.glb");
  for (const char* name : {"FrontShoulder.L", "FrontUpperLeg.L", "FrontLowerLeg.L", "FrontUpperLeg.R", "Back"})
    EXPECT_EQ(role_at(unnamed, name, named), role_at(named, name, named)) << name;
  EXPECT_EQ(role_at(unnamed, "FrontUpperLeg.R", named), "right thigh");
}

}  // namespace
}  // namespace rig
