// Issue 45 class 1: a tail that curls up over the back, its tip resting on
// it (curled_tail.h), and the haunch skin a split-off core lets in
// (haunch_skin.h). Tiny exact cases.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "detect/curled_tail.h"
#include "detect/haunch_skin.h"

namespace detect {
namespace {

// A strip of n columns: top row 0..n-1 at (i, 0, 0), bottom row n..2n-1 at (i, 1, 0).
struct Strip {
  Graph graph;
  std::vector<rig::Vec3> positions;
};
Strip strip(int n = 10) {
  std::vector<std::array<int, 3>> t;
  for (int i = 0; i + 1 < n; ++i) {
    t.push_back({i, i + 1, i + n + 1});
    t.push_back({i, i + n + 1, i + n});
  }
  Strip s{build_graph(2 * n, t), {}};
  for (int i = 0; i < 2 * n; ++i) s.positions.emplace_back(i % n, i / n, 0.0);
  return s;
}

TEST(CurledTail, ARingPieceAtTheFarEndIsWhereTheTipRests) {
  const Strip s = strip();
  const std::vector<int> region = {2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17};
  // The base: column 1 (both rows, one piece), nearest the hips at x = 0;
  // the tip rests on vertex 8.
  EXPECT_EQ(ring_without_resting_tip(s.graph, s.positions, region, {1, 8, 11}, {0, 0.5, 0}), (std::vector<int>{1, 11}));
  // One piece: the ring as given.
  EXPECT_EQ(ring_without_resting_tip(s.graph, s.positions, region, {1, 11}, {0, 0.5, 0}), (std::vector<int>{1, 11}));
}

TEST(CurledTail, APieceNearTheBaseStays) {
  const Strip s = strip(20);
  // Columns 3..17; the base {2}, nearest the hips; vertex 21 (column 1, bottom), not joined
  // to it by a ring edge, lies 2 from it along the region, within a quarter
  // of the region's span (15.4): a base the mesh broke in two. Vertex 18
  // lies at the far end: where the tip rests.
  std::vector<int> region;
  for (int c = 3; c <= 17; ++c) region.push_back(c);
  for (int c = 22; c <= 37; ++c) region.push_back(c);
  EXPECT_EQ(ring_without_resting_tip(s.graph, s.positions, region, {2, 18, 21}, {0, 0, 0}), (std::vector<int>{2, 21}));
}

// Skin points along a path in the sagittal plane (y up, back = -z), g its
// arc length from the base.
void along(const std::vector<rig::Vec3>& path, std::vector<rig::Vec3>& pts, std::vector<double>& g) {
  double arc = 0.0;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) arc += (path[i] - path[i - 1]).norm();
    pts.push_back(path[i]);
    g.push_back(arc);
  }
}

TEST(CurledTail, TheChainEndsWhereACurlOverTheBackTurns) {
  const rig::Vec3 back(0, 0, -1);
  // Back 1 along -z, then a half circle of radius 0.5 up and over, then
  // forward past the base to z = +0.5: its tip lies forward of its base.
  std::vector<rig::Vec3> path;
  for (int i = 0; i <= 20; ++i) path.emplace_back(0, 0, -0.05 * i);
  for (int i = 1; i <= 20; ++i) {
    const double a = M_PI * i / 20;
    path.emplace_back(0, 0.5 - 0.5 * std::cos(a), -1.0 - 0.5 * std::sin(a));
  }
  for (int i = 1; i <= 30; ++i) path.emplace_back(0, 1.0, -1.0 + 0.05 * i);
  std::vector<rig::Vec3> pts;
  std::vector<double> g;
  along(path, pts, g);
  const double L = g.back();
  const double turn = curl_turn_length(pts, g, back, L);
  // The rearmost slice lies at the top of the half circle's back (arc 1 + pi/4).
  EXPECT_LT(turn, 0.6 * L);
  EXPECT_NEAR(turn, 1.0 + 0.25 * M_PI, 0.35);
  // A straight tail, and one that curls up but keeps its tip behind its
  // base: the whole length.
  std::vector<rig::Vec3> straight_pts, up_pts;
  std::vector<double> straight_g, up_g;
  std::vector<rig::Vec3> straight, up;
  for (int i = 0; i <= 40; ++i) straight.emplace_back(0, 0, -0.05 * i);
  for (int i = 0; i <= 20; ++i) up.emplace_back(0, 0, -0.05 * i);
  for (int i = 1; i <= 20; ++i) up.emplace_back(0, 0.05 * i, -1.0 + 0.02 * i);
  along(straight, straight_pts, straight_g);
  along(up, up_pts, up_g);
  EXPECT_EQ(curl_turn_length(straight_pts, straight_g, back, straight_g.back()), straight_g.back());
  EXPECT_EQ(curl_turn_length(up_pts, up_g, back, up_g.back()), up_g.back());
}

