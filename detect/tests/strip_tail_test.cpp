#include "detect/rewrite/strip_tail.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace detect {
namespace {

TEST(StripTail, DefaultRegexMatchesWholeTokens) {
  for (const char* yes : {"Tail", "Tail1", "b_Tail01_012", "Tail_3", "tail", "mixamorig:Tail",
                          "Tail_End", "DEF-tail.001"}) {
    EXPECT_TRUE(matches_tail_name(yes, kDefaultTailRegex)) << yes;
  }
  for (const char* no : {"Retail", "Hips", "TailorBone", "Cocktail2"}) {
    EXPECT_FALSE(matches_tail_name(no, kDefaultTailRegex)) << no;
  }
}

TEST(StripTail, GivesTailWeightToNearestBodyBones) {
  using rig::BodyPart;
  using rig::Side;
  rig::Character c;
  c.skeleton = detect_test::make_skeleton(
      {"Hips", "LeftUpLeg", "RightUpLeg", "Tail1", "Tail2"}, {-1, 0, 0, 0, 3},
      {{0, 1, 0}, {0.1, 0.95, 0}, {-0.1, 0.95, 0}, {0, 0.95, -0.1}, {0, 0.8, -0.3}},
      {{BodyPart::kHips}, {BodyPart::kThigh, Side::kLeft}, {BodyPart::kThigh, Side::kRight}, {}, {}});
  c.mesh.positions = {{0, 1.1, 0}, {0.02, 0.9, -0.2}, {0, 0.8, -0.35}};
  c.mesh.triangles = {{0, 1, 2}};
  c.skin.influences = {{{0, 1.0}}, {{3, 0.5}, {0, 0.5}}, {{4, 1.0}}};
  rig::Character out;
  StripTailResult res;
  ASSERT_TRUE(strip_tail(c, {}, out, &res).ok());
  EXPECT_EQ(res.removed, (std::vector<int>{3, 4}));
  EXPECT_EQ(res.vertices_changed, 2);
  EXPECT_EQ(out.skeleton.names, (std::vector<std::string>{"Hips", "LeftUpLeg", "RightUpLeg"}));
  EXPECT_EQ(out.skin.influences[0][0].joint, 0);
  for (int v = 0; v < 3; ++v) {
    double sum = 0.0;
    for (const auto& i : out.skin.influences[v]) {
      EXPECT_GE(i.joint, 0);
      EXPECT_LT(i.joint, 3);
      EXPECT_GE(i.weight, 0.0);
      sum += i.weight;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  // Kept joints: same skeleton, the tail joints carry no weight.
  StripTailParams keep;
  keep.remove_joints = false;
  rig::Character kept;
  ASSERT_TRUE(strip_tail(c, keep, kept).ok());
  EXPECT_EQ(kept.skeleton.size(), 5);
  for (const auto& list : kept.skin.influences)
    for (const auto& i : list) EXPECT_TRUE(i.joint < 3) << i.joint;
  rig::Character bad;
  EXPECT_FALSE(strip_tail(c, {"^Wing$"}, bad).ok());
  EXPECT_FALSE(strip_tail(c, {"(unclosed"}, bad).ok());
}

}  // namespace
}  // namespace detect
