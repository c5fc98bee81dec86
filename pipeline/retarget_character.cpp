#include "pipeline/retarget_character.h"

#include "pipeline/keep_off_grounding.h"

namespace pipeline {

PreparedTarget prepare_retarget_target(const rig::Character& target, const RetargetOptions& o) {
  PreparedTarget p;
  rig::TransferOptions& to = p.transfer;
  to.sample_rate = o.rate;
  to.ground_body = o.ground_body;
  to.grounding.count_tail = o.count_tail;
  // Grounding still works when detection fails (rigger_tail < 0); it just
  // cannot tell a boneless tail from the body then.
  p.rigger_tail = keep_off_grounding(target, to.grounding, p.cloth);
  to.reconcile_limbs = o.reconcile_limbs;
  to.contacts_from_source = o.contacts_from_source;
  to.joints_by_name = o.joints_by_name;
  // A Tail_* chain the spring bake keys afterwards gets the solver's own
  // ground contact; an artist's tail (or an unbaked chain) is turned up.
  p.bake = o.bake && has_tail_chain(target);
  to.tails_above_floor = !p.bake;
  to.copy_own_rig_clips = o.copy_own_rig;
  to.legs_by_ankle = o.legs;
  // Calibration from the bind pose, captured before anything plays.
  p.calibration = rig::calibrate(target.skeleton);
  p.support = rig::prepare_target_support(target, p.calibration, to);
  return p;
}

rig::TransferResult retarget_clip(const rig::Character& source, const rig::Clip& clip,
                                  const rig::Calibration& source_calibration, const rig::Character& target,
                                  const PreparedTarget& prepared) {
  return rig::transfer_clip(source, clip, source_calibration, target, prepared.calibration, prepared.support,
                            prepared.transfer);
}

rig::Status add_retargeted_clip(rig::Character& target, const PreparedTarget& prepared, double bake_fps,
                                const std::string& name, RetargetOutcome& outcome) {
  const rig::Clip& clip = outcome.transfer.clip;
  std::string free_name = !name.empty() ? name : clip.name.empty() ? std::string("retargeted") : clip.name;
  for (const rig::Clip& c : target.clips)
    if (c.name == free_name) free_name += "_retargeted";
  outcome.clip_name = free_name;
  outcome.transfer.clip.name = free_name;
  target.clips.push_back(outcome.transfer.clip);
  if (!prepared.bake) return rig::Status::Ok();
  BakeClipsOptions bake;
  bake.fps = bake_fps;
  bake.clips = {free_name};
  if (rig::Status s = bake_clips(target, bake, outcome.bake); !s.ok())
    return rig::Status::Error(s.code, "bake: " + s.message);
  outcome.baked = true;
  return rig::Status::Ok();
}

rig::Status retarget_character(rig::Character& target, const rig::Character& source, const rig::Clip& clip,
                               const RetargetOptions& options, const std::string& name, RetargetOutcome& outcome) {
  const rig::Calibration source_calibration = rig::calibrate(source.skeleton);
  const PreparedTarget prepared = prepare_retarget_target(target, options);
  outcome = RetargetOutcome{};
  outcome.rigger_tail = prepared.rigger_tail;
  outcome.cloth = prepared.cloth;
  outcome.transfer = retarget_clip(source, clip, source_calibration, target, prepared);
  if (!outcome.transfer.status.ok()) return outcome.transfer.status;
  return add_retargeted_clip(target, prepared, options.bake_fps, name, outcome);
}

}  // namespace pipeline
