#include "rig/model/weld.h"

#include <gtest/gtest.h>

#include <limits>

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

// Coordinates far beyond tolerance x 2^63 (1e9 over 1e-15, up to 1e38):
// the cell index cast overflowed int64 (undefined behaviour; UBSan in the
// sanitizer build reports it). Welding must still be exact and total.
TEST(Weld, HugeCoordinatesOverTinyToleranceStayExact) {
  std::vector<Vec3> p = {{1e9, 0, 0},         {1e9, 0, 0},         {-1e9, 1e-30, 0}, {0, 0, 0},
                         {1e38, -1e38, 1e38}, {1e38, -1e38, 1e38}, {1e9 + 128, 0, 0}};
  Welded w = weld_by_position(p, {}, 1e-15);
  EXPECT_EQ(w.weld_of, (std::vector<int>{0, 0, 1, 2, 3, 3, 4}));
}

// Non-finite positions never reach the weld from the readers, but a caller's
// NaN must not be cast to an integer either: each is its own vertex.
TEST(Weld, NonFinitePositionsAreTheirOwnVertices) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Vec3> p = {{nan, 0, 0}, {inf, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  Welded w = weld_by_position(p, {}, 1e-6);
  EXPECT_EQ(w.weld_of, (std::vector<int>{0, 1, 2, 2}));
}

// The grid weld is the greedy definition, computed naively: each vertex joins
// the lowest welded id whose representative lies within the tolerance, else
// starts one. Clusters of near copies straddle cell faces (positions on a
// lattice of the tolerance, negative and positive), in coherent runs.
TEST(Weld, EqualsTheNaiveGreedyWeld) {
  const double tol = 1e-3;
  unsigned state = 99;
  auto unit = [&state] {
    return static_cast<double>((state = state * 1664525u + 1013904223u) >> 8) / (1 << 24);
  };
  std::vector<Vec3> p;
  Vec3 walk(0, 0, 0);
  for (int i = 0; i < 6000; ++i) {
    walk += 0.004 * Vec3(unit() - 0.5, unit() - 0.5, unit() - 0.5);
    // Every third vertex copies an earlier one nearly (within 0 to 1.5 tol
    // per axis): partners at, inside and beyond the tolerance.
    if (i % 3 == 2) {
      const Vec3 base = p[static_cast<size_t>(unit() * static_cast<double>(p.size()))];
      p.push_back(base + tol * Vec3(unit() - 0.5, unit() - 0.5, unit() - 0.5) * 1.2);
    } else {
      // On a lattice of the tolerance: many positions land on cell faces.
      p.push_back((walk / tol).array().round().matrix() * tol * (i % 2 ? 8.0 : 1.0));
    }
  }
  const Welded w = weld_by_position(p, {}, tol);
  std::vector<int> representative, weld_of;
  for (size_t v = 0; v < p.size(); ++v) {
    int found = -1;
    for (size_t id = 0; id < representative.size() && found < 0; ++id) {
      if ((p[static_cast<size_t>(representative[id])] - p[v]).squaredNorm() <= tol * tol)
        found = static_cast<int>(id);
    }
    if (found < 0) {
      found = static_cast<int>(representative.size());
      representative.push_back(static_cast<int>(v));
    }
    weld_of.push_back(found);
  }
  EXPECT_LT(representative.size(), p.size() * 9 / 10);  // many welds happened
  EXPECT_EQ(w.weld_of, weld_of);
  EXPECT_EQ(w.representative, representative);
}

TEST(ModelHeight, IsYExtent) {
  EXPECT_DOUBLE_EQ(model_height({{0, -1, 0}, {5, 2, 9}, {0, 0.5, 0}}), 3.0);
  EXPECT_EQ(model_height({}), 0.0);
}

}  // namespace
}  // namespace rig
