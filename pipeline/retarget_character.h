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
  bool ground_body = true;
  bool reconcile_limbs = true;       // pin the feet in their contact phases
  bool contacts_from_source = true;  // stance from the source's feet (else the target's own)
  bool joints_by_name = true;        // joints roles leave out follow the source's of their name
  rig::TransferOptions::LegDrive legs = rig::TransferOptions::LegDrive::kAutoQuadrupeds;
  bool copy_own_rig = true;          // a clip made for this very rig is copied as authored
  bool bake = true;                  // bake the tail spring when the target has a Tail_* chain
  double bake_fps = 30.0;            // keys per second of the baked tail tracks
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
};

PreparedTarget prepare_retarget_target(const rig::Character& target, const RetargetOptions& options);

// The clip transferred onto the prepared target (nothing added to it).
rig::TransferResult retarget_clip(const rig::Character& source, const rig::Clip& clip,
                                  const rig::Calibration& source_calibration, const rig::Character& target,
                                  const PreparedTarget& prepared);

struct RetargetOutcome {
  int rigger_tail = 0;     // PreparedTarget::rigger_tail
  size_t cloth = 0;        // PreparedTarget::cloth
  rig::TransferResult transfer;
  std::string clip_name;   // the name the new clip got in the character
  bool baked = false;
  BakeClipsReport bake;    // when baked
};

// Adds the transferred clip to `target` as `name` (or the transfer's clip
// name, "retargeted" when empty; "_retargeted" appended while the name is
// taken) and bakes the tail into it when `prepared.bake`. A bake failure is
// a data error.
rig::Status add_retargeted_clip(rig::Character& target, const PreparedTarget& prepared, double bake_fps,
                                const std::string& name, RetargetOutcome& outcome);

// The whole operation: prepare `target`, transfer `clip` of `source`, add it
// (as `name`, see add_retargeted_clip) and bake the tail. On an error status
// `target` may hold the new clip unbaked; `outcome.transfer.status` says
// whether the transfer itself failed.
rig::Status retarget_character(rig::Character& target, const rig::Character& source, const rig::Clip& clip,
                               const RetargetOptions& options, const std::string& name, RetargetOutcome& outcome);

}  // namespace pipeline
