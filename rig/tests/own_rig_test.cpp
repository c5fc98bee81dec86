// A clip made for the target's own rig is copied as authored
// (rig::own_rig_joints, rig::copy_own_rig_clip, TransferOptions::copy_own_rig_clips).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/own_rig.h"
#include "rig/model/pose.h"
#include "shared_character.h"

namespace rig {
namespace {

double largest_difference(const std::vector<Mat4>& a, const std::vector<Mat4>& b) {
  double d = 0.0;
  for (size_t j = 0; j < a.size() && j < b.size(); ++j) d = std::max(d, (a[j] - b[j]).cwiseAbs().maxCoeff());
  return d;
}

// `sk` with one more joint, role none, hung in bind below `parent` (a tail
// `fix` grew, or one `strip-tail` removed from the other side).
Skeleton with_extra_joint(Skeleton sk, int parent, const std::string& name) {
  Transform local;
  local.translation = Vec3(0.0, 0.0, -0.1);
  const Mat4 world = sk.bind_world[parent] * local.matrix();
  sk.names.push_back(name);
  sk.parents.push_back(parent);
  sk.roles.push_back(Role{});
  sk.bind_world.push_back(world);
  sk.inverse_bind.push_back(world.inverse());
  sk.neutral_local.push_back(local);
  sk.stored_local.push_back(local);
  sk.root_parent_world.push_back(Mat4::Identity());
  return sk;
}

int joint_of(const Skeleton& sk, BodyPart part, Side side) {
  for (int j = 0; j < sk.size(); ++j)
    if (sk.roles[j].part == part && sk.roles[j].side == side) return j;
  return -1;
}

// The T-Rex's own walk onto the T-Rex, whose legs hang from unroled BackLeg
// joints (their translations carry the walk's hip hike) and whose feet are IK
// targets under the root: retargeted by role, the body sank about 2 m. Copied
// as authored, every joint's world pose is the artist's at every key.
TEST(OwnRig, TheTrexsOwnWalkIsCopiedAsAuthored) {
  Character trex;
  if (!load_shared_character("Trex.glb", trex)) GTEST_SKIP() << "asset missing: Trex.glb";
  const Clip* walk = clip_named(trex, "Armature|TRex_Walk");
  ASSERT_NE(walk, nullptr);
  const TransferResult r = transfer_onto_itself(trex, *walk);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_EQ(r.diagnostics.own_rig_joints, trex.skeleton.size());
  EXPECT_EQ(r.start_time, 0.0);
  EXPECT_EQ(r.clip.duration, walk->duration);
  // The artist's tracks themselves: times, values and interpolation (a
  // 30 Hz resampling of its 24 fps keys was 3.5 deg off at them).
  int copied = 0;
  for (const JointTracks& a : walk->tracks) {
    if (a.rotation.empty()) continue;
    const JointTracks& b = r.clip.tracks[a.joint];
    EXPECT_EQ(b.rotation.times, a.rotation.times) << trex.skeleton.names[a.joint];
    ASSERT_EQ(b.rotation.values.size(), a.rotation.values.size());
    for (size_t k = 0; k < a.rotation.values.size(); ++k)
      EXPECT_EQ(b.rotation.values[k].coeffs(), a.rotation.values[k].coeffs());
    EXPECT_EQ(b.rotation.interpolation, a.rotation.interpolation);
    ++copied;
  }
  EXPECT_GT(copied, 10);
  // And every joint's world pose, at the artist's keys and between them.
  double worst = 0.0;
  for (int i = 0; i <= 200; ++i) {
    const double t = walk->duration * i / 200;
    worst = std::max(worst, largest_difference(pose_at(trex.skeleton, r.clip, t), pose_at(trex.skeleton, *walk, t)));
  }
  EXPECT_LT(worst, 1e-9);
  for (double l : r.lift) EXPECT_EQ(l, 0.0);

  // With the copy off, the same clip is retargeted like any other.
  TransferOptions retargeted;
  retargeted.copy_own_rig_clips = false;
  const TransferResult q = transfer_onto_itself(trex, *walk, retargeted);
  ASSERT_TRUE(q.status.ok()) << q.status.message;
  EXPECT_EQ(q.diagnostics.own_rig_joints, 0);
}

// A tail grown on the target (fix) or removed from it (strip-tail) leaves the
// rest of the rig the clip's own: the tail joint keeps its bind pose, or the
// source's tail track is dropped.
TEST(OwnRig, AGrownOrStrippedTailLeavesTheRigItsOwn) {
  Character rat;
  if (!load_shared_character("Rat.glb", rat)) GTEST_SKIP() << "asset missing: Rat.glb";
  const Skeleton& sk = rat.skeleton;
  const int hips = joint_of(sk, BodyPart::kHips, Side::kCenter);
  ASSERT_GE(hips, 0);
  const Skeleton grown = with_extra_joint(sk, hips, "Tail_1");
  const std::vector<int> onto_grown = own_rig_joints(sk, grown);
  ASSERT_EQ(onto_grown.size(), static_cast<size_t>(grown.size()));
  for (int j = 0; j < sk.size(); ++j) EXPECT_EQ(onto_grown[j], j);
  EXPECT_EQ(onto_grown.back(), -1);

  const std::vector<int> from_grown = own_rig_joints(grown, sk);
  ASSERT_EQ(from_grown.size(), static_cast<size_t>(sk.size()));
  for (int j = 0; j < sk.size(); ++j) EXPECT_EQ(from_grown[j], j);

  ASSERT_FALSE(rat.clips.empty());
  const Clip copied = copy_own_rig_clip(sk, rat.clips.front(), grown, onto_grown);
  ASSERT_EQ(copied.tracks.size(), static_cast<size_t>(grown.size()));
  const JointTracks& tail = copied.tracks.back();
  ASSERT_EQ(tail.rotation.values.size(), 1u);
  EXPECT_EQ(tail.rotation.values[0].coeffs(), grown.neutral_local.back().rotation.coeffs());
  EXPECT_EQ(tail.translation.values[0], grown.neutral_local.back().translation);
}

// Another rig of the same joint names is not the clip's own: other
// proportions (a 1 % longer shin), a renamed body joint, a leg hung from a
// joint of another name. Those clips are retargeted.
TEST(OwnRig, OtherProportionsNamesOrParentsAreAnotherRig) {
  Character trex;
  if (!load_shared_character("Trex.glb", trex)) GTEST_SKIP() << "asset missing: Trex.glb";
  const Skeleton& sk = trex.skeleton;
  ASSERT_FALSE(own_rig_joints(sk, sk).empty());
  const int shin = joint_of(sk, BodyPart::kShin, Side::kLeft);
  const int thigh = joint_of(sk, BodyPart::kThigh, Side::kLeft);
  ASSERT_GE(shin, 0);
  ASSERT_GE(thigh, 0);
  ASSERT_GE(sk.parents[thigh], 0);

  Skeleton longer = sk;  // the bind offset alone
  longer.neutral_local[shin].translation *= 1.01;
  EXPECT_TRUE(own_rig_joints(sk, longer).empty());
  Skeleton moved = sk;  // the bind position alone
  moved.bind_world[shin].block<3, 1>(0, 3) *= 1.01;
  EXPECT_TRUE(own_rig_joints(sk, moved).empty());
  // A body joint the target lacks: the clip's rig has more body than it.
  const int hand = joint_of(sk, BodyPart::kHand, Side::kLeft);
  ASSERT_GE(hand, 0);
  Skeleton handed = with_extra_joint(sk, hand, "Finger");
  handed.roles.back() = Role{BodyPart::kHand, Side::kLeft};
  EXPECT_TRUE(own_rig_joints(handed, sk).empty());

  Skeleton renamed = sk;
  renamed.names[shin] += "_other";
  EXPECT_TRUE(own_rig_joints(sk, renamed).empty());

  Skeleton reparented = sk;  // the thigh's parent (the T-Rex's unroled BackLeg) under another name
  reparented.names[sk.parents[thigh]] += "_other";
  EXPECT_TRUE(own_rig_joints(sk, reparented).empty());

  // A map that does not fit the target copies nothing.
  const std::vector<int> short_map(static_cast<size_t>(sk.size()) - 1, 0);
  ASSERT_FALSE(trex.clips.empty());
  EXPECT_TRUE(copy_own_rig_clip(sk, trex.clips.front(), sk, short_map).tracks.empty());
}

}  // namespace
}  // namespace rig
