#include "detect/segment_distance.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace detect {
namespace {

TEST(SegmentDistance, InteriorProjection) {
  EXPECT_DOUBLE_EQ(segment_distance({1, 2, 0}, {0, 0, 0}, {4, 0, 0}), 2.0);
}

TEST(SegmentDistance, ClampsBeforeStart) {
  EXPECT_DOUBLE_EQ(segment_distance({-3, 4, 0}, {0, 0, 0}, {4, 0, 0}), 5.0);
}

TEST(SegmentDistance, ClampsPastEnd) {
  EXPECT_DOUBLE_EQ(segment_distance({7, 0, 4}, {0, 0, 0}, {4, 0, 0}), 5.0);
}

TEST(SegmentDistance, DegenerateSegmentIsAPoint) {
  EXPECT_DOUBLE_EQ(segment_distance({0, 3, 4}, {0, 0, 0}, {0, 0, 0}), 5.0);
}

// Hips(0,1,0) -> Spine(0,2,0) -> Head(0,3,0): Head is an end joint and gets
// an extension of half the incoming bone, to (0,3.5,0).
TEST(SkeletonSegments, EndJointExtension) {
  const auto sk = detect_test::make_skeleton({"Hips", "Spine", "Head"}, {-1, 0, 1},
                                             {{0, 1, 0}, {0, 2, 0}, {0, 3, 0}});
  const auto segs = skeleton_segments(sk, {1, 1, 1}, 0.5);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_TRUE(segs[2].extension);
  EXPECT_EQ(segs[2].joint, 2);
  EXPECT_TRUE(segs[2].b.isApprox(rig::Vec3(0, 3.5, 0)));
  const auto d = distance_field({{0, 3.5, 0}, {0, 4, 0}, {1, 1.5, 0}}, segs);
  EXPECT_DOUBLE_EQ(d[0], 0.0);
  EXPECT_DOUBLE_EQ(d[1], 0.5);
  EXPECT_DOUBLE_EQ(d[2], 1.0);
}

// Non-deforming helpers (root at the floor, weightless tail) are not bones.
TEST(SkeletonSegments, SkipsNonDeformingChains) {
  const auto sk = detect_test::make_skeleton(
      {"root", "Hips", "Spine", "Tail1", "Tail2"}, {-1, 0, 1, 1, 3},
      {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 1, -1}, {0, 1, -2}});
  rig::Skin skin;
  skin.influences = {{{1, 1.0}}, {{2, 1.0}}};
  const auto deforming = deforming_joints(skin, sk.size());
  EXPECT_EQ(deforming, (std::vector<char>{0, 1, 1, 0, 0}));
  const auto segs = skeleton_segments(sk, deforming, 0.5);
  // Hips->Spine, Spine extension; Hips->Tail1 is skipped (Tail1 has a child
  // and carries no weight), root->Hips is skipped (root carries no weight).
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[0].joint, 1);
  EXPECT_EQ(segs[1].joint, 2);
  EXPECT_TRUE(segs[1].extension);
  const auto d = distance_field({{0, 1, -2}}, segs);
  EXPECT_DOUBLE_EQ(d[0], 2.0);
}

TEST(SkeletonSegments, NoWeightsMeansAllDeform) {
  rig::Skin skin;
  EXPECT_EQ(deforming_joints(skin, 3), (std::vector<char>{1, 1, 1}));
}

}  // namespace
}  // namespace detect
