#include "detect/tail_root.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "test_util.h"

namespace detect {
namespace {

Graph graph_of(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int>> adj(n);
  for (const auto& [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  Graph g;
  g.offsets.push_back(0);
  for (const auto& list : adj) {
    g.neighbors.insert(g.neighbors.end(), list.begin(), list.end());
    g.offsets.push_back(static_cast<int>(g.neighbors.size()));
  }
  return g;
}

TEST(TailRoot, PolylineDistanceAndArc) {
  const std::vector<rig::Vec3> j = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}};
  double arc = -1;
  EXPECT_DOUBLE_EQ(polyline_distance(j, {1, 0.5, 0}, &arc), 0.5);
  EXPECT_DOUBLE_EQ(arc, 1.0);
  EXPECT_DOUBLE_EQ(polyline_distance(j, {2.5, 1, 0}, &arc), 0.5);
  EXPECT_DOUBLE_EQ(arc, 3.0);
}

// A chain along +x from the root joint (0) through the cut ring (x = 2);
// the region is the ring vertex 0. Root-ward skin at the tail's radius joins
// (1, 2, through 1); skin thicker than the cut ring (3) does not, nor what
// only it leads to (6); past the ring the stricter margin keeps skin almost
// as near a body bone (4) out; a vertex that may not join (5) stays.
TEST(TailRoot, TakesTheBaseBelowTheCutOnly) {
  const std::vector<rig::Vec3> p = {{2, 0.3, 0}, {1, 0.3, 0}, {0.8, 0.33, 0}, {0.5, 1.0, 0},
                                    {3, 0.3, 0}, {1.5, 0.3, 0}, {0.5, 0.3, 0}};
  const Graph g = graph_of(7, {{0, 1}, {1, 2}, {1, 3}, {0, 4}, {0, 5}, {3, 6}});
  const std::vector<rig::Vec3> joints = {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}};
  const std::vector<BoneSegment> body = {{{3, -0.2, 0}, {5, -0.2, 0}, 0, false}};
  std::vector<char> allowed(7, 1);
  allowed[5] = 0;
  const RootSkin s = tail_root_skin(g, p, {0}, {0}, allowed, {}, joints, body, RootGrowth{2.0, 0.75, 0.4, 1.25});
  EXPECT_NEAR(s.ring_radius, 0.3, 1e-12);
  ASSERT_EQ(s.welded, (std::vector<int>{1, 2}));
  EXPECT_NEAR(s.g[0], 1.0, 1e-12);
  EXPECT_NEAR(s.g[1], 0.8, 1e-12);
  // With the root-ward margin past the ring too, 4 (0.3 from the chain,
  // 0.5 from the body bone) joins.
  const RootSkin loose = tail_root_skin(g, p, {0}, {0}, allowed, {}, joints, body, RootGrowth{2.0, 0.75, 0.75, 1.25});
  EXPECT_EQ(loose.welded, (std::vector<int>{1, 2, 4}));
  // No ring, no body or a zero radius: nothing.
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {}, allowed, {}, joints, body, RootGrowth{2.0, 0.75, 0.4, 1.25}).welded.empty());
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, {}, joints, {}, RootGrowth{2.0, 0.75, 0.4, 1.25}).welded.empty());
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, {}, joints, body, RootGrowth{2.0, 0.75, 0.4, 0.0}).welded.empty());
}

