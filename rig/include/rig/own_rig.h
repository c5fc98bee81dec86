// A clip made for the target's own rig is copied as authored, not retargeted.
//
// A game file's own walks, a rigger's animation download onto the character
// it rigged, the same clips onto that character after `fix` grew a tail or
// `strip-tail` removed one: the joints, their hierarchy and their bind pose
// are the clip's own. Retargeting by role would lose what only the artist's
// rig holds (issue 11: the T-Rex's own walk onto the T-Rex sank the body
// about 2 m) - joints without a body role (its BackLeg between pelvis and
// thigh) stay in bind, translations other than the hips' (its 0.74 m hip
// hike) are dropped, and IK feet the artist's shin never reached are put back
// at the shin's end, then floor alignment lowers the hips until they reach.
//
// Plain data in and out; no exceptions.
#pragma once

#include <span>
#include <vector>

#include "rig/model.h"

namespace rig {

struct OwnRigOptions {
  // Bind pose agreement per name-matched joint, local and world: rotations
  // within max_rotation (rad), translations within max_translation x the
  // target's size (its longest bind joint distance from the origin, at least
  // its leg length). Loose enough for float32 round trips through a file,
  // far below any change of proportions (a 1 % longer shin is 100x this).
  double max_rotation = 1e-3;
  double max_translation = 1e-4;
};

// Per target joint: the source joint of the same name, or -1 (a tail `fix`
// grew, a helper the source does not have). Empty when `target` is not
// `source`'s own rig:
// - some target joint with a body role (skeleton.roles, part other than
//   none) has no source joint of its name, or the hips do not match;
// - some name-matched pair differs in its parent's name, or in its bind pose
//   (local or world) beyond the options' tolerances.
// Source joints the target lacks (a tail strip-tail removed) are dropped.
std::vector<int> own_rig_joints(const Skeleton& source, const Skeleton& target, const OwnRigOptions& options = {});

// `clip` (animating `source`) onto `target`'s joints through `source_of`
// (own_rig_joints), sampled at `sample_rate` Hz over the clip's duration
// (the last sample exactly at it), as rig::retarget samples: a matched
// joint takes its source's local rotation, translation and scale wherever
// the clip animates that channel, else the source's stored local (the node's
// own transform, which a player holds for a channel the clip leaves alone),
// one key; a joint of the target's alone keeps its neutral local (one key),
// as rig::retarget leaves unmapped joints. An empty clip when `source_of` does not fit
// `target` or an index is out of `source`, or sample_rate <= 0.
Clip copy_own_rig_clip(const Skeleton& source, const Clip& clip, const Skeleton& target,
                       std::span<const int> source_of, double sample_rate);

}  // namespace rig
