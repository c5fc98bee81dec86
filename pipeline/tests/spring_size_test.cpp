// The bake's spring sized to the tail (issue 45 class 9; spring_size.h): the
// same chained fox fixture baked at its own size and twenty times larger
// (meters_per_unit), the clips' timing unchanged.
#include <gtest/gtest.h>

#include <cmath>

#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "pipeline/bake_clips.h"
#include "pipeline/spring_size.h"

namespace pipeline {
namespace {

rig::Character chained_fox(double meters_per_unit) {
  rig::Character fox;
  fixtures::FixtureParams p = fixtures::default_params("fox");
  p.density = 0.5;
  EXPECT_TRUE(fixtures::make_fixture("fox", p, fox));
  detect::FixResult fixed;
  EXPECT_TRUE(detect::fix(fox, detect::Mode::kChain, detect::Params{}, fixed).ok());
  fixed.character.meters_per_unit = meters_per_unit;
  return fixed.character;
}

BakeClipsReport bake(double meters_per_unit, const SpringSizing& sizing, const std::vector<std::string>& clips) {
  rig::Character c = chained_fox(meters_per_unit);
  BakeClipsOptions o;
  o.clips = clips;
  o.colliders = false;
  o.sizing = sizing;
  BakeClipsReport r;
  EXPECT_TRUE(bake_clips(c, o, r).ok());
  return r;
}

TEST(SpringSize, FrequencyFallsAsTheTailsReach) {
  const BakeClipsReport small = bake(1.0, SpringSizing{}, {"walk"}), big = bake(20.0, SpringSizing{}, {"walk"});
  ASSERT_GT(small.tail_reach_m, 0.0);
  EXPECT_NEAR(big.tail_reach_m / small.tail_reach_m, 20.0, 1e-9);
  EXPECT_NEAR(small.tip_frequency_hz * small.tail_reach_m, kTailWaveSpeed, 1e-9);
  EXPECT_NEAR(small.tip_frequency_hz / big.tip_frequency_hz, 20.0, 1e-9);
  EXPECT_NEAR(small.root_frequency_hz, kRootOverTip * small.tip_frequency_hz, 1e-12);
  EXPECT_EQ(small.damping_ratio, kSizedDamping);
  // The fixture's tail hangs: its carry stays.
  EXPECT_EQ(small.carry_deg, solver::ChainParams{}.carry_deg);
}

// A short tail (the chained fox at a tenth of its size: a 0.07 m reach,
// 3 m/s / reach = 42 Hz at the tip) gets the stiffest spring the internal
// step integrates faithfully, and its loops settle (uncapped: 30 warm-up
// passes, not converged).
TEST(SpringSize, AShortTailsSpringIsCappedAndItsLoopsSettle) {
  const BakeClipsReport r = bake(0.1, SpringSizing{}, {"walk", "crouch_backward"});
  ASSERT_GT(r.tail_reach_m, 0.0);
  EXPECT_LT(r.tip_frequency_hz, kTailWaveSpeed / r.tail_reach_m);
  EXPECT_NEAR(2.0 * M_PI * r.root_frequency_hz * solver::ChainParams{}.internal_step, kMaxRootOmegaStep, 1e-12);
  ASSERT_EQ(r.clips.size(), 2u);
  for (const ClipBakeReport& c : r.clips) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(c.converged) << c.warmup_passes << " warm-up passes";
    EXPECT_LT(c.seam_max_deg, 0.05);
  }
}

TEST(SpringSize, AFieldGivenIsUsedAsGiven) {
  const SpringSizing given = sizing_without(
      nlohmann::json{{"tip_frequency_hz", 0.3}, {"damping_ratio", 0.9}, {"carry_deg", 10}});
  EXPECT_FALSE(given.frequencies || given.damping || given.carry);
  const BakeClipsReport r = bake(1.0, given, {"walk"});
  const solver::ChainParams defaults;
  EXPECT_EQ(r.tip_frequency_hz, defaults.tip_frequency_hz);  // bake() leaves params at their defaults
  EXPECT_EQ(r.damping_ratio, defaults.damping_ratio);
}

TEST(SpringSize, AHeldUpTailLosesItsCarryAHangingOneKeepsIt) {
  solver::ChainParams p;
  TailShape curl{0.6, 0.26}, hanging{0.6, -0.3};
  EXPECT_TRUE(size_spring_to_tail(curl, SpringSizing{}, p));
  EXPECT_EQ(p.carry_deg, 0.0);
  solver::ChainParams q;
  EXPECT_FALSE(size_spring_to_tail(hanging, SpringSizing{}, q));
  EXPECT_EQ(q.carry_deg, solver::ChainParams{}.carry_deg);
}

}  // namespace
}  // namespace pipeline