TEST(HaunchSkin, SkinNearerALegThanTheChainIsTheLegs) {
  // The chain along -z at x = 0; a thigh along -z at x = 1.
  const std::vector<rig::Vec3> joints = {{0, 0, 0}, {0, 0, -1}, {0, 0, -2}};
  const std::vector<BoneSegment> legs = {{{1, 0, 0}, {1, 0, -2}, 0, false}};
  const std::vector<rig::Vec3> positions = {{0.1, 0, -1}, {0.9, 0, -1}, {0.55, 0, -1}, {0.6, 0, -1}};
  // 0.55 from the chain, 0.45 from the leg: within the margin 4/3, a tie stays tail.
  EXPECT_EQ(without_haunch_skin(positions, {0, 1, 2, 3}, joints, legs, 4.0 / 3.0), (std::vector<int>{0, 2}));
  EXPECT_EQ(without_haunch_skin(positions, {0, 1, 2, 3}, joints, legs, 1.0), (std::vector<int>{0}));
  EXPECT_EQ(without_haunch_skin(positions, {0, 1}, joints, {}, 1.0), (std::vector<int>{0, 1}));
}

TEST(HaunchSkin, SeamSkinNearerALegThanTheChainGoesBackToTheLeg) {
  // The chain along -z at x = 0; a thigh along -z at x = 1; the seam band
  // ends 1 along the chain.
  const std::vector<rig::Vec3> joints = {{0, 0, 0}, {0, 0, -1}, {0, 0, -2}};
  const std::vector<BoneSegment> legs = {{{1, 0, 0}, {1, 0, -2}, 0, false}};
  const HaunchSeam seam{1.0, 1.2, 1.0};
  EXPECT_EQ(seam_chain_share({0.4, 0, -0.5}, joints, legs, seam), 1.0);   // nearer the chain
  EXPECT_EQ(seam_chain_share({0.5, 0, -0.5}, joints, legs, seam), 1.0);   // a tie stays the tail's
  EXPECT_NEAR(seam_chain_share({0.52, 0, -0.5}, joints, legs, seam), 1.0 - (0.52 / 0.48 - 1.0) / 0.2, 1e-12);
  EXPECT_EQ(seam_chain_share({0.6, 0, -0.5}, joints, legs, seam), 0.0);   // 1.5 x: the leg's
  EXPECT_EQ(seam_chain_share({0.6, 0, -1.5}, joints, legs, seam), 1.0);   // past the seam band
  EXPECT_EQ(seam_chain_share({0.6, 0, -0.5}, joints, {}, seam), 1.0);     // no legs: the tail's
}

TEST(HaunchSkin, SharedSeamSkinKeepsTheRiggedWeightsForTheRest) {
  rig::Character c;
  const std::vector<rig::Influence> chain = {{5, 0.75}, {6, 0.25}};
  c.skin.influences = {chain, chain, chain};
  const std::vector<std::vector<rig::Influence>> before = {{{1, 1.0}}, {{1, 0.5}, {5, 0.5}}, {{2, 0.3}, {3, 0.7}}};
  EXPECT_EQ(share_seam_with_body(c, {0, 1, 2}, {1.0, 0.5, 0.0}, before), 2);
  EXPECT_EQ(c.skin.influences[0].size(), 2u);  // share 1: the chain's, untouched
  EXPECT_EQ(c.skin.influences[0][0].weight, 0.75);
  // Half the chain's, half the rigged weights; a joint in both is merged.
  const std::vector<rig::Influence>& mixed = c.skin.influences[1];
  ASSERT_EQ(mixed.size(), 3u);
  EXPECT_EQ(mixed[0].joint, 5);
  EXPECT_NEAR(mixed[0].weight, 0.375 + 0.25, 1e-15);
  EXPECT_EQ(mixed[1].joint, 6);
  EXPECT_NEAR(mixed[1].weight, 0.125, 1e-15);
  EXPECT_EQ(mixed[2].joint, 1);
  EXPECT_NEAR(mixed[2].weight, 0.25, 1e-15);
  // Share 0: the weights as rigged, bit for bit.
  ASSERT_EQ(c.skin.influences[2].size(), 2u);
  EXPECT_EQ(c.skin.influences[2][0].joint, 2);
  EXPECT_EQ(c.skin.influences[2][0].weight, 0.3);
  EXPECT_EQ(c.skin.influences[2][1].weight, 0.7);
}

}  // namespace
}  // namespace detect
