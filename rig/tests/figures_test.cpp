// Characters in one file: a rider and its horse are two figures; a body and
// the IK targets its skin reaches under another root, or a prop on its own
// skeleton, are one.
#include <gtest/gtest.h>

#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/anatomy/figures.h"
#include "test_skeleton.h"

namespace rig {
namespace {

// `joints` with one vertex on each joint (full weight), vertices of joint
// j in primitive primitive_of[j] (triangles need not exist for figures).
Character skinned(const std::vector<test::JointSpec>& joints, const std::vector<int>& primitive_of) {
  Character c;
  c.skeleton = test::make_skeleton(joints);
  int primitives = 0;
  for (int p : primitive_of) primitives = std::max(primitives, p + 1);
  c.mesh.primitives.resize(static_cast<size_t>(primitives));
  for (size_t j = 0; j < joints.size(); ++j) {
    c.mesh.positions.push_back(joints[j].position);
    c.mesh.source_primitive.push_back(primitive_of[j]);
    c.mesh.source_index.push_back(static_cast<int>(j));
    c.skin.influences.push_back({{static_cast<int>(j), 1.0}});
  }
  return c;
}

// Roles by hand: thighs where the name says UpLeg (what a figure needs).
std::vector<Role> thighs_by_name(const Skeleton& sk) {
  std::vector<Role> roles(static_cast<size_t>(sk.size()));
  for (int j = 0; j < sk.size(); ++j)
    if (sk.names[j].find("UpLeg") != std::string::npos) roles[j].part = BodyPart::kThigh;
  return roles;
}

std::vector<test::JointSpec> two_bipeds() {
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  const int n = static_cast<int>(joints.size());
  for (int i = 0; i < n; ++i) {
    test::JointSpec j = joints[i];
    j.name = "rider:" + j.name;
    if (j.parent >= 0) j.parent += n;
    j.position.x() += 2.0;
    joints.push_back(j);
  }
  return joints;
}

TEST(Figures, TwoCharactersOnSeparateSkeletonsAreTwo) {
  const std::vector<test::JointSpec> joints = two_bipeds();
  std::vector<int> primitive(joints.size(), 0);
  for (size_t j = joints.size() / 2; j < joints.size(); ++j) primitive[j] = 1;
  const Character c = skinned(joints, primitive);
  const std::vector<Figure> f = skinned_figures(c, thighs_by_name(c.skeleton));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].roots, std::vector<int>{0});
  EXPECT_EQ(f[1].roots, std::vector<int>{9});
  EXPECT_EQ(f[0].vertices, 9);
  EXPECT_EQ(f[1].vertices, 9);
  EXPECT_EQ(several_figures_reason(c.skeleton, f),
            "2 characters on separate skeletons (rooted at 'mixamorig:Hips', 'rider:mixamorig:Hips')");
}

TEST(Figures, TreesOnePrimitiveReachesAreOneCharacter) {
  // The same two trees, but one primitive's skin spans both (a body whose
  // feet hang under another root, like IK targets).
  const std::vector<test::JointSpec> joints = two_bipeds();
  const Character c = skinned(joints, std::vector<int>(joints.size(), 0));
  const std::vector<Figure> f = skinned_figures(c, thighs_by_name(c.skeleton));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].roots, (std::vector<int>{0, 9}));
  EXPECT_EQ(f[0].vertices, 18);
  EXPECT_TRUE(several_figures_reason(c.skeleton, f).empty());
}

TEST(Figures, APropOnItsOwnSkeletonIsNoCharacter) {
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  joints.push_back({"Sword", -1, {0.5, 1.0, 0.3}});
  std::vector<int> primitive(joints.size(), 0);
  primitive.back() = 1;
  const Character c = skinned(joints, primitive);
  const std::vector<Figure> f = skinned_figures(c, thighs_by_name(c.skeleton));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].roots, std::vector<int>{0});
}

TEST(Figures, BadIndicesAndNoSkinAreSafe) {
  EXPECT_TRUE(skinned_figures(Character{}, {}).empty());
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  Character c = skinned(joints, std::vector<int>(joints.size(), 0));
  c.skin.influences[0] = {{-3, 1.0}, {999, 0.5}};  // out of range: skipped
  c.mesh.source_primitive[1] = 42;                 // no such primitive
  const std::vector<Figure> f = skinned_figures(c, thighs_by_name(c.skeleton));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].vertices, 8);
  EXPECT_TRUE(skinned_figures(c, {}).empty());  // no roles: no leg, no character
}

TEST(Figures, RetargetOntoTwoCharactersIsRefused) {
  const std::vector<test::JointSpec> joints = two_bipeds();
  std::vector<int> primitive(joints.size(), 0);
  for (size_t j = joints.size() / 2; j < joints.size(); ++j) primitive[j] = 1;
  const Character two = skinned(joints, primitive);
  Character source;
  source.skeleton = test::mixamo_biped();
  Clip clip;
  clip.duration = 1.0;
  JointTracks hips;
  hips.joint = 0;
  hips.translation = {{0.0, 1.0}, {Vec3(0, 1.0, 0), Vec3(0, 1.0, 1.0)}};
  clip.tracks = {hips};
  const TransferResult r = transfer_clip(source, clip, calibrate(source.skeleton), two, calibrate(two.skeleton));
  EXPECT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message.find("the target holds 2 characters"), std::string::npos) << r.status.message;
  EXPECT_TRUE(r.clip.tracks.empty());
}

}  // namespace
}  // namespace rig
