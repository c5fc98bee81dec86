// In-place clips (rig/retarget/in_place.h): game walks that keep the hips over
// the origin, whose standing feet slide back under the body.
#include "rig/retarget/in_place.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/io/io.h"
#include "rig/retarget/contact/limb_contact.h"
#include "shared_character.h"

namespace rig {
namespace {

struct Walk {
  std::vector<double> times;
  std::vector<std::vector<Vec3>> soles;  // two feet, one sole point each
  std::vector<Vec3> hips;
};

// Two feet in antiphase over 1 s: half the time on the floor moving at
// `stance_velocity` (z), half in the air moving forward; the hips move at
// `hips_velocity`.
Walk walk(double stance_velocity, double hips_velocity) {
  Walk w;
  w.soles.assign(2, {});
  for (int k = 0; k <= 30; ++k) {
    const double t = k / 30.0;
    w.times.push_back(t);
    w.hips.push_back(Vec3(0, 0.9, hips_velocity * t));
    for (int f = 0; f < 2; ++f) {
      const double phase = std::fmod(t + 0.5 * f, 1.0);
      const bool stance = phase < 0.5;
      const double z = stance ? stance_velocity * phase : stance_velocity * (1.0 - phase);
      w.soles[f].push_back(Vec3(f ? -0.1 : 0.1, stance ? 0.0 : 0.1 * std::sin(2 * M_PI * (phase - 0.5)), z));
    }
  }
  return w;
}

bool in_place(const Walk& w, double leg = 0.9) {
  std::vector<const std::vector<Vec3>*> soles;
  for (const auto& s : w.soles) soles.push_back(&s);
  return walks_in_place(w.times, soles, w.hips, leg);
}

TEST(InPlace, StandingFeetSlidingUnderStillHipsWalkInPlace) {
  EXPECT_TRUE(in_place(walk(-1.0, 0.0)));
  EXPECT_TRUE(in_place(walk(1.0, 0.0)));  // backwards
}

TEST(InPlace, RootMotionAndStandingStillDoNot) {
  Walk travel = walk(0.0, 1.0);  // standing soles still, the hips carry the walk
  EXPECT_FALSE(in_place(travel));
  EXPECT_FALSE(in_place(walk(-1.0, 1.0)));  // sliding feet under travelling hips: a skate
  EXPECT_FALSE(in_place(walk(-0.1, 0.0)));  // a shuffle of 0.1 leg lengths: standing
}

TEST(InPlace, DegenerateInputsAreNoWalk) {
  Walk w = walk(-1.0, 0.0);
  EXPECT_FALSE(in_place(w, 0.0));
  EXPECT_FALSE(in_place(w, std::numeric_limits<double>::quiet_NaN()));
  Walk few = w;
  few.times.resize(2);
  EXPECT_FALSE(in_place(few));
  Walk nan = w;
  for (auto& p : nan.hips) p.z() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(in_place(nan));
  EXPECT_FALSE(walks_in_place(w.times, {}, w.hips, 0.9));
}

// The wolf's own walk is in place (its hips do not travel): every paw's
// stance is found on its own floor, most of the clip, in at most three
// phases (was: one to two samples a phase, the front right paw none, so a
// retarget fell back to the target's feet and landed them out of step).
TEST(InPlace, TheWolfsInPlaceWalkHasItsStance) {
  Character wolf;
  if (!load_shared_character("Wolf.glb", wolf)) GTEST_SKIP() << "asset missing: Wolf.glb";
  const Clip* walk_clip = clip_named(wolf, "AnimalArmature|Walk");
  ASSERT_NE(walk_clip, nullptr);
  std::vector<double> times;
  for (int k = 0; k <= 30; ++k) times.push_back(walk_clip->duration * k / 30.0);
  const auto phases = detect_own_floor_contacts(wolf.skeleton, *walk_clip, times, LimbContactOptions{});
  ASSERT_EQ(phases.size(), 4u);
  for (const auto& leg : phases) {
    int stance = 0;
    for (const ContactPhase& ph : leg) stance += ph.last - ph.first + 1;
    EXPECT_GE(stance, 12);  // of 31 samples
    EXPECT_LE(leg.size(), 3u);
  }
}

// A game walk onto its own rig keeps its hips: stance read from height alone
// (in place) takes only a flat foot, within 2 % of a leg length. With 6 %,
// the lifting toe behind a straight leg was pinned and the hips dropped
// 6.4 cm below the Cyberpunk artist's to reach it (knees bent to match).
// Retargeted, not copied as authored (copy_own_rig_clips): the same stance
// test serves a game walk onto a rig of the same family.
TEST(InPlace, AGameWalkOntoItsOwnRigKeepsItsHips) {
  Character c;
  if (!load_shared_character("CyberpunkCharacter.glb", c)) GTEST_SKIP() << "asset missing: CyberpunkCharacter.glb";
  const Clip* walk_clip = clip_named(c, "CharacterArmature|Walk");
  ASSERT_NE(walk_clip, nullptr);
  const Calibration cal = calibrate(c.skeleton);
  TransferOptions retargeted;
  retargeted.copy_own_rig_clips = false;
  const TransferResult r = transfer_onto_itself(c, *walk_clip, retargeted);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_LT(std::abs(r.floor_alignment), 0.02 * cal.leg_length);
  EXPECT_GE(r.diagnostics.stance_keys, 20);  // both feet stand, 42 keys
}

}  // namespace
}  // namespace rig