// The same chain, ring radius 0.3. Leg-driven skin on the root line twice
// the tail's radius from it (1) joins: nearer the chain than any body bone;
// trunk skin there (2) does not, nor leg skin past the ring (3), nor leg
// skin beyond leg_radius (4); with a body bone nearer than the chain (an
// IK rig's shin extension 0.2 away), 1 stays too.
TEST(TailRoot, TakesLegDrivenSkinOnTheRootLine) {
  const std::vector<rig::Vec3> p = {{2, 0.3, 0}, {1, 0.6, 0}, {1, -0.6, 0}, {3, 0.6, 0}, {1, -0.9, 0}};
  const Graph g = graph_of(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  const std::vector<rig::Vec3> joints = {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}};
  std::vector<BoneSegment> body = {{{-1, 2, 0}, {1, 2, 0}, 0, false}, {{3, 2, 0}, {5, 2, 0}, 1, false}};
  const std::vector<char> allowed(5, 1);
  const std::vector<char> leg_driven = {0, 1, 0, 1, 1};
  const RootGrowth growth{2.0, 0.75, 0.4, 1.25, 1.0, 2.5};
  EXPECT_EQ(tail_root_skin(g, p, {0}, {0}, allowed, leg_driven, joints, body, growth).welded,
            (std::vector<int>{1}));
  // Without the leg-driven marks, or with no leg radius: nothing.
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, {}, joints, body, growth).welded.empty());
  RootGrowth no_legs = growth;
  no_legs.leg_radius = 0.0;
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, leg_driven, joints, body, no_legs).welded.empty());
  body.push_back({{1, 0.8, 0}, {1, 0.9, 0}, 2, true});
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, leg_driven, joints, body, growth).welded.empty());
}

// An IK rig's leg: root(0) -> thigh(1) -> shin(2), the foot (3) under the
// root, a hand (4) at the end of an arm: the shin's end extension (along the
// thigh) becomes shin -> foot; the hand's stays.
TEST(TailRoot, ShinsRunToTheirDetachedFeet) {
  auto sk = detect_test::make_skeleton({"root", "thigh", "shin", "foot", "hand"}, {-1, 0, 1, 0, 0},
                                       {{0, 0, 0}, {0, 2, 0}, {0, 1, 0.5}, {0, 0, 0.2}, {1, 3, 0}});
  std::vector<rig::Role> roles(5);
  roles[1] = {rig::BodyPart::kThigh, rig::Side::kLeft, false};
  roles[2] = {rig::BodyPart::kShin, rig::Side::kLeft, false};
  roles[3] = {rig::BodyPart::kFoot, rig::Side::kLeft, false};
  roles[4] = {rig::BodyPart::kHand, rig::Side::kLeft, false};
  const std::vector<BoneSegment> segs = skeleton_segments(sk, {0, 1, 1, 1, 1}, 0.5);
  const std::vector<BoneSegment> out = shins_to_their_feet(sk, roles, segs);
  ASSERT_EQ(out.size(), segs.size());
  int shins = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].joint == 2) {
      ++shins;
      EXPECT_FALSE(out[i].extension);
      EXPECT_TRUE(out[i].a.isApprox(rig::Vec3(0, 1, 0.5)));
      EXPECT_TRUE(out[i].b.isApprox(rig::Vec3(0, 0, 0.2)));
    } else {
      EXPECT_EQ(out[i].extension, segs[i].extension);
      EXPECT_TRUE(out[i].b.isApprox(segs[i].b));
    }
  }
  EXPECT_EQ(shins, 1);
  // A front foot of the same side, nearer the knee, is no hind shin's foot,
  // nor is a foot hung below the shin itself.
  {
    auto sk2 = detect_test::make_skeleton({"root", "thigh", "shin", "foot", "front_foot", "toe_tip"},
                                          {-1, 0, 1, 0, 0, 2},
                                          {{0, 0, 0}, {0, 2, 0}, {0, 1, 0.5}, {0, 0, 0.2}, {0, 0.9, 0.6}, {0, 0.8, 0.5}});
    std::vector<rig::Role> r2(6);
    r2[1] = {rig::BodyPart::kThigh, rig::Side::kLeft, false};
    r2[2] = {rig::BodyPart::kShin, rig::Side::kLeft, false};
    r2[3] = {rig::BodyPart::kFoot, rig::Side::kLeft, false};
    r2[4] = {rig::BodyPart::kFoot, rig::Side::kLeft, true};
    r2[5] = {rig::BodyPart::kFoot, rig::Side::kLeft, false};  // below the shin: not detached
    std::vector<BoneSegment> with_end = skeleton_segments(sk2, {0, 1, 1, 1, 1, 1}, 0.5);
    with_end.push_back({rig::Vec3(0, 1, 0.5), rig::Vec3(0, 0.5, 0.25), 2, true});  // the shin's own extension
    int replaced = 0;
    for (const BoneSegment& s : shins_to_their_feet(sk2, r2, with_end)) {
      if (s.joint == 2 && !s.extension && s.b.isApprox(rig::Vec3(0, 0, 0.2))) ++replaced;
    }
    EXPECT_EQ(replaced, 1);
  }
  // A foot of the other side is no shin's foot: the extension stays.
  roles[3].side = rig::Side::kRight;
  for (const BoneSegment& s : shins_to_their_feet(sk, roles, segs)) {
    if (s.joint == 2) {
      EXPECT_TRUE(s.extension);
    }
  }
}

