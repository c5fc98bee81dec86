#include "pipeline/retarget_character.h"

#include <cmath>
#include <cstdio>

#include "pipeline/keep_off_grounding.h"

namespace pipeline {

double body_under_floor_rel_h(const rig::TransferResult& t) {
  if (!t.status.ok() || !(t.height > 0.0) || !std::isfinite(t.under_floor.max_depth)) return 0.0;
  return t.under_floor.max_depth / t.height;
}

std::string body_under_floor_where(const rig::TransferResult& t, const rig::Skeleton& sk, double mpu) {
  const rig::BodyFloorDepth& u = t.under_floor;
  if (u.key < 0 || !(u.max_depth > 0.0)) return "no body skin under the floor";
  const int k = u.key;
  const double time = static_cast<size_t>(k) < t.times.size() ? t.times[static_cast<size_t>(k)] : 0.0;
  const std::string bone = u.joint >= 0 && u.joint < sk.size() ? sk.names[static_cast<size_t>(u.joint)] : "?";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s skin %.2f %% of H (%.3f m) under the floor at key %d (%.2f s)", bone.c_str(),
                100.0 * body_under_floor_rel_h(t), u.max_depth * mpu, k, time);
  return buf;
}

rig::Status check_body_above_floor(const rig::TransferResult& t, const rig::Character& target) {
  // A clip copied as authored is the artist's own on the artist's rig: its
  // floor is the artist's, and the copy moves nothing (reported only).
  if (t.diagnostics.own_rig_joints > 0) return rig::Status::Ok();
  if (!(body_under_floor_rel_h(t) > kBodyUnderFloorMaxRelH)) return rig::Status::Ok();
  char bar[64];
  std::snprintf(bar, sizeof bar, "%.0f %% of H", 100.0 * kBodyUnderFloorMaxRelH);
  std::string lifted;
  if (t.diagnostics.max_body_floor_lift > 0.0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " after the body was lifted up to %.3f m",
                  t.diagnostics.max_body_floor_lift * target.meters_per_unit);
    lifted = buf;
  }
  return rig::Status::Error(rig::Status::Code::kBadData,
                            "the clip cannot be placed: " +
                                body_under_floor_where(t, target.skeleton, target.meters_per_unit) + lifted +
                                " (more than " + bar + ")");
}

PreparedTarget prepare_retarget_target(const rig::Character& target, const RetargetOptions& o) {
  PreparedTarget p;
  rig::TransferOptions& to = p.transfer;
  to.sample_rate = o.rate;
  to.ground_body = o.ground_body;
  // The whole-body lift is grounding too: off with it (a clip whose body
  // then goes under the floor is refused, check_body_above_floor).
  to.body_above_floor = o.ground_body;
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
  p.bake_colliders = o.bake_colliders;
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
  bake.colliders = prepared.bake_colliders;
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
  if (rig::Status placed = check_body_above_floor(outcome.transfer, target); !placed.ok()) {
    outcome.unplaced = placed.message;
    return placed;
  }
  return add_retargeted_clip(target, prepared, options.bake_fps, name, outcome);
}

}  // namespace pipeline
