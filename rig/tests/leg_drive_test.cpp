// How retargeted legs follow the source (TransferOptions::legs_by_ankle):
// by default a quadruped's legs whose shape differs from the source's follow
// its ankles, a biped's legs its rotations, whatever their feet.
#include <gtest/gtest.h>

#include <string>

#include "rig/retarget/clip_transfer.h"
#include "rig/io/io.h"
#include "shared_character.h"

namespace rig {
namespace {

int legs_by_ankle(const Character& source, const Clip& clip, const Character& target, TransferOptions::LegDrive d) {
  TransferOptions o;
  o.legs_by_ankle = d;
  o.copy_own_rig_clips = false;  // a rig's own clips are retarget cases here too
  const TransferResult r =
      transfer_clip(source, clip, calibrate(source.skeleton), target, calibrate(target.skeleton), o);
  EXPECT_TRUE(r.status.ok()) << r.status.message;
  return r.diagnostics.legs_by_ankle;
}

// The wolf's walk onto the rat (hock-shaped hind legs onto a folded haunch on
// a detached paw): by ankle, all four legs (copied bone for bone, the rat's
// thighs swung 93 deg and tore 2.6 % of its body edge samples; corpus).
// Onto the fox, whose paws hang below its shins, for the legs' other bind
// shape alone; the fox's own walk onto the fox keeps its rotations.
TEST(LegDrive, QuadrupedsOfAnotherLegShapeFollowTheSourceAnkles) {
  Character wolf, rat, fox;
  if (!load_shared_character("Wolf.glb", wolf) || !load_shared_character("Rat.glb", rat) || !load_shared_character("Fox.glb", fox))
    GTEST_SKIP() << "assets missing";
  const Clip* walk = clip_named(wolf, "AnimalArmature|Walk");
  const Clip* fox_walk = clip_named(fox, "Walk");
  ASSERT_NE(walk, nullptr);
  ASSERT_NE(fox_walk, nullptr);
  using D = TransferOptions::LegDrive;
  const D by_default = TransferOptions{}.legs_by_ankle;
  EXPECT_EQ(legs_by_ankle(wolf, *walk, rat, by_default), 4);
  EXPECT_EQ(legs_by_ankle(wolf, *walk, rat, D::kRotation), 0);
  EXPECT_EQ(legs_by_ankle(wolf, *walk, fox, by_default), 4);
  EXPECT_EQ(legs_by_ankle(fox, *fox_walk, fox, by_default), 0);
}

// A biped whose feet hang from the root (the Trex): its legs keep the
// source's rotations by default (its ankles left the stance soles off the
// floor); kAuto alone drives them by ankle under a mocap walk, whose feet
// ride on its shins, but not under a clip whose feet are IK targets too
// (its own walk: the paws follow the source's feet, rig_family_test).
TEST(LegDrive, BipedsKeepTheSourceRotations) {
  Character trex, mocap;
  if (!load_shared_character("Trex.glb", trex)) GTEST_SKIP() << "asset missing";
  const std::string bvh = std::string(TAILRIG_ASSETS) + "/clips/walk.bvh";
  if (!load(bvh, mocap).ok() || mocap.clips.empty()) GTEST_SKIP() << "asset missing: walk.bvh";
  const Clip* walk = clip_named(trex, "Armature|TRex_Walk");
  ASSERT_NE(walk, nullptr);
  using D = TransferOptions::LegDrive;
  EXPECT_EQ(legs_by_ankle(trex, *walk, trex, TransferOptions{}.legs_by_ankle), 0);
  EXPECT_EQ(legs_by_ankle(mocap, mocap.clips[0], trex, TransferOptions{}.legs_by_ankle), 0);
  EXPECT_EQ(legs_by_ankle(mocap, mocap.clips[0], trex, D::kAuto), 2);
  EXPECT_EQ(legs_by_ankle(trex, *walk, trex, D::kAuto), 0);
}

}  // namespace
}  // namespace rig
