#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "measure/edge_stretch.h"
#include "measure/tail_motion.h"

namespace harness {
namespace {

using V = Eigen::Vector3d;

// A unit quad (4 edges + diagonal) stretched along X by a known factor.
TEST(EdgeStretch, UnitQuadStretchedByKnownFactor) {
  std::vector<V> bind = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  std::vector<std::pair<int, int>> edges = {{0, 1}, {1, 2}, {2, 3}, {0, 3}};
  std::vector<V> posed;
  for (const V& p : bind) posed.emplace_back(1.25 * p.x(), p.y(), p.z());
  std::vector<double> r;
  measure::append_edge_ratios(bind, posed, edges, r);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_DOUBLE_EQ(r[0], 1.25);  // horizontal edges: exactly the factor
  EXPECT_DOUBLE_EQ(r[1], 1.0);   // vertical edges: unchanged
  EXPECT_DOUBLE_EQ(r[2], 1.25);
  EXPECT_DOUBLE_EQ(r[3], 1.0);
  // Uniform scale by 2: every ratio exactly 2.
  std::vector<V> doubled;
  for (const V& p : bind) doubled.push_back(2 * p);
  r.clear();
  measure::append_edge_ratios(bind, doubled, edges, r);
  for (double x : r) EXPECT_DOUBLE_EQ(x, 2.0);
}

TEST(EdgeStretch, ZeroLengthBindEdgesAreSkipped) {
  std::vector<V> bind = {{0, 0, 0}, {0, 0, 0}};
  std::vector<double> r;
  std::vector<std::pair<int, int>> edges = {{0, 1}};
  measure::append_edge_ratios(bind, bind, edges, r);
  EXPECT_TRUE(r.empty());
}

TEST(Percentile, KnownList) {
  std::vector<double> v = {5, 1, 4, 2, 3};  // sorted 1..5
  EXPECT_DOUBLE_EQ(measure::percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(measure::percentile(v, 50), 3);
  EXPECT_DOUBLE_EQ(measure::percentile(v, 100), 5);
  EXPECT_DOUBLE_EQ(measure::percentile(v, 25), 2);
  EXPECT_DOUBLE_EQ(measure::percentile(v, 95), 4.8);  // 0.95*4 = 3.8 -> 4 + 0.8
  EXPECT_DOUBLE_EQ(measure::percentile(v, 99), 4.96);
  EXPECT_DOUBLE_EQ(measure::percentile({}, 50), 0);
  EXPECT_DOUBLE_EQ(measure::percentile({7}, 99), 7);
}

TEST(StretchStats, TornBoundariesAreStrict) {
  // Exactly 1.5 and 0.67 are not torn; just past them are.
  measure::StretchStats s = measure::stretch_stats({1.5, 0.67, 1.0, 1.5000001, 0.6699999});
  EXPECT_EQ(s.samples, 5);
  EXPECT_DOUBLE_EQ(s.torn_fraction, 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(s.max, 1.5000001);
  EXPECT_DOUBLE_EQ(s.min, 0.6699999);
  EXPECT_DOUBLE_EQ(measure::stretch_stats({1.5, 0.67}).torn_fraction, 0.0);
  EXPECT_DOUBLE_EQ(measure::stretch_stats({}).torn_fraction, 0.0);
}

// stretch_stats and percentile select only the ranks they read
// (measure::order_statistics, a radix select; its own randomized test is
// measure_tests): the same numbers, bit for bit, as reading them off
// a fully sorted copy, for any size (ranks at the ends, ranks coinciding)
// and with many repeated values.
TEST(StretchStats, SameAsAFullSort) {
  std::mt19937 rng(7);
  for (size_t n : {1u, 2u, 3u, 5u, 17u, 100u, 101u, 1000u, 4099u}) {
    for (int repeats : {0, 1}) {
      std::vector<double> v(n);
      std::uniform_real_distribution<double> u(0.2, 2.5);
      for (double& x : v) x = repeats ? std::round(u(rng) * 4) / 4 : u(rng);
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      const measure::StretchStats s = measure::stretch_stats(v);
      EXPECT_EQ(s.min, sorted.front()) << n;
      EXPECT_EQ(s.max, sorted.back()) << n;
      EXPECT_EQ(s.p01, measure::percentile_sorted(sorted, 1)) << n;
      EXPECT_EQ(s.p25, measure::percentile_sorted(sorted, 25)) << n;
      EXPECT_EQ(s.p50, measure::percentile_sorted(sorted, 50)) << n;
      EXPECT_EQ(s.p75, measure::percentile_sorted(sorted, 75)) << n;
      EXPECT_EQ(s.p95, measure::percentile_sorted(sorted, 95)) << n;
      EXPECT_EQ(s.p99, measure::percentile_sorted(sorted, 99)) << n;
      EXPECT_EQ(s.torn_fraction, measure::torn_fraction(v)) << n;
      for (double q : {0.0, 0.5, 33.3, 99.9, 100.0}) EXPECT_EQ(measure::percentile(v, q), measure::percentile_sorted(sorted, q));
    }
  }
}

TEST(TailMotion, RangeRmsAndAngles) {
  std::vector<V> tip = {{0, 0, 0}, {2, 0, 0}};
  std::vector<std::vector<V>> dirs = {{V(0, -1, 0), V(1, 0, 0)}, {V(0, -1, 0), V(0, -1, 0)}};
  measure::TailMotion m = measure::tail_motion(tip, dirs);
  EXPECT_DOUBLE_EQ(m.tip_range, 2.0);
  EXPECT_DOUBLE_EQ(m.tip_rms, 1.0);
  ASSERT_EQ(m.bone_angle_range_deg.size(), 2u);
  EXPECT_NEAR(m.bone_angle_range_deg[0], 90.0, 1e-12);
  EXPECT_NEAR(m.bone_angle_range_deg[1], 0.0, 1e-12);
}

TEST(HipDelta, MaxAbs) {
  std::vector<double> a = {1, 2, 3}, b = {1, 2.5, 2};
  EXPECT_DOUBLE_EQ(measure::max_abs_delta(a, b), 1.0);
}

}  // namespace
}  // namespace harness
