#include "detect/geometry/shape.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "detect/attachment.h"

namespace detect {
namespace {

// Eight box corners (±3, ±2, ±1): covariance diag(9, 4, 1).
// The fused-tail split rejects a level by centroid() before shape_of runs:
// both must give the same centroid, bit for bit.
TEST(Shape, CentroidIsTheMeanBitForBit) {
  unsigned state = 3;
  auto unit = [&state] {
    return static_cast<double>((state = state * 1664525u + 1013904223u) >> 8) / (1 << 24);
  };
  std::vector<rig::Vec3> pts;
  for (int i = 0; i < 997; ++i) pts.push_back({unit() * 3 - 1, unit() * 1e-3, unit() * 1e4});
  const rig::Vec3 a = shape_of(pts).centroid, b = centroid(pts);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * 3), 0);
}

TEST(Shape, PcaOfBoxCorners) {
  std::vector<rig::Vec3> p;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1}) p.push_back({3.0 * sx + 1, 2.0 * sy, 1.0 * sz - 5});
  const Shape s = shape_of(p);
  EXPECT_TRUE(s.centroid.isApprox(rig::Vec3(1, 0, -5)));
  EXPECT_NEAR(s.eigenvalues(0), 9.0, 1e-12);
  EXPECT_NEAR(s.eigenvalues(1), 4.0, 1e-12);
  EXPECT_NEAR(s.eigenvalues(2), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(s.axes.col(0).x()), 1.0, 1e-12);
  EXPECT_NEAR(s.elongation, 1.5, 1e-12);
  EXPECT_NEAR(s.flatness, 2.0, 1e-12);
}

TEST(Shape, LineIsInfinitelyElongated) {
  const Shape s = shape_of({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  EXPECT_TRUE(std::isinf(s.elongation));
}

// A tube curled into a half circle in the XZ plane (whole-region flatness
// large, as a mouse's tail) and a flat strip hanging straight, each along
// its own polyline: round sections read ~1, the strip's its width/thickness.
TEST(Shape, SectionFlatnessTellsATubeFromASheet) {
  const double pi = std::acos(-1.0);
  std::vector<rig::Vec3> axis, tube;
  for (int i = 0; i <= 8; ++i) {
    const double a = pi * i / 8;
    axis.push_back({10 * std::cos(a), 0, 10 * std::sin(a)});
  }
  for (int i = 0; i <= 64; ++i) {
    const double a = pi * i / 64;
    const rig::Vec3 c(10 * std::cos(a), 0, 10 * std::sin(a)), out(std::cos(a), 0, std::sin(a));
    for (int k = 0; k < 8; ++k) {
      const double b = 2 * pi * k / 8;
      tube.push_back(c + std::cos(b) * out + std::sin(b) * rig::Vec3::UnitY());
    }
  }
  EXPECT_GT(shape_of(tube).flatness, 3.0);  // curled in a plane: flat as a whole
  const SectionFlatness t = section_flatness(tube, axis);
  EXPECT_EQ(t.segments, 8);
  EXPECT_LT(t.median, 1.1);

  std::vector<rig::Vec3> strip, down{{0, 0, 0}, {0, -5, 0}, {0, -10, 0}};
  for (int i = 0; i <= 20; ++i)
    for (int k = -4; k <= 4; ++k)
      for (const double z : {-0.1, 0.1}) strip.push_back({0.5 * k, -0.5 * i, z});
  const SectionFlatness f = section_flatness(strip, down);
  EXPECT_EQ(f.segments, 2);
  EXPECT_NEAR(f.median, std::sqrt(15.0 / 9.0) / 0.1, 1e-9);  // 4 wide by 0.2 thick: rms 1.29 across, 0.1 through

  // The lower median: one flared section among round ones decides nothing.
  std::vector<rig::Vec3> flared = tube;
  for (rig::Vec3& p : flared)
    if (p.z() < 7.07 && p.x() > 0) p.y() *= 10;  // the first two segments' sections 10x as tall as wide
  EXPECT_LT(section_flatness(flared, axis).median, 1.1);  // 6 round of 8
  EXPECT_GT(section_flatness(flared, {axis[0], axis[1], axis[2]}).median, 5.0);

  // A zero-length segment measures nothing, and a non-finite joint's segments
  // neither: the strip reads the same.
  EXPECT_EQ(section_flatness(strip, {{0, 0, 0}, {0, 0, 0}, {0, -5, 0}, {0, -10, 0}}).median, f.median);
  const double nan = std::nan("");
  EXPECT_EQ(section_flatness(strip, {{0, 0, 0}, {0, -5, 0}, {0, -10, 0}, {nan, nan, nan}}).median, f.median);
  // Nothing to tell: too few points per segment, no segment.
  EXPECT_EQ(section_flatness({{0, 0, 0}, {1, 0, 0}}, down).segments, 0);
  EXPECT_EQ(section_flatness(strip, {{0, 0, 0}}).median, 1.0);
}

TEST(Box, MergeRuleHalfOfSmaller) {
  Box a, b, c;
  a.extend({0, 0, 0});
  a.extend({2, 2, 2});  // volume 8
  b.extend({1, 0, 0});
  b.extend({2, 1, 1});  // volume 1, inside a
  c.extend({1.6, 0, 0});
  c.extend({2.6, 1, 1});  // volume 1, 0.4 of it inside a
  EXPECT_DOUBLE_EQ(a.volume(), 8.0);
  EXPECT_DOUBLE_EQ(intersection_volume(a, b), 1.0);
  EXPECT_TRUE(boxes_overlap(a, b));
  EXPECT_NEAR(intersection_volume(a, c), 0.4, 1e-12);
  EXPECT_FALSE(boxes_overlap(a, c));
  Box d;
  d.extend({1.4, 0, 0});
  d.extend({2.4, 1, 1});  // 0.6 inside
  EXPECT_TRUE(boxes_overlap(a, d));
  Box far;
  far.extend({5, 5, 5});
  far.extend({6, 6, 6});
  EXPECT_DOUBLE_EQ(intersection_volume(a, far), 0.0);
  EXPECT_FALSE(boxes_overlap(a, far));
}

}  // namespace
}  // namespace detect
