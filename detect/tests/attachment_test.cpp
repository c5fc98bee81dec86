#include "detect/attachment.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace detect {
namespace {

TEST(Attachment, RingIsNonFarNeighbours) {
  // Strip 0..4 bottom, 5..9 top; far = columns 3, 4.
  std::vector<std::array<int, 3>> t;
  for (int i = 0; i < 4; ++i) {
    t.push_back({i, i + 1, i + 6});
    t.push_back({i, i + 6, i + 5});
  }
  const Graph g = build_graph(10, t);
  std::vector<char> far(10, 0);
  far[3] = far[4] = far[8] = far[9] = 1;
  EXPECT_EQ(attachment_ring(g, {3, 4, 8, 9}, far), (std::vector<int>{2, 7}));
}

using rig::BodyPart;

rig::Skeleton pelvis() {
  // Hips at origin, thighs ±0.1 x, a "Prop" (no role) nearest to the point.
  return detect_test::make_skeleton(
      {"Hips", "LeftUpLeg", "RightUpLeg", "Prop", "Spine"}, {-1, 0, 0, 0, 0},
      {{0, 0, 0}, {0.1, -0.05, 0}, {-0.1, -0.05, 0}, {0, -0.05, -0.12}, {0, 0.2, 0}},
      {{BodyPart::kHips}, {BodyPart::kThigh}, {BodyPart::kThigh}, {}, {BodyPart::kSpine}});
}

TEST(Attachment, TrunkOrThighWithinPreferenceWins) {
  const auto sk = pelvis();
  // Point (0,-0.05,-0.2): Prop at 0.08, Hips at ~0.206, thighs at ~0.224.
  const auto with = choose_attachment_joint(sk, {0, -0.05, -0.2}, {}, 3.0);
  EXPECT_EQ(with.nearest, 3);
  EXPECT_EQ(with.joint, 0);
  const auto without = choose_attachment_joint(sk, {0, -0.05, -0.2}, {}, 1.5);
  EXPECT_EQ(without.joint, 3);
}

TEST(Attachment, PrefersNearestTrunkJoint) {
  const auto sk = pelvis();
  // Between hips and the left thigh, slightly nearer the thigh.
  const auto a = choose_attachment_joint(sk, {0.06, -0.03, -0.05});
  EXPECT_EQ(a.joint, 1);
  // Candidates mask: Prop excluded.
  const auto b = choose_attachment_joint(sk, {0, -0.05, -0.2}, {1, 1, 1, 0, 1}, 1.0);
  EXPECT_EQ(b.joint, 0);
}

}  // namespace
}  // namespace detect
