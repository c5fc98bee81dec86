// The scalar step's exact rewrites: slerp weights from a series instead of
// acos/sin, and constants cached in the state (params edited between calls
// must still take effect).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "../src/math.h"
#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using Eigen::Quaterniond;
using Eigen::Vector3d;

Quaterniond random_unit(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized();
}

// Against Eigen's slerp (acos and three sines) from 1e-7 rad to 180 deg
// apart, both signs of the dot product: the series (below 25.7 deg) and the
// trigonometric fallback agree with it to rounding and are unit.
TEST(StepMath, SlerpMatchesEigenToRounding) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0.0, worst_norm = 0.0;
  int series = 0;
  for (int k = 0; k < 200000; ++k) {
    const Quaterniond a = random_unit(rng);
    const Vector3d axis = random_unit(rng).vec().normalized();
    const double angle = std::pow(10.0, -7.0 + 7.5 * u(rng));  // up to ~3.16 rad
    Quaterniond b = (a * Quaterniond(Eigen::AngleAxisd(angle, axis))).normalized();
    if (k % 2) b.coeffs() = -b.coeffs();
    const double t = u(rng);
    const detail::Q4 r = detail::slerp(detail::q4(a), t, detail::q4(b));
    const Quaterniond e = a.slerp(t, b);
    worst = std::max(worst, (detail::eig(r).coeffs() - e.coeffs()).norm());
    worst_norm = std::max(worst_norm, std::abs(std::sqrt(detail::dot(r, r)) - 1.0));
    if (0.5 * (1.0 - std::abs(a.dot(b))) <= detail::kSlerpPolyMaxZ) ++series;
  }
  EXPECT_LT(worst, 4e-15);
  EXPECT_LT(worst_norm, 2e-15);
  EXPECT_GT(series, 100000);  // most samples went through the series
  std::printf("[slerp] worst difference from Eigen %.3g, worst |norm - 1| %.3g, %d of 200000 by series\n", worst,
              worst_norm, series);
}

TEST(StepMath, SlerpEndpointsAreExact) {
  std::mt19937 rng(11);
  for (int k = 0; k < 1000; ++k) {
    const detail::Q4 a = detail::q4(random_unit(rng));
    detail::Q4 b = detail::q4((detail::eig(a) * Quaterniond(Eigen::AngleAxisd(0.1, Vector3d::UnitX()))).normalized());
    const detail::Q4 r0 = detail::slerp(a, 0.0, b);
    EXPECT_EQ(std::memcmp(&r0, &a, sizeof a), 0);
    const detail::Q4 r1 = detail::slerp(a, 1.0, b);
    EXPECT_EQ(r1.w, b.w);
    EXPECT_EQ(r1.z, b.z);
  }
}

// step() caches exp/cos/sin of params in the state: a run whose params
// change half-way must give the same bits as one whose cache is dropped at
// the change, and differ from one that keeps the old params. One parameter
// at a time, so each key of the cache is checked.
TEST(StepMath, ParamsEditedBetweenCallsTakeEffect) {
  const auto rig = testing::make_rig(5, true, 0.8, 0.6);
  const ChainParams params;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState start;
  init_state(desc, start);
  std::vector<Quaterniond> rot(5);
  for (int f = 0; f < 60; ++f) step(desc, params, start, 1.0 / 60.0, testing::hip_swing(f / 60.0, 0.6), rot);
  for (int which = 0; which < 5; ++which) {
    ChainParams edited = params;
    if (which == 0) edited.bend_coupling_rate = 30.0;
    if (which == 1) edited.bend_limit_deg = 5.0;
    if (which == 2) edited.contact_damping = 40.0;
    if (which == 3) edited.teleport_angle_deg = 0.01;  // every turning frame is a teleport
    if (which == 4) edited.internal_step = 1.0 / 90.0;
    ChainState cached = start, fresh = start, unchanged = start;
    fresh.constants = StepConstants{};  // as if never computed
    fresh.hips_prev_cached = false;
    for (int f = 60; f < 120; ++f) {
      const auto hips = testing::hip_swing(f / 60.0, 0.6);
      step(desc, edited, cached, 1.0 / 60.0, hips, rot);
      step(desc, edited, fresh, 1.0 / 60.0, hips, rot);
      step(desc, params, unchanged, 1.0 / 60.0, hips, rot);
    }
    double diff_fresh = 0.0, diff_unchanged = 0.0;
    for (size_t i = 0; i < 5; ++i) {
      diff_fresh = std::max(diff_fresh, (cached.pos[i] - fresh.pos[i]).norm());
      diff_unchanged = std::max(diff_unchanged, (cached.pos[i] - unchanged.pos[i]).norm());
    }
    EXPECT_EQ(diff_fresh, 0.0) << "parameter " << which;
    EXPECT_GT(diff_unchanged, 1e-6) << "parameter " << which << " had no effect";
  }
}

}  // namespace
}  // namespace solver
