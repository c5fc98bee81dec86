// Retargeting a clip onto a character as the product does it: a boneless
// tail kept out of body grounding, the clip transferred by body role
// (rig::transfer_clip: stance, floor, grounding, feet, arms, elbows, tails),
// added to the character under a free name and, when the character has a
// Tail_* chain, the tail spring baked into it. `harness retarget`, the corpus
// gate and the Blender add-on all go through these functions, so the gate
// measures what users run (SPEC §5-6, §9).
#pragma once

#include <string>
#include <vector>

#include "pipeline/bake_clips.h"
#include "rig/model/model.h"
#include "rig/retarget/clip_transfer.h"

namespace pipeline {

struct RetargetOptions {
  double rate = 30.0;                // keys per second of the new clip
  bool count_tail = false;           // count tail skin in body grounding (measurement only)
  bool ground_body = true;           // body grounding and the whole-body lift (TransferOptions::body_above_floor)
  bool reconcile_limbs = true;       // pin the feet in their contact phases
  bool contacts_from_source = true;  // stance from the source's feet (else the target's own)
  bool joints_by_name = true;        // joints roles leave out follow the source's of their name
  rig::TransferOptions::LegDrive legs = rig::TransferOptions::LegDrive::kAutoQuadrupeds;
  bool copy_own_rig = true;          // a clip made for this very rig is copied as authored
  bool bake = true;                  // bake the tail spring when the target has a Tail_* chain
  double bake_fps = 30.0;            // keys per second of the baked tail tracks
  bool bake_colliders = true;        // bake with the leg colliders (BakeClipsOptions::colliders)
};

// A target prepared once for any number of clips: its transfer options,
// bind-pose calibration and support (sole points, skin groups, floor).
struct PreparedTarget {
  rig::TransferOptions transfer;
  rig::Calibration calibration;
  rig::TargetSupport support;
  int rigger_tail = 0;  // vertices of a boneless tail left out of grounding; -1: detection failed
  size_t cloth = 0;     // vertices of cloth past the knees left out of grounding
  bool bake = false;    // the target has a Tail_* chain and options.bake: clips get baked tail keys
  bool bake_colliders = true;  // options.bake_colliders
};

PreparedTarget prepare_retarget_target(const rig::Character& target, const RetargetOptions& options);

// The clip transferred onto the prepared target (nothing added to it).
rig::TransferResult retarget_clip(const rig::Character& source, const rig::Clip& clip,
                                  const rig::Calibration& source_calibration, const rig::Character& target,
                                  const PreparedTarget& prepared);

// The bar of issue 45: no retarget ends with a body vertex (tail skin and
// carried objects aside) deeper under the floor than this fraction of the
// target's model height H, at any key. `harness retarget` refuses such a
// clip (exit 1) and the corpus gate checks every character x clip against it.
constexpr double kBodyUnderFloorMaxRelH = 0.02;

// How far the transferred clip's body goes under the floor, at its deepest
// key, as a fraction of the target's model height (TransferResult::
// under_floor over TransferResult::height); 0 for a failed transfer or a
// target without a mesh.
double body_under_floor_rel_h(const rig::TransferResult& transfer);

// Where that is, one line: "Head skin 1.30 % of H (0.024 m) under the floor
// at key 25 (0.83 s)"; "no body skin under the floor" when none goes there.
std::string body_under_floor_where(const rig::TransferResult& transfer, const rig::Skeleton& target,
                                   double meters_per_unit);

// Ok, or why the clip cannot be placed on `target`: after every step
// (grounding, feet, the whole-body lift) some body vertex is still more than
// kBodyUnderFloorMaxRelH x H under the floor (one line with the key, its
// time, the depth in % of H and in metres, and the bone whose skin it is).
// A clip copied as authored onto its own rig (own_rig_joints) is the
// artist's and is never refused: its depth is only reported.
rig::Status check_body_above_floor(const rig::TransferResult& transfer, const rig::Character& target);

struct RetargetOutcome {
  int rigger_tail = 0;     // PreparedTarget::rigger_tail
  size_t cloth = 0;        // PreparedTarget::cloth
  rig::TransferResult transfer;
  std::string clip_name;   // the name the new clip got in the character
  bool baked = false;
  BakeClipsReport bake;    // when baked
  // Non-empty when the clip cannot be placed (check_body_above_floor's
  // message): retarget_character then returns that error and adds nothing.
  std::string unplaced;
};

// Adds the transferred clip to `target` as `name` (or the transfer's clip
// name, "retargeted" when empty; "_retargeted" appended while the name is
// taken) and bakes the tail into it when `prepared.bake`. A bake failure is
// a data error.
rig::Status add_retargeted_clip(rig::Character& target, const PreparedTarget& prepared, double bake_fps,
                                const std::string& name, RetargetOutcome& outcome);

// The whole operation: prepare `target`, transfer `clip` of `source`, check
// that its body stays above the floor (check_body_above_floor: otherwise an
// error, `outcome.unplaced` says why and nothing is added), add it (as
// `name`, see add_retargeted_clip) and bake the tail. On an error status
// `target` may hold the new clip unbaked; `outcome.transfer.status` says
// whether the transfer itself failed.
rig::Status retarget_character(rig::Character& target, const rig::Character& source, const rig::Clip& clip,
                               const RetargetOptions& options, const std::string& name, RetargetOutcome& outcome);

}  // namespace pipeline
