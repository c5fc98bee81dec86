#include "detect/geometry/geodesic.h"

#include <gtest/gtest.h>

#include <cmath>

namespace detect {
namespace {

// Square 0(0,0) 1(1,0) 2(1,1) 3(0,1), diagonal 0-2, plus 4 at (2,1)
// connected to 1 and 2.
TEST(Geodesic, KnownGraph) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 1, 0}};
  const Graph g = build_graph(5, {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}});
  const auto d = geodesic_distance(g, p, {0});
  EXPECT_DOUBLE_EQ(d[0], 0.0);
  EXPECT_DOUBLE_EQ(d[1], 1.0);
  EXPECT_DOUBLE_EQ(d[2], std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(d[3], 1.0);
  EXPECT_DOUBLE_EQ(d[4], 1.0 + std::sqrt(2.0));
}

TEST(Geodesic, AllowedMaskAndMultipleSources) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 1, 0}};
  const Graph g = build_graph(5, {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}});
  // Without vertex 1, 4 is reached through 2.
  auto d = geodesic_distance(g, p, {0}, {1, 0, 1, 1, 1});
  EXPECT_TRUE(std::isinf(d[1]));
  EXPECT_DOUBLE_EQ(d[4], std::sqrt(2.0) + 1.0);
  d = geodesic_distance(g, p, {0, 4});
  EXPECT_DOUBLE_EQ(d[2], 1.0);
}

// Positions of another count than the graph's give no distances at all.
TEST(Geodesic, PositionsOfAnotherMeshGiveZeros) {
  const std::vector<rig::Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  const Graph g = build_graph(5, {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}});
  EXPECT_EQ(geodesic_distance(g, p, {0}), std::vector<double>(5, 0.0));
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
