#include "detect/geometry/segment_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

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
  const auto sk =
      detect_test::make_skeleton({"root", "Hips", "Spine", "Tail1", "Tail2"}, {-1, 0, 1, 1, 3},
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

// The pruned field (and, from 65 536 points, the candidate grid) is the full
// scan, bit for bit: every distance, and the lowest segment index among equal
// minima (duplicated segments make ties), over random points in coherent
// runs and odd values (NaN, inf, 1e200, points on a segment).
void expect_full_scan(int count, bool huge) {
  unsigned state = 7;
  auto unit = [&state] {
    return static_cast<double>((state = state * 1664525u + 1013904223u) >> 8) / (1 << 24);
  };
  std::vector<BoneSegment> segs;
  for (int i = 0; i < 40; ++i) {
    BoneSegment s;
    s.a = {unit() * 2 - 1, unit() * 2, unit() * 2 - 1};
    s.b = i % 7 == 0 ? s.a : rig::Vec3(s.a + rig::Vec3(unit() - 0.5, unit() - 0.5, unit() - 0.5));
    segs.push_back(s);
    if (i % 9 == 0) segs.push_back(s);  // an exact tie
  }
  std::vector<rig::Vec3> points;
  rig::Vec3 walk(0, 1, 0);
  for (int i = 0; i < count; ++i) {
    walk += 0.05 * rig::Vec3(unit() - 0.5, unit() - 0.5, unit() - 0.5);
    points.push_back(i % 50 == 0 ? rig::Vec3(unit() * 4 - 2, unit() * 4 - 2, unit() * 4 - 2)
                                 : walk);
  }
  const double inf = std::numeric_limits<double>::infinity();
  points.push_back({std::nan(""), 0, 0});
  points.push_back({inf, 0, 0});
  if (huge)
    points.push_back({1e200, -1e200, 3});  // an extent the grid refuses: the pruned scan serves
  points.push_back(segs[0].a);
  std::vector<int> nearest;
  const std::vector<double> field = distance_field(points, segs, &nearest);
  ASSERT_EQ(field.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    double best = inf;
    int best_s = -1;
    for (size_t s = 0; s < segs.size(); ++s) {
      const double d = segment_distance(points[i], segs[s].a, segs[s].b);
      if (d < best) {
        best = d;
        best_s = static_cast<int>(s);
      }
    }
    ASSERT_EQ(std::memcmp(&field[i], &best, sizeof best), 0) << "point " << i << " of " << count;
    ASSERT_EQ(nearest[i], best_s) << "point " << i << " of " << count;
  }
}

TEST(DistanceField, PrunedScanEqualsTheFullScanBitForBit) { expect_full_scan(5000, true); }

TEST(DistanceField, CandidateGridEqualsTheFullScanBitForBit) {
  expect_full_scan(80000, false);
  expect_full_scan(80000, true);
}

}  // namespace
}  // namespace detect
