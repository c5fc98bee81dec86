// Tails above the floor. A tail that lies on the floor in the bind pose (a
// rat's) goes under it as soon as the retargeted pelvis dips or pitches, or
// when a tail track mapped by name from another character (a wolf's raised
// tail swinging down) turns it: body grounding rightly ignores tail skin
// (SPEC §5), so nothing else keeps it out. At each sample the tail's first
// bone turns up, about the horizontal axis across the tail, by the least
// angle that keeps the tail's skin at or above the floor, or at or above
// where the bind pose has it when that is lower (a tail modelled a little
// into the floor is left where the artist put it). Turns are smoothed over
// time like the arms' (arm_clearance.h). The axis is horizontal across the
// line from the tail's root to its tip; a tail hanging within 15 deg of
// straight down (a horse's or a cow's) has no such line worth the name and
// turns about the body's own lateral axis instead (all of it at vertical,
// blending into its own line at 15 deg), so it swings back and up. Tails are rig::tail_joint_mask's chains (a skirt
// or coat-tail chain of role-less bones from the hips included: lifted out
// of the floor the same way); grown Tail_* chains too, which a spring bake
// run afterwards rekeys with its own ground contact.
#pragma once

#include <span>
#include <vector>

#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/model/model.h"

namespace rig {

struct TailSkin {
  int root = -1;  // the tail's first joint (a tail joint whose parent is no tail joint): turned
  int tip = -1;   // its descendant tail joint farthest from it in the bind pose: the tail's direction
  std::vector<int> vertices;  // mesh vertices a joint of the tail dominates
  double bind_lowest = 0.0;   // the lowest of them in the bind pose, model units
  // The body's backward direction (rig/facing.h) in the bind frame of the
  // root's parent: a steep tail turns back and up about the axis across it.
  // Zero when the skeleton has no sided roles (no facing known).
  Vec3 back_in_parent = Vec3::Zero();
};

// One entry per tail of rig::tail_joint_mask (joint order of the roots),
// with its skin; tails without skin or without a second joint are left
// out, and so are tails whose turn would move the body (a root that is the
// skeleton's root, a body joint below it).
std::vector<TailSkin> tail_skins(const Character& character);

// Turns each tail's root up where its skin goes under `options.floor_y`
// (each tail's floor: the lower of that and its bind_lowest). The tracks of
// the roots are keyed at `times` (ascending); other tracks are copied.
ArmClearanceResult keep_tails_above_floor(const Character& character, std::span<const TailSkin> tails,
                                          const Clip& clip, std::span<const double> times,
                                          const ArmClearanceOptions& options = {});

}  // namespace rig
