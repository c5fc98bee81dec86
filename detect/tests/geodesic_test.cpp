#include "detect/geodesic.h"

#include <gtest/gtest.h>

#include <cmath>

namespace detect {
namespace {

// Square 0(0,0) 1(1,0) 2(1,1) 3(0,1), diagonal 0-2, plus 4 at (2,1)
// connected to 1 and 2.
TEST(Geodesic, KnownGraph) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 1, 0}};
  const Graph g = build_graph(5, {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}}, &p);
  const auto d = geodesic_distance(g, {0});
  EXPECT_DOUBLE_EQ(d[0], 0.0);
  EXPECT_DOUBLE_EQ(d[1], 1.0);
  EXPECT_DOUBLE_EQ(d[2], std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(d[3], 1.0);
  EXPECT_DOUBLE_EQ(d[4], 1.0 + std::sqrt(2.0));
}

TEST(Geodesic, AllowedMaskAndMultipleSources) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 1, 0}};
  const Graph g = build_graph(5, {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}}, &p);
  // Without vertex 1, 4 is reached through 2.
  auto d = geodesic_distance(g, {0}, {1, 0, 1, 1, 1});
  EXPECT_TRUE(std::isinf(d[1]));
  EXPECT_DOUBLE_EQ(d[4], std::sqrt(2.0) + 1.0);
  d = geodesic_distance(g, {0, 4});
  EXPECT_DOUBLE_EQ(d[2], 1.0);
}

// Lengths from the positions give the bits of a graph that stores them; a
// graph without lengths reaches only its sources.
TEST(Geodesic, FromPositionsEqualsStoredLengths) {
  std::vector<rig::Vec3> p;
  std::vector<std::array<int, 3>> t;
  for (int i = 0; i < 30; ++i) {
    for (int j = 0; j < 30; ++j)
      p.push_back({0.1 * i + 0.013 * std::sin(j), 0.1 * j, 0.05 * std::cos(i * j)});
  }
  for (int i = 0; i + 1 < 30; ++i) {
    for (int j = 0; j + 1 < 30; ++j) {
      t.push_back({i * 30 + j, (i + 1) * 30 + j, i * 30 + j + 1});
      t.push_back({(i + 1) * 30 + j, (i + 1) * 30 + j + 1, i * 30 + j + 1});
    }
  }
  const int n = static_cast<int>(p.size());
  std::vector<char> allowed(n, 1);
  for (int v = 0; v < n; v += 7) allowed[v] = 0;
  const Graph stored = build_graph(n, t, &p);
  const Graph bare = build_graph(n, t);
  EXPECT_TRUE(bare.lengths.empty());
  EXPECT_EQ(bare.neighbors, stored.neighbors);
  EXPECT_EQ(geodesic_distance(stored, {1, 500}, allowed),
            geodesic_distance_with_positions(bare, p, {1, 500}, allowed));
  const auto none = geodesic_distance(bare, {1});
  EXPECT_EQ(none[1], 0.0);
  EXPECT_TRUE(std::isinf(none[2]));
}

TEST(Percentile, Interpolates) {
  std::vector<double> v;
  for (int i = 0; i <= 100; ++i) v.push_back(i);
  EXPECT_DOUBLE_EQ(percentile(v, 0.99), 99.0);
  EXPECT_DOUBLE_EQ(percentile({0.0, 10.0}, 0.25), 2.5);
  EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0.0);
}

}  // namespace
}  // namespace detect