double weight_on(const std::vector<rig::Influence>& infl, int joint) {
  double w = 0.0;
  for (const auto& x : infl) w += x.joint == joint ? x.weight : 0.0;
  return w;
}

// 4 bones of length 1, ring 1.5 along the chain (past the first joint);
// parent joint 0, chain bones 5 and 6; vertex 4 is the body skin outside the
// ring, beside the root skin 0 and 1 (welded ids = vertex ids).
TEST(TailRoot, ParentHoldsTheRootSkinWithoutTakingIt) {
  rig::Character c;
  c.skeleton.names.assign(8, "j");
  c.skeleton.parents.assign(8, -1);
  c.skin.influences = {{{5, 1.0}}, {{5, 0.6}, {6, 0.4}}, {{6, 1.0}}, {{6, 1.0}}, {{0, 1.0}}};
  const auto before = c.skin.influences;
  Analysis a;
  a.welded.representative = {0, 1, 2, 3, 4};
  a.welded.weld_of = {0, 1, 2, 3, 4};
  a.region_of = {0, 0, 0, 0, -1};
  a.graph = graph_of(5, {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {1, 4}});
  Region r;
  r.id = 0;
  r.ring = {4};
  r.chain_parent = 0;
  r.bones = 4;
  r.length = 4.0;
  r.root_offset = 1.5;
  r.vertices = {0, 1, 2, 3};
  r.geodesic = {1.0, 1.5, 2.5, 4.0};
  hold_root_on_parent(c, a, r, Params{});  // band 2 segments
  const auto& w = c.skin.influences;
  EXPECT_NEAR(weight_on(w[0], 0), 0.495, 1e-12);  // half, capped below the chain's weight
  EXPECT_NEAR(weight_on(w[0], 5), 0.505, 1e-12);
  EXPECT_NEAR(weight_on(w[1], 0), 0.99 * 0.6 / 1.6, 1e-12);  // the chain's 0.6 stays the largest
  EXPECT_GT(weight_on(w[1], 5), weight_on(w[1], 0));
  EXPECT_NEAR(weight_on(w[2], 0), 0.25, 1e-12);  // half-way down the band
  EXPECT_EQ(w[3].size(), 1u);                     // past the band: untouched
  for (const auto& infl : w) {
    double sum = 0.0;
    if (&infl == &w[4]) continue;
    for (const auto& x : infl) sum += x.weight;
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  // Body skin at the seam on another bone (a rigger's thigh, joint 7): nothing held.
  c.skin.influences = before;
  c.skin.influences[4] = {{7, 1.0}};
  hold_root_on_parent(c, a, r, Params{});
  for (size_t v = 0; v < 4; ++v) EXPECT_EQ(c.skin.influences[v].size(), before[v].size());
  // A ring inside the first segment blends through the first bone: nothing held.
  c.skin.influences = before;
  r.root_offset = 0.5;
  r.geodesic = {0.2, 0.5, 1.5, 4.0};
  hold_root_on_parent(c, a, r, Params{});
  for (size_t v = 0; v < before.size(); ++v) EXPECT_EQ(c.skin.influences[v].size(), before[v].size());
}

}  // namespace
}  // namespace detect
