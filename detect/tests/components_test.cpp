#include "detect/geometry/components.h"

#include <gtest/gtest.h>

namespace detect {
namespace {

// A quad strip of 4 quads along x: vertices 0..4 bottom, 5..9 top.
std::vector<std::array<int, 3>> strip_triangles() {
  std::vector<std::array<int, 3>> t;
  for (int i = 0; i < 4; ++i) {
    t.push_back({i, i + 1, i + 6});
    t.push_back({i, i + 6, i + 5});
  }
  return t;
}

TEST(Components, SplitQuadStrip) {
  const Graph g = build_graph(10, strip_triangles());
  // Mask out the middle column (2, 7): two components {0,1,5,6} and {3,4,8,9}.
  std::vector<char> mask(10, 1);
  mask[2] = mask[7] = 0;
  std::vector<int> labels;
  EXPECT_EQ(connected_components(g, mask, labels), 2);
  EXPECT_EQ(labels, (std::vector<int>{0, 0, -1, 1, 1, 0, 0, -1, 1, 1}));
}

TEST(Components, WholeStripIsOne) {
  const Graph g = build_graph(10, strip_triangles());
  std::vector<int> labels;
  EXPECT_EQ(connected_components(g, std::vector<char>(10, 1), labels), 1);
}

TEST(Components, SeamSplitStripJoinsAfterWelding) {
  // The same strip with the middle column duplicated (a UV seam): vertices
  // 10, 11 copy 2, 7 for the right half. Unwelded it falls apart in two.
  auto t = strip_triangles();
  for (auto& tri : t) {
    const bool right = tri[0] >= 2 && tri[0] != 5 && tri[0] != 6;
    if (!right) continue;
    for (int& v : tri) {
      if (v == 2) v = 10;
      if (v == 7) v = 11;
    }
  }
  std::vector<int> labels;
  EXPECT_EQ(connected_components(build_graph(12, t), std::vector<char>(12, 1), labels), 2);
  // Welded (10 -> 2, 11 -> 7) it is one piece again.
  for (auto& tri : t) {
    for (int& v : tri) {
      if (v == 10) v = 2;
      if (v == 11) v = 7;
    }
  }
  std::vector<char> mask(12, 1);
  mask[10] = mask[11] = 0;
  EXPECT_EQ(connected_components(build_graph(12, t), mask, labels), 1);
}

// component_of gives each seed exactly its connected_components label set,
// on a random mask over a random mesh (several components, isolated vertices).
TEST(Components, ComponentOfMatchesTheLabels) {
  const int n = 400;
  std::vector<std::array<int, 3>> t;
  unsigned state = 12345;
  auto next = [&state] { return (state = state * 1103515245u + 12345u) >> 8; };
  for (int i = 0; i < 300; ++i) {
    const int a = static_cast<int>(next() % n);
    t.push_back({a, static_cast<int>((a + 1 + next() % 7) % n),
                 static_cast<int>((a + 2 + next() % 9) % n)});
  }
  const Graph g = build_graph(n, t);
  std::vector<char> mask(n);
  for (int v = 0; v < n; ++v) mask[v] = next() % 3 != 0;
  std::vector<int> labels;
  const int count = connected_components(g, mask, labels);
  ASSERT_GT(count, 5);
  // Labels: masked edges join, ids count up in order of smallest vertex.
  int seen = 0;
  for (int v = 0; v < n; ++v) {
    ASSERT_EQ(labels[v] < 0, !mask[v]);
    if (labels[v] == seen) ++seen;
    ASSERT_LT(labels[v], seen) << v;
    for (int u : g.neighbors_of(v)) {
      if (mask[v] && mask[u]) {
        ASSERT_EQ(labels[u], labels[v]);
      }
    }
  }
  EXPECT_EQ(seen, count);
  std::vector<char> member;
  for (int seed = 0; seed < n; ++seed) {
    const int size = component_of(g, mask, seed, member);
    ASSERT_EQ(member.size(), static_cast<size_t>(n));
    int expected = 0;
    for (int v = 0; v < n; ++v) {
      const bool same = mask[seed] && labels[v] == labels[seed];
      expected += same;
      ASSERT_EQ(member[v] != 0, same) << "seed " << seed << " vertex " << v;
    }
    EXPECT_EQ(size, expected);
  }
}

TEST(Graph, EdgeLengthsAndNeighbours) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {3, 0, 0}, {0, 4, 0}};
  const Graph g = build_graph(3, {{0, 1, 2}});
  ASSERT_EQ(g.neighbors_of(1).size(), 2u);
  EXPECT_EQ(g.neighbors_of(1)[0], 0);
  EXPECT_EQ(g.neighbors_of(1)[1], 2);
  EXPECT_DOUBLE_EQ(edge_length(p, 1, g.neighbors_of(1)[1]), 5.0);
}

}  // namespace
}  // namespace detect
