// Tail into the legs (issue 46): how deep a tail's skin goes inside the legs
// over a clip, at skin level. The legs are rig::fit_leg_capsules' capsules,
// posed with their bones; the tail is a set of vertices, posed as skinned.
// A tail vertex already inside a capsule in the bind pose is seam skin where
// the tail meets the haunch, not a tail entering a leg: it is not counted.
#pragma once

#include <span>
#include <vector>

#include "rig/anatomy/leg_capsules.h"
#include "rig/model/model.h"

namespace measure {

// Per vertex of `tail`: outside every capsule in the bind pose.
std::vector<char> outside_legs_at_bind(const rig::Character& c, std::span<const rig::LegCapsule> legs,
                                       std::span<const int> tail);

// The deepest of `tail`'s vertices (skinned positions `posed`, indexed by
// vertex) inside any capsule in the pose `world` (joint world matrices),
// vertices not `counted` left out; 0 when none is inside. Model units.
double tail_in_legs_depth(const rig::Character& c, std::span<const rig::LegCapsule> legs, std::span<const int> tail,
                          std::span<const char> counted, std::span<const rig::Mat4> world,
                          std::span<const rig::Vec3> posed);

struct Penetration {
  double frames_over_fraction = 0.0;  // samples whose depth exceeds the threshold, / samples
  double max_depth = 0.0;             // the largest depth (units of the depths)
};

// Over per-sample depths, with the threshold (1 % of H in the gate).
Penetration penetration(std::span<const double> depths, double threshold);

}  // namespace measure
