// Clip transfer (rig::transfer_clip) on the crouching biped: a leading
// bind-pose key trimmed, floor alignment, the hips never touched by limb
// reconciliation, a mismatched calibration refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "crouch_clip.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/model/pose.h"

// --------------------------------------------------------------- clip transfer

namespace rig {
namespace {

using test::biped;
using test::crouch;

TEST(ClipTransfer, LeadingBindPoseKeyIsDetectedAndTrimmed) {
  const Skeleton sk = biped();
  Clip clip = crouch(0.0, 0.0);
  EXPECT_FALSE(starts_with_bind_pose(sk, clip));  // one key per leg track, no jump
  // Prepend a bind-pose key at t = 0 before a crouch keyed from 1/120 s.
  Clip snap;
  snap.duration = 1.0;
  for (const JointTracks& jt : clip.tracks) {
    JointTracks t = jt;
    if (!t.rotation.empty()) {
      t.rotation.times = {0.0, 1.0 / 120, 1.0};
      t.rotation.values = {sk.neutral_local[t.joint].rotation, jt.rotation.values[0], jt.rotation.values[0]};
    }
    if (!t.translation.empty()) {
      t.translation.times = {0.0, 1.0 / 120, 1.0};
      t.translation.values = {sk.neutral_local[t.joint].translation, jt.translation.values[0], jt.translation.values[0]};
    }
    snap.tracks.push_back(t);
  }
  EXPECT_TRUE(starts_with_bind_pose(sk, snap));
  // The same T-pose frame recorded where the performer starts (root moved):
  // still the bind pose (a Blender-written BVH of walk.bvh with one).
  Clip moved = snap;
  for (JointTracks& t : moved.tracks)
    if (sk.parents[t.joint] < 0) {
      if (t.translation.empty()) t.translation = {{0.0, 1.0 / 120, 1.0}, {}};
      t.translation.values = {sk.neutral_local[t.joint].translation + Vec3(-0.3, 0.0, 1.04),
                              sk.neutral_local[t.joint].translation + Vec3(-0.3, 0.0, 1.05),
                              sk.neutral_local[t.joint].translation + Vec3(-0.3, 0.0, 2.0)};
    }
  EXPECT_TRUE(starts_with_bind_pose(sk, moved));
  const Clip trimmed = trim_clip_start(snap, 1.0 / 120);
  EXPECT_NEAR(trimmed.duration, 1.0 - 1.0 / 120, 1e-15);
  EXPECT_FALSE(starts_with_bind_pose(sk, trimmed));
  for (double t : {0.0, 0.3, 1.0 - 1.0 / 120}) {
    const auto a = pose_at(sk, trimmed, t), b = pose_at(sk, snap, t + 1.0 / 120);
    for (int j = 0; j < sk.size(); ++j) EXPECT_LT((a[j] - b[j]).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// A character of `sk` alone (no mesh): a clip source, or a target.
Character skeleton_only(const Skeleton& sk) {
  Character c;
  c.skeleton = sk;
  return c;
}

// A clip keyed from 2 s on (an exporter that kept its frame range): the
// transfer starts at its first key. Before, the output held the first pose
// for 2 s and then played (a 3.4 s clip instead of 1.4 s, glTF T-Rex walk).
TEST(ClipTransfer, AClipKeyedFromLaterStartsAtItsFirstKey) {
  const Skeleton sk = biped();
  const Character source = skeleton_only(sk), target = skeleton_only(sk);
  const Calibration cal = calibrate(sk);
  const Clip clip = crouch(0.0, 0.4);
  Clip late = clip;
  late.duration = clip.duration + 2.0;
  for (JointTracks& jt : late.tracks)
    for (std::vector<double>* times : {&jt.rotation.times, &jt.translation.times, &jt.scale.times})
      for (double& t : *times) t += 2.0;
  TransferOptions o;
  o.copy_own_rig_clips = false;
  const TransferResult a = transfer_clip(source, clip, cal, target, cal, o);
  const TransferResult b = transfer_clip(source, late, cal, target, cal, o);
  ASSERT_TRUE(a.status.ok()) << a.status.message;
  ASSERT_TRUE(b.status.ok()) << b.status.message;
  EXPECT_NEAR(b.start_time, 2.0, 1e-12);
  EXPECT_NEAR(b.clip.duration, a.clip.duration, 1e-9);
  EXPECT_EQ(a.times.size(), b.times.size());
  for (double t : {0.0, 0.5 * a.clip.duration, a.clip.duration}) {
    const auto pa = pose_at(sk, a.clip, t), pb = pose_at(sk, b.clip, t);
    for (int j = 0; j < sk.size(); ++j) EXPECT_LT((pa[j] - pb[j]).cwiseAbs().maxCoeff(), 1e-6) << sk.names[j];
  }
}

// Hips tracks of the transfer never depend on limb reconciliation: limbs
// change thigh, shin and foot only (the grounding tables rely on it).
TEST(ClipTransfer, LimbReconciliationNeverTouchesTheHips) {
  const Skeleton sk = biped();
  const Character source = skeleton_only(sk), target = skeleton_only(sk);
  const Calibration cal = calibrate(sk);
  const Clip clip = crouch(-0.03, 0.4);
  TransferOptions with, without;
  with.align_floor = without.align_floor = false;  // keep the 3 cm sink for the IK to fix
  // One skeleton for source and target: retargeted, not copied as authored.
  with.copy_own_rig_clips = without.copy_own_rig_clips = false;
  without.reconcile_limbs = false;
  const TransferResult a = transfer_clip(source, clip, cal, target, cal, with);
  const TransferResult b = transfer_clip(source, clip, cal, target, cal, without);
  ASSERT_TRUE(a.status.ok()) << a.status.message;
  ASSERT_TRUE(b.status.ok()) << b.status.message;
  ASSERT_EQ(a.feet.size(), 2u);
  ASSERT_EQ(a.clip.tracks.size(), b.clip.tracks.size());
  const std::vector<int> legs = {2, 3, 4, 5, 6, 7};
  int changed = 0;
  for (size_t i = 0; i < a.clip.tracks.size(); ++i) {
    const JointTracks &x = a.clip.tracks[i], &y = b.clip.tracks[i];
    ASSERT_EQ(x.joint, y.joint);
    EXPECT_EQ(x.translation.values, y.translation.values) << sk.names[x.joint];
    bool same = x.rotation.values.size() == y.rotation.values.size();
    for (size_t k = 0; same && k < x.rotation.values.size(); ++k)
      same = x.rotation.values[k].coeffs() == y.rotation.values[k].coeffs();
    if (std::find(legs.begin(), legs.end(), x.joint) == legs.end()) EXPECT_TRUE(same) << sk.names[x.joint];
    else changed += same ? 0 : 1;
  }
  EXPECT_GT(changed, 0) << "the feet were not pinned at all";
  for (const FootReport& f : a.feet)
    for (size_t k = 0; k < f.contact.size(); ++k)
      if (f.contact[k]) {
        EXPECT_NEAR(f.clearance_after[k], 0.0, 1e-9);
      }
}

TEST(ClipTransfer, FloorAlignmentPutsTheStanceLevelOnTheFloor) {
  const Skeleton sk = biped();
  Character c;
  c.skeleton = sk;
  const Calibration cal = calibrate(sk);
  for (double sink : {-0.03, 0.02}) {
    TransferOptions opt;
    opt.reconcile_limbs = false;
    opt.copy_own_rig_clips = false;  // one skeleton for source and target
    const TransferResult r = transfer_clip(c, crouch(sink, 0.4), cal, c, cal, opt);
    ASSERT_TRUE(r.status.ok()) << r.status.message;
    EXPECT_NEAR(r.floor_alignment, sink, 1e-9);
    // The hips moved by exactly -sink in world y at every key.
    for (double t : r.times) {
      const auto before = pose_at(sk, crouch(sink, 0.4), t), after = pose_at(sk, r.clip, t);
      EXPECT_NEAR(after[0](1, 3) - before[0](1, 3), -sink, 1e-9);
    }
  }
}

TEST(ClipTransfer, MismatchedCalibrationIsAnErrorNotAnException) {
  const Skeleton sk = biped();
  Character c;
  c.skeleton = sk;
  Calibration wrong = calibrate(sk);
  wrong.names.pop_back();
  const TransferResult r = transfer_clip(c, crouch(0, 0), wrong, c, calibrate(sk));
  EXPECT_FALSE(r.status.ok());
  EXPECT_TRUE(r.clip.tracks.empty());
}

}  // namespace
}  // namespace rig
