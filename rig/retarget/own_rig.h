// A clip made for the target's own rig is copied as authored, not retargeted.
//
// A game file's own walks, a rigger's animation download onto the character
// it rigged, the same clips onto that character after `fix` grew a tail or
// `strip-tail` removed one: the joints, their hierarchy and their bind pose
// are the clip's own. Retargeting by role lost what only the artist's rig
// holds (issue 11: the T-Rex's own walk onto the T-Rex sank the body about
// 2 m: its unroled BackLeg and its 0.74 m hip hike, IK feet the artist's shin
// never reached). The pipeline now keeps those for a rig family's other
// member (retarget.h: joints by name, detached feet off their shins), yet
// still re-grounds and pins the feet: for the clip's very rig the copy is
// exact.
//
// Plain data in and out; no exceptions.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct OwnRigOptions {
  // Bind pose agreement per name-matched joint, local and world: rotations
  // within max_rotation (rad), translations within max_translation x the
  // diagonal of the target's bind joints' bounding box (local offsets
  // measured in bind space). Loose enough for float32 round trips through a
  // file, far below a change of proportions: a shin 1 % longer moves its
  // foot by about 25x this on a biped.
  double max_rotation = 1e-3;
  double max_translation = 1e-4;
};

// Per target joint: the source joint of the same name, or -1 (a tail `fix`
// grew, a helper the source does not have). Empty when `target` is not
// `source`'s own rig:
// - some target joint with a body role (skeleton.roles, part other than
//   none) has no source joint of its name, or the hips do not match;
// - some name-matched pair differs in its body role, its parent's name, or
//   its bind pose (local or world) beyond the options' tolerances;
// - some source joint with a body role has no target joint of its name.
// Source joints the target lacks without a body role (a tail strip-tail
// removed) are dropped. Meshes are not compared: characters sharing one
// skeleton (a game's variants of one rig) share its clips as authored.
std::vector<int> own_rig_joints(const Skeleton& source, const Skeleton& target, const OwnRigOptions& options = {});

// `clip` (animating `source`) onto `target`'s joints through `source_of`
// (own_rig_joints), as authored: every channel the clip animates on a matched
// joint keeps its keys, times and interpolation (no resampling: the artist's
// 24 fps keys stay on their frames, step and cubic-spline tracks stay so);
// a channel it leaves alone gets one key of the source's stored local (the
// node's own transform, which a player holds for it); a joint of the
// target's alone keeps its neutral local (one key), as rig::retarget leaves
// unmapped joints. Every target joint gets one JointTracks. An empty clip
// when `source_of` does not fit `target` or an index is out of `source`.
Clip copy_own_rig_clip(const Skeleton& source, const Clip& clip, const Skeleton& target,
                       std::span<const int> source_of);

}  // namespace rig
