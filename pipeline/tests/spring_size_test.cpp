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

TEST(SpringSize, FrequencyFallsAsTheTailsReachAndTeleportGrowsWithTheBody) {
  const BakeClipsReport small = bake(1.0, SpringSizing{}, {"walk"}), big = bake(20.0, SpringSizing{}, {"walk"});
  ASSERT_GT(small.tail_reach_m, 0.0);
  EXPECT_NEAR(big.tail_reach_m / small.tail_reach_m, 20.0, 1e-9);
  EXPECT_NEAR(small.tip_frequency_hz * small.tail_reach_m, kTailWaveSpeed, 1e-9);
  EXPECT_NEAR(small.tip_frequency_hz / big.tip_frequency_hz, 20.0, 1e-9);
  EXPECT_NEAR(small.root_frequency_hz, kRootOverTip * small.tip_frequency_hz, 1e-12);
  EXPECT_EQ(small.damping_ratio, kSizedDamping);
  EXPECT_NEAR(big.teleport_distance_m, kTeleportOfH * big.height_m, 1e-9);
  // The fixture's tail hangs: its carry stays.
  EXPECT_EQ(small.carry_deg, solver::ChainParams{}.carry_deg);
}

TEST(SpringSize, AFieldGivenIsUsedAsGiven) {
  const SpringSizing given = sizing_without(
      nlohmann::json{{"tip_frequency_hz", 0.3}, {"damping_ratio", 0.9}, {"teleport_distance", 2.0}, {"carry_deg", 10}});
  EXPECT_FALSE(given.frequencies || given.damping || given.teleport || given.carry);
  const BakeClipsReport r = bake(1.0, given, {"walk"});
  const solver::ChainParams defaults;
  EXPECT_EQ(r.tip_frequency_hz, defaults.tip_frequency_hz);  // bake() leaves params at their defaults
  EXPECT_EQ(r.damping_ratio, defaults.damping_ratio);
  EXPECT_EQ(r.teleport_distance_m, defaults.teleport_distance);
}

TEST(SpringSize, AHeldUpTailLosesItsCarryAHangingOneKeepsIt) {
  solver::ChainParams p;
  TailShape curl{0.6, 0.26}, hanging{0.6, -0.3};
  EXPECT_TRUE(size_spring_to_tail(curl, 3.0, SpringSizing{}, p));
  EXPECT_EQ(p.carry_deg, 0.0);
  solver::ChainParams q;
  EXPECT_FALSE(size_spring_to_tail(hanging, 3.0, SpringSizing{}, q));
  EXPECT_EQ(q.carry_deg, solver::ChainParams{}.carry_deg);
}

// A body fifty times the fixture's (95 m tall) flips over fifty times as
// far per frame (over 1 m): motion, not a cut. With the fixed 1 m threshold
// (the old bake: SpringSizing::teleport false) those frames were teleports
// and the tail was carried rigidly through the flip: tip range 2.8 % of H
// against 44 % at the fixture's own size. Sized, the flip swings the giant's
// tail about as it swings the fixture's (50 % of H).
TEST(SpringSize, AGiantsFlipIsMotionNotATeleport) {
  SpringSizing fixed_teleport;
  fixed_teleport.teleport = false;
  const BakeClipsReport own = bake(1.0, SpringSizing{}, {"back_flip"});
  const BakeClipsReport sized = bake(50.0, SpringSizing{}, {"back_flip"});
  const BakeClipsReport old = bake(50.0, fixed_teleport, {"back_flip"});
  ASSERT_EQ(own.clips.size(), 1u);
  ASSERT_EQ(sized.clips.size(), 1u);
  ASSERT_EQ(old.clips.size(), 1u);
  EXPECT_GT(own.clips[0].tip_range_rel_H, 0.3);
  EXPECT_LT(old.clips[0].tip_range_rel_H, 0.2 * own.clips[0].tip_range_rel_H) << "carried rigidly";
  EXPECT_NEAR(sized.clips[0].tip_range_rel_H, own.clips[0].tip_range_rel_H, 0.2 * own.clips[0].tip_range_rel_H);
}

}  // namespace
}  // namespace pipeline
