#include <gtest/gtest.h>

#include "rig/weld.h"

namespace rig {
namespace {

// Two triangles of a quad, split at a seam: 6 vertices, 4 positions.
TEST(Weld, SplitQuadWeldsToFourVertices) {
  std::vector<Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  std::vector<std::array<int, 3>> t = {{0, 1, 2}, {3, 4, 5}};
  Welded w = weld_by_position(p, t, 1e-6);
  EXPECT_EQ(w.count(), 4);
  EXPECT_EQ(w.weld_of, (std::vector<int>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(w.representative, (std::vector<int>{0, 1, 2, 5}));
  EXPECT_EQ(unique_edges(w.triangles).size(), 5u);
  EXPECT_EQ(unique_edges(t).size(), 6u);
}

TEST(Weld, ToleranceIsRespected) {
  std::vector<Vec3> p = {{0, 0, 0}, {0.0009, 0, 0}, {0.0011, 0, 0}};
  Welded w = weld_by_position(p, {}, 0.001);
  EXPECT_EQ(w.weld_of, (std::vector<int>{0, 0, 1}));
}

TEST(Weld, DegenerateTrianglesDropped) {
  std::vector<Vec3> p = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  Welded w = weld_by_position(p, {{0, 1, 2}}, 1e-6);
  EXPECT_TRUE(w.triangles.empty());
}

TEST(ModelHeight, IsYExtent) {
  EXPECT_DOUBLE_EQ(model_height({{0, -1, 0}, {5, 2, 9}, {0, 0.5, 0}}), 3.0);
  EXPECT_EQ(model_height({}), 0.0);
}

}  // namespace
}  // namespace rig
