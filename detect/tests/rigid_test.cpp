#include "detect/rewrite/rigid.h"

#include <gtest/gtest.h>

#include <cmath>

#include "detect/geometry/bone_distance.h"
#include "test_util.h"

namespace detect {
namespace {

rig::Character two_bone() {
  rig::Character c;
  c.skeleton = detect_test::make_skeleton({"Hips", "LeftUpLeg", "LeftLeg"}, {-1, 0, 1},
                                          {{0, 1, 0}, {0.1, 1, 0}, {0.1, 0.5, 0}});
  c.mesh.positions = {{0, 1.2, 0}, {0.2, 0.7, 0}, {0, 0.8, -0.3}};
  c.skin.influences = {{{0, 1.0}}, {{1, 0.25}, {2, 0.75}}, {{1, 0.5}, {2, 0.5}}};
  return c;
}

TEST(Rigid, OnlyListedVerticesChange) {
  const auto c = two_bone();
  const auto out = make_rigid(c, {2}, 0);
  ASSERT_EQ(out.skin.influences[2].size(), 1u);
  EXPECT_EQ(out.skin.influences[2][0].joint, 0);
  EXPECT_EQ(out.skin.influences[2][0].weight, 1.0);
  EXPECT_EQ(out.skin.influences[1][0].weight, 0.25);
  EXPECT_EQ(c.skin.influences[2].size(), 2u);
}

TEST(BoneDistance, WeightedAverage) {
  const auto c = two_bone();
  const auto bones = bones_by_joint(c.skeleton);
  // Vertex 2 (0,0.8,-0.3): thigh bone (0.1,1,0)-(0.1,0.5,0) distance
  // sqrt(0.01+0.09); LeftLeg is an end joint: extension to (0.1,0.25,0),
  // nearest at its start, sqrt(0.01+0.09+0.09).
  const double d_bone = 0.5 * std::sqrt(0.1) + 0.5 * std::sqrt(0.19);
  EXPECT_NEAR(weighted_bone_distance(c.mesh.positions[2], c.skin.influences[2], bones),
              d_bone, 1e-12);
  // Hips' bone: Hips -> LeftUpLeg.
  EXPECT_NEAR(weighted_bone_distance({0, 1.2, 0}, {{0, 1.0}}, bones), 0.2, 1e-12);
  EXPECT_NEAR(mean_bone_distance(c, {0, 2}), 0.5 * (0.2 + d_bone), 1e-12);
}

}  // namespace
}  // namespace detect
