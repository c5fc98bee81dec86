#include "detect/tube.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace detect {
namespace {

// A tube along +x: a tip vertex (0) then `rings` rings of `sides` vertices,
// spacing `step`, radius `radius`; ring k vertex s is 1 + k * sides + s.
// Outward winding. `half_rings` of the last rings keep only their lower half
// of faces (a tube cut obliquely at the core's end).
struct Mesh {
  std::vector<rig::Vec3> positions;
  std::vector<std::array<int, 3>> triangles;
  int ring(int k, int s, int sides) const { return 1 + k * sides + ((s % sides) + sides) % sides; }
};

Mesh tube(int rings, int sides, double step, double radius) {
  Mesh m;
  m.positions.push_back({0, 0, 0});
  for (int k = 0; k < rings; ++k)
    for (int s = 0; s < sides; ++s) {
      const double a = 2 * std::numbers::pi * s / sides;
      m.positions.push_back({(k + 1) * step, radius * std::cos(a), radius * std::sin(a)});
    }
  for (int s = 0; s < sides; ++s) m.triangles.push_back({0, m.ring(0, s + 1, sides), m.ring(0, s, sides)});
  for (int k = 0; k + 1 < rings; ++k)
    for (int s = 0; s < sides; ++s) {
      const int a = m.ring(k, s, sides), b = m.ring(k, s + 1, sides), c = m.ring(k + 1, s, sides),
                d = m.ring(k + 1, s + 1, sides);
      m.triangles.push_back({a, b, d});
      m.triangles.push_back({a, d, c});
    }
  return m;
}

// A flat strip (normals one way) continuing from the tube's last ring along
// +x at the tube's bottom (y = -radius): `rows` rows of three vertices.
void add_belly_strip(Mesh& m, int rings, int sides, double step, double radius, int rows) {
  const int first = static_cast<int>(m.positions.size());
  for (int r = 0; r < rows; ++r)
    for (int c = -1; c <= 1; ++c) m.positions.push_back({(rings + 1 + r) * step, -radius, c * radius * 0.5});
  auto at = [&](int r, int c) { return first + r * 3 + (c + 1); };
  // Joined to the ring's bottom vertex (angle pi: y = -radius).
  const int bottom = m.ring(rings - 1, sides / 2, sides);
  m.triangles.push_back({bottom, at(0, -1), at(0, 0)});
  m.triangles.push_back({bottom, at(0, 0), at(0, 1)});
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = -1; c < 1; ++c) {
      m.triangles.push_back({at(r, c), at(r + 1, c), at(r + 1, c + 1)});
      m.triangles.push_back({at(r, c), at(r + 1, c + 1), at(r, c + 1)});
    }
}

Graph graph(const Mesh& m) { return build_graph(static_cast<int>(m.positions.size()), m.triangles); }

std::vector<int> all(const Mesh& m) {
  std::vector<int> v(m.positions.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(i);
  return v;
}

TEST(Tube, AreaNormalsPointOutOfATube) {
  const Mesh m = tube(4, 8, 0.1, 0.2);
  const auto n = area_normals(m.positions, m.triangles);
  const rig::Vec3 p = m.positions[m.ring(1, 2, 8)];
  const rig::Vec3 radial(0, p.y(), p.z());
  EXPECT_GT(n[m.ring(1, 2, 8)].normalized().dot(radial.normalized()), 0.9);
}

TEST(Tube, AWholeTubeIsNotCut) {
  const Mesh m = tube(30, 8, 0.05, 0.1);
  const TubeCut t = trim_to_tube(graph(m), m.positions, area_normals(m.positions, m.triangles), all(m), 0, 0.0, 0.85);
  EXPECT_FALSE(t.cut);
  EXPECT_EQ(t.kept.size(), m.positions.size());
  EXPECT_GT(t.slice, 0.0);
}

TEST(Tube, ABellyStripPastTheTubeIsCutAway) {
  Mesh m = tube(30, 8, 0.05, 0.1);
  const int tube_vertices = static_cast<int>(m.positions.size());
  add_belly_strip(m, 30, 8, 0.05, 0.1, 25);
  const TubeCut t = trim_to_tube(graph(m), m.positions, area_normals(m.positions, m.triangles), all(m), 0, 0.0, 0.85);
  ASSERT_TRUE(t.cut);
  EXPECT_GT(t.open_closure, 0.85);
  int strip_kept = 0, tube_kept = 0;
  for (int v : t.kept) (v >= tube_vertices ? strip_kept : tube_kept)++;
  // The strip goes, save what lies within half a slice of the tube's end; the
  // tube stays, save at most its last slice.
  EXPECT_LE(strip_kept, 3 * 4);
  EXPECT_GE(tube_kept, tube_vertices - 8 * 4);
}

TEST(Tube, AShortOpenEndIsNoStrip) {
  // Only a slice's worth of strip: a tube cut obliquely opens as much.
  Mesh m = tube(30, 8, 0.05, 0.1);
  add_belly_strip(m, 30, 8, 0.05, 0.1, 2);
  const TubeCut t = trim_to_tube(graph(m), m.positions, area_normals(m.positions, m.triangles), all(m), 0, 0.0, 0.85);
  EXPECT_FALSE(t.cut);
}

TEST(Tube, BadInputKeepsTheCore) {
  const Mesh m = tube(10, 8, 0.05, 0.1);
  const auto n = area_normals(m.positions, m.triangles);
  const Graph g = graph(m);
  EXPECT_FALSE(trim_to_tube(g, m.positions, n, all(m), -1, 0.0, 0.85).cut);
  EXPECT_FALSE(trim_to_tube(g, m.positions, n, {}, 0, 0.0, 0.85).cut);
  EXPECT_FALSE(trim_to_tube(g, m.positions, {}, all(m), 0, 0.0, 0.85).cut);
  EXPECT_FALSE(trim_to_tube(g, m.positions, n, all(m), 0, std::nan(""), 0.85).cut);
  EXPECT_FALSE(trim_to_tube(g, m.positions, n, {1, 2, 3}, 0, 0.0, 0.85).cut);  // seed outside the core
  const TubeCut out_of_graph = trim_to_tube(g, m.positions, n, {0, 1, 99999}, 0, 0.0, 0.85);
  EXPECT_FALSE(out_of_graph.cut);
  EXPECT_EQ(out_of_graph.kept, (std::vector<int>{0, 1, 99999}));
  const std::vector<std::array<int, 3>> bad = {{0, 1, 99}};
  EXPECT_EQ(area_normals(m.positions, bad)[0], rig::Vec3::Zero());
}

}  // namespace
}  // namespace detect
