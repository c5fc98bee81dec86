#include "detect/tail_root.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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
    g.lengths.insert(g.lengths.end(), list.size(), 1.0);
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
  const RootSkin s = tail_root_skin(g, p, {0}, {0}, allowed, joints, body, 2.0, 0.75, 0.4, 1.25);
  EXPECT_NEAR(s.ring_radius, 0.3, 1e-12);
  ASSERT_EQ(s.welded, (std::vector<int>{1, 2}));
  EXPECT_NEAR(s.g[0], 1.0, 1e-12);
  EXPECT_NEAR(s.g[1], 0.8, 1e-12);
  // With the root-ward margin past the ring too, 4 (0.3 from the chain,
  // 0.5 from the body bone) joins.
  const RootSkin loose = tail_root_skin(g, p, {0}, {0}, allowed, joints, body, 2.0, 0.75, 0.75, 1.25);
  EXPECT_EQ(loose.welded, (std::vector<int>{1, 2, 4}));
  // No ring, no body or a zero radius: nothing.
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {}, allowed, joints, body, 2.0, 0.75, 0.4, 1.25).welded.empty());
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, joints, {}, 2.0, 0.75, 0.4, 1.25).welded.empty());
  EXPECT_TRUE(tail_root_skin(g, p, {0}, {0}, allowed, joints, body, 2.0, 0.75, 0.4, 0.0).welded.empty());
}

}  // namespace
}  // namespace detect
