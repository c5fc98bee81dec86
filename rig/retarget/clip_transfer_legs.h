// Internal: the hips and leg steps of clip transfer on the retargeted clip
// (clip_transfer_legs.cpp). Public entry point: rig::transfer_clip
// (rig/clip_transfer.h).
#pragma once

#include <span>
#include <vector>

#include "rig/retarget/contact/foot_track.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/model.h"

namespace rig {

// Adds `dy` (per key) to the hips' world y; keys the hips track at `times`.
void add_hips_world_y(const Skeleton& sk, int hips, const std::vector<double>& times, const std::vector<double>& dy,
                      Clip& clip);

// How far the source's legs reach over `clip` at `times`, hip to ankle over
// their bind chain length, at least 1 and at most kMaxLegReach. A leg whose
// foot is an IK target of its own (the T-Rex's, under the root) reaches past
// its chain when the clip puts the foot there; a mocap leg never does.
constexpr double kMaxLegReach = 1.5;
double source_leg_reach(const Skeleton& source, const Clip& clip, const std::vector<double>& times);

// The least floor alignment (hips lowered by it; negative raises them) at
// which every foot pinned to the floor in its stance phases stays within its
// leg's reach (its bind chain length x `reach_scale`, source_leg_reach: the
// target's detached feet stand as far off their shins as the source's): a
// raise past it leaves a straight stance leg hovering. -inf when no stance
// sample constrains it.
double lowest_reaching_alignment(const Skeleton& sk, const Clip& clip, const std::vector<double>& times,
                                 const std::vector<std::vector<ContactPhase>>& phases,
                                 const std::vector<std::vector<double>>& clearance, double reach_scale);
// The same from the clip's world matrices at `times` (on the neutral
// locals, as foot_track::poses gives them), posed once by the caller.
double lowest_reaching_alignment(const Skeleton& sk, const std::vector<std::vector<Mat4>>& world,
                                 const std::vector<std::vector<ContactPhase>>& phases,
                                 const std::vector<std::vector<double>>& clearance, double reach_scale);

// One posing of the clip for align_floor_to_source_stance: the world
// matrices at every key and the legs' sole points followed through them.
// Shared when every leg has mesh sole points (joint sole points are laid on
// the options' floor, which the resting contacts raise): then the sole
// clearances are sole_clearances', and the resting contacts
// detect_leg_contacts', from the same trajectories.
struct AlignPose {
  bool shared = false;
  std::vector<std::vector<Mat4>> world;
  std::vector<foot_track::FootTrack> feet;
  std::vector<std::vector<double>> clearance;
  // detect_leg_contacts' phases with options `o` (the same sole points).
  std::vector<std::vector<ContactPhase>> contacts(std::span<const double> times, const LimbContactOptions& o) const;
};
AlignPose align_pose(const Skeleton& sk, const Clip& clip, std::span<const double> times, const LimbContactOptions& lo);

// Bind hip-to-ankle distance over the chain length (1 = straight leg).
double straightness(const Skeleton& sk, const Leg& leg);

// Legs by ankle position: per target leg paired with the source leg of the
// same side and front/hind, the ankle goes where the source's ankle moved
// relative to its thigh (scaled by leg length) from the target's own bind
// offset, by two-bone IK; the foot keeps its retargeted world rotation (a
// detached foot is moved there). Copying world rotations alone drives a leg
// whose bind shape differs (a digitigrade dinosaur leg) metres through the
// floor. Returns the number of legs driven.
int drive_legs_by_ankle(const Character& source, const Clip& clip, const Skeleton& sk,
                        const std::vector<double>& times, Clip& out);

}  // namespace rig
