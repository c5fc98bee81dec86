#include <gtest/gtest.h>

#include "rig/model/model.h"
#include "rig/anatomy/roles.h"

namespace rig {
namespace {

std::string role(std::string_view name) { return role_name(role_from_name(name)); }

TEST(RoleFromName, Mixamo) {
  for (std::string prefix : {"mixamorig:", "mixamorig1:", "mixamorig_", ""}) {
    SCOPED_TRACE(prefix);
    EXPECT_EQ(role(prefix + "Hips"), "hips");
    EXPECT_EQ(role(prefix + "Spine1"), "spine");
    EXPECT_EQ(role(prefix + "Neck"), "neck");
    EXPECT_EQ(role(prefix + "Head"), "head");
    EXPECT_EQ(role(prefix + "LeftUpLeg"), "left thigh");
    EXPECT_EQ(role(prefix + "RightLeg"), "right shin");
    EXPECT_EQ(role(prefix + "LeftFoot"), "left foot");
    EXPECT_EQ(role(prefix + "RightToeBase"), "right toe");
    EXPECT_EQ(role(prefix + "LeftShoulder"), "left shoulder");
    EXPECT_EQ(role(prefix + "LeftArm"), "left upper_arm");
    EXPECT_EQ(role(prefix + "RightForeArm"), "right forearm");
    EXPECT_EQ(role(prefix + "RightHand"), "right hand");
    EXPECT_EQ(role(prefix + "LeftHandIndex1"), "none");
    EXPECT_EQ(role(prefix + "HeadTop_End"), "none");
  }
}

TEST(RoleFromName, HumanIkAndCmu) {
  EXPECT_EQ(role("Character1_Hips"), "hips");
  EXPECT_EQ(role("Character1_LeftUpLeg"), "left thigh");
  EXPECT_EQ(role("Character1_LeftLeg"), "left shin");
  EXPECT_EQ(role("Character1_RightForeArm"), "right forearm");
  EXPECT_EQ(role("Character1_Hips_RIGMESH"), "none");
  EXPECT_EQ(role("LHipJoint"), "none");  // CMU helper between hips and thigh
  EXPECT_EQ(role("LowerBack"), "spine");
  EXPECT_EQ(role("LThumb"), "none");
  EXPECT_EQ(role("LeftFingerBase"), "none");
}

TEST(RoleFromName, Unreal) {
  EXPECT_EQ(role("pelvis"), "hips");
  EXPECT_EQ(role("spine_03"), "spine");
  EXPECT_EQ(role("thigh_l"), "left thigh");
  EXPECT_EQ(role("calf_r"), "right shin");
  EXPECT_EQ(role("ball_l"), "left toe");
  EXPECT_EQ(role("clavicle_r"), "right shoulder");
  EXPECT_EQ(role("upperarm_l"), "left upper_arm");
  EXPECT_EQ(role("lowerarm_l"), "left forearm");
  EXPECT_EQ(role("thigh_twist_01_l"), "none");
}

TEST(RoleFromName, VrmAndRigify) {
  EXPECT_EQ(role("J_Bip_C_Hips"), "hips");
  EXPECT_EQ(role("J_Bip_L_UpperLeg"), "left thigh");
  EXPECT_EQ(role("J_Bip_R_LowerLeg"), "right shin");
  EXPECT_EQ(role("J_Bip_C_UpperChest"), "spine");
  EXPECT_EQ(role("J_Bip_L_LowerArm"), "left forearm");
  EXPECT_EQ(role("leftUpperLeg"), "left thigh");
  EXPECT_EQ(role("DEF-thigh.L"), "left thigh");
  EXPECT_EQ(role("DEF-shin.R"), "right shin");
  EXPECT_EQ(role("DEF-upper_arm.L"), "left upper_arm");
  EXPECT_EQ(role("DEF-forearm.R"), "right forearm");
  EXPECT_EQ(role("DEF-pelvis.L"), "none");  // a sided pelvis bone is not the hips
}

TEST(RoleFromName, CharacterCreatorDazSecondLifeAndMakeHuman) {
  EXPECT_EQ(role("CC_Base_Hip"), "hips");
  EXPECT_EQ(role("CC_Base_L_Thigh"), "left thigh");
  EXPECT_EQ(role("CC_Base_R_Calf"), "right shin");
  EXPECT_EQ(role("CC_Base_L_Upperarm"), "left upper_arm");
  EXPECT_EQ(role("lShldrBend"), "left upper_arm");  // Daz: lCollar is the clavicle
  EXPECT_EQ(role("lShldrTwist"), "none");
  EXPECT_EQ(role("lCollar"), "left shoulder");
  EXPECT_EQ(role("mPelvis"), "hips");
  EXPECT_EQ(role("mHipLeft"), "left thigh");
  EXPECT_EQ(role("mKneeRight"), "right shin");
  EXPECT_EQ(role("mAnkleLeft"), "left foot");
  EXPECT_EQ(role("upperleg01.L"), "left thigh");
  EXPECT_EQ(role("upperleg02.L"), "none");  // the thigh's second segment
  EXPECT_EQ(role("lowerleg01.R"), "right shin");
  EXPECT_EQ(role("m"), "none");
}

TEST(RoleFromName, QuaterniusAndFox) {
  EXPECT_EQ(role("UpperLeg.L"), "left thigh");
  EXPECT_EQ(role("LowerLeg.R"), "right shin");
  EXPECT_EQ(role("BackUpLeg.L"), "left thigh");
  EXPECT_EQ(role("BackLowLeg.R"), "right shin");
  EXPECT_EQ(role("Abdomen"), "spine");
  EXPECT_EQ(role("b_Hip_01"), "hips");
  EXPECT_EQ(role("b_LeftLeg01_015"), "left thigh");
  EXPECT_EQ(role("b_LeftLeg02_016"), "left shin");
  EXPECT_EQ(role("IKBackLeg.L"), "none");
}

TEST(RoleFromName, Traps) {
  EXPECT_EQ(role("mixamorig:LeftForeArm"), "left forearm");  // contains "ear", is no ear
  EXPECT_EQ(role("Ear1.L"), "none");
  EXPECT_EQ(role("Tail_1"), "none");
  EXPECT_EQ(role("b_Tail01_012"), "none");
  EXPECT_EQ(role("Heart"), "none");       // contains "ear", starts like "head"
  EXPECT_EQ(role("Shipshape"), "none");   // contains "hip"
  EXPECT_EQ(role("Leftover"), "none");    // starts with "Left"
  EXPECT_EQ(role("Armor"), "none");       // contains "arm"
  EXPECT_EQ(role("bone_7"), "none");
}

// A skeleton with meaningless names gets its roles from geometry.
TEST(AssignRoles, FallsBackToGeometry) {
  Skeleton sk;
  auto add = [&](int parent, Vec3 p) {
    sk.names.push_back("bone_" + std::to_string(sk.names.size()));
    sk.parents.push_back(parent);
    Mat4 m = Mat4::Identity();
    m.block<3, 1>(0, 3) = p;
    sk.bind_world.push_back(m);
  };
  add(-1, {0, 1.0, 0});       // 0 hips
  add(0, {0.1, 0.95, 0});     // 1 left thigh
  add(1, {0.1, 0.5, 0});      // 2 left shin
  add(2, {0.1, 0.08, 0});     // 3 left foot
  add(0, {-0.1, 0.95, 0});    // 4 right thigh
  add(4, {-0.1, 0.5, 0});     // 5
  add(5, {-0.1, 0.08, 0});    // 6
  add(0, {0, 1.2, 0});        // 7 spine
  add(7, {0, 1.4, 0});        // 8 spine
  add(8, {0, 1.55, 0});       // 9 neck
  add(9, {0, 1.7, 0});        // 10 head
  add(8, {0.15, 1.45, 0});    // 11 left shoulder
  add(11, {0.3, 1.45, 0});    // 12
  add(12, {0.55, 1.45, 0});   // 13
  add(13, {0.8, 1.45, 0});    // 14
  assign_roles(sk);
  EXPECT_EQ(role_name(sk.roles[0]), "hips");
  EXPECT_EQ(role_name(sk.roles[1]), "left thigh");
  EXPECT_EQ(role_name(sk.roles[2]), "left shin");
  EXPECT_EQ(role_name(sk.roles[5]), "right shin");
  EXPECT_EQ(role_name(sk.roles[7]), "spine");
  EXPECT_EQ(role_name(sk.roles[10]), "head");
  EXPECT_EQ(role_name(sk.roles[12]), "left upper_arm");
  EXPECT_EQ(role_name(sk.roles[14]), "left hand");
}

}  // namespace
}  // namespace rig
