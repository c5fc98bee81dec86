// Retargeting clips between skeletons by body role (SPEC §6).
//
// Every retarget works on private data built from a Calibration captured once
// from each skeleton's bind (neutral) pose. The live or stored pose of the
// target skeleton is never read, so preview playback that moves the target's
// joints between requests cannot leak into generated tracks, and parallel
// requests share nothing mutable.
//
// Assumptions: Y up in bind space; joint scales are uniform (world rotations
// compose as quaternions).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rig/anatomy/facing.h"
#include "rig/model/model.h"

namespace rig {

// Plain-data snapshot of a skeleton's bind pose. Copyable; owns no pointers.
struct Calibration {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Role> roles;
  std::vector<Transform> neutral_local;     // bind pose locals
  std::vector<Mat4> root_parent_world;      // per joint, used for roots
  std::vector<Mat4> bind_world;             // per joint, bind space
  std::vector<Quat> bind_world_rotation;    // rotation part of bind_world
  int hips = -1;                            // joint index, -1 if none
  Vec3 hips_bind_position = Vec3::Zero();   // bind space
  double hips_bind_height = 0.0;            // y of hips_bind_position
  // Thigh -> shin -> foot chain length in bind space (mean of the sides that
  // have the full chain); falls back to hips_bind_height, then 1.
  double leg_length = 0.0;
  // Which way the skeleton faces (from its sided roles, rig/facing.h):
  // clips are turned from the source's facing onto the target's.
  Facing facing;

  int size() const { return static_cast<int>(names.size()); }
};

// Captured from bind_world / neutral_local only; stored_local is not read.
// Uses skeleton.roles as they are (call assign_roles() first).
Calibration calibrate(const Skeleton& skeleton);

// Target joint -> source joint pairs (target index first), by role: parts
// with one joint per (part, side) map one to one; spine joints below the hips
// map by their order along the chain from the hips (first min(n, m)).
// Roles that occur more than once (other than a spine chain) are skipped.
std::vector<std::pair<int, int>> map_joints_by_role(const Calibration& source,
                                                    const Calibration& target);

// Target joint -> source joint pairs for the joints `by_role` leaves out: a
// rig family's own bones without a body role (a hip-hike joint between
// pelvis and thigh, tail, finger and ear bones) and its repeated roles (the
// Wolf's three neck joints, which map by role to nothing): same name, same
// role and side, and the target's parent mapped (by `by_role` or by this
// rule, root-most first) to the source's parent. Roots never match by name.
std::vector<std::pair<int, int>> map_joints_by_name(const Calibration& source, const Calibration& target,
                                                    const std::vector<std::pair<int, int>>& by_role);

// Retargets `clip` (animating `source`'s skeleton) onto `target`.
// - Mapped joint: target world rotation(t) =
//     F * source world rotation(t) * source bind rotation^-1 * F^-1 * target bind rotation,
//   F the turn about Y from the source's facing to the target's (identity
//   when both face the same way).
// - Joints matched by name (map_joints_by_name) turn the same way; a
//   translation the clip animates on one moves it by its change from the
//   source's bind, in bind space, turned by F and scaled by the leg ratio.
// - Unmapped target joints keep their neutral local.
// - Hips position: the target's pelvis pivot moves as the source's does,
//   F * (source pivot(t) - source bind pivot) * target leg length / source
//   leg length (root motion kept); a rig's pivot is where its hind thighs
//   attach when its pelvis joint sits over a quarter leg from them, else the
//   pelvis joint, and the hips joint hangs off it as the pelvis turns.
// - Detached feet (IK targets hung outside their leg) follow their shin at
//   their bind offset, moved by as much as the source's foot is off its own
//   shin's bind offset (a source of the family's IK feet; a mocap ankle: 0).
// Source joints the clip does not animate hold their neutral local.
// Output: a clip on the target's joints, sampled at `sample_rate` Hz over the
// source clip's duration (last sample exactly at the duration); rotation,
// translation and scale tracks for every joint (constant ones have one key).
// `target` is only checked for size against `target_cal`, `source` likewise;
// a mismatch (or a sample_rate not positive and finite) returns an empty clip (no tracks).
// `joints_by_name` false: joints the roles leave out stay in their bind pose
// (no map_joints_by_name), and only the hips and detached feet translate.
Clip retarget(const Character& source, const Clip& clip, const Calibration& source_cal,
              const Calibration& target_cal, const Skeleton& target, double sample_rate = 30.0,
              bool joints_by_name = true);

}  // namespace rig
